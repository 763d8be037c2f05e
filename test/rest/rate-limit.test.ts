/** Over the anonymous budget (200 per 60 s in the test pool), REST answers 429 with `retry-after` and `{ code, retry_after }`. */
import { describe, expect, it } from "vitest";
import { burst } from "../helpers/credential-burst";
import { type RestReply, rest } from "./rest-client";

const octet = () => Math.floor(Math.random() * 254) + 1;
const burstIp = `10.${octet()}.${octet()}.${octet()}`;

describe("REST rate limits", () => {
  it("a burst over the anonymous limit: 429 with retry-after, the binding's status (checkout-rest.md)", {
    timeout: 60_000,
  }, async () => {
    let limited: RestReply | undefined;
    const statuses = await burst(async () => {
      const reply = await rest("GET", "/carts/cart_unknown", { headers: { "cf-connecting-ip": burstIp } });
      if (reply.status === 429) limited ??= reply;
      return reply.status;
    });
    expect(limited, `no 429 after ${statuses.length} requests`).toBeDefined();
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(200 - 50);
    expect(limited?.headers.get("retry-after")).toBe("60");
    expect(limited?.body).toEqual({
      code: "rate_limited",
      content: "Rate limit exceeded",
      retry_after: 60,
      tier: "anonymous",
    });
  });
});
