/**
 * Rate limits (Workers rate-limiting bindings; the test pool allows 200 anonymous requests
 * a minute per client IP): past the budget a caller gets -32000 with HTTP 429 and retry_after, while other
 * callers are unaffected.
 */
import { describe, expect, it } from "vitest";
import { rpc } from "../helpers/mcp";

const burstIp = "192.0.2.77";

describe("rate limits", () => {
  it("a burst over the anonymous limit gets 429 with retry_after; other clients are not slowed", {
    timeout: 60_000,
  }, async () => {
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof rpc>> | undefined;
    // Windows are fixed minutes: a rollover mid-burst resets the count once, hence room for two budgets.
    for (let batch = 0; batch < 9 && !limited; batch++) {
      const replies = await Promise.all(
        Array.from({ length: 50 }, () => rpc("ping", {}, { "cf-connecting-ip": burstIp })),
      );
      statuses.push(...replies.map((r) => r.status));
      limited = replies.find((r) => r.status === 429);
    }
    expect(limited, "no 429 after 450 requests").toBeDefined();
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(200 - 50);
    expect(limited?.headers.get("retry-after")).toBe("60");
    expect(limited?.body.error).toEqual({
      code: -32000,
      message: "Rate limit exceeded",
      data: { code: "rate_limited", retry_after: 60, tier: "anonymous" },
    });
    // Another client (its own budget) is served as usual meanwhile.
    const other = await rpc("ping", {}, { "cf-connecting-ip": "192.0.2.78" });
    expect(other.status).toBe(200);
    expect(other.body.result).toEqual({});
  });
});
