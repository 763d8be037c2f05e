/**
 * Unknown API keys draw from their address's anonymous budget (issue 10, finding 6): a caller
 * cycling through made-up keys gets 429s like any other flood, not a KV read per request.
 */
import { describe, expect, it } from "vitest";
import { burst, withApiKey } from "../helpers/credential-burst";

describe("bad API keys", () => {
  it("a burst of unknown API keys from one address gets 429s", { timeout: 120_000 }, async () => {
    const ip = "192.0.2.93";
    const key = (i: number) => `ucpk_${String(i).padStart(43, "x")}`;
    const statuses = await burst((i) => withApiKey(ip, key(i)));
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
  });
});
