/** check:config names a bad POLICIES entry where it is, as it does every other var. */
import { describe, expect, it } from "vitest";
import { makeStore, runScript } from "./store-fixture";

describe("npm run check:config and POLICIES", { timeout: 60_000 }, () => {
  it("names an entry without a description, and exits 1", async () => {
    const store = await makeStore((t) =>
      t.replace('description = "Return unworn items within 30 days of delivery for a full refund."\n', ""),
    );
    const run = runScript("scripts/check-config.ts", ["--config", store.config]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^error: \[vars\.POLICIES\]\[0\]\.description: expected the policy's summary/m);
  });

  it("names a second policy of one type (they would tie)", async () => {
    const store = await makeStore((t) => t.replace('type = "terms"', 'type = "shipping"'));
    const run = runScript("scripts/check-config.ts", ["--config", store.config]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^error: \[vars\.POLICIES\]\[3\]\.type: a second policy of type com\.example\.store-a\.policy\.shipping/m,
    );
  });
});
