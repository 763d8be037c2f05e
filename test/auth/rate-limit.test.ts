/**
 * Rate limits (Workers rate-limiting bindings; the test pool allows 200 anonymous requests
 * a minute per client IP): past the budget a caller gets -32000 with HTTP 429 and retry_after, while other
 * callers are unaffected. Requests with broken credentials draw from their address's anonymous
 * budget (and a profile that fails to load, from its origin's), and once it is spent are refused
 * before any profile fetch or signature check.
 */
import { describe, expect, it } from "vitest";
import { BATCH, badlySigned, burst, profileHits } from "../helpers/credential-burst";
import { FULL_PROFILE, rpc } from "../helpers/mcp";

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

  it("bad signatures naming a new profile URL each, from one address: 429s, and fetches only for requests let through", {
    timeout: 120_000,
  }, async () => {
    const ip = "192.0.2.91";
    const prefix = `https://burst-${crypto.randomUUID()}.test/profiles/unique-`;
    const replies: Array<{ status: number; code?: string }> = [];
    await burst(async (i) => {
      const reply = await badlySigned(ip, `${prefix}${i}.json`);
      replies.push(reply);
      return reply.status;
    });
    const limited = replies.filter((r) => r.status === 429);
    expect(limited.length, "no 429 in 800 bad signatures").toBeGreaterThan(0);
    expect(limited.every((r) => r.code === "rate_limited")).toBe(true);
    // Each failure is charged once it is known, so the batch that tipped the budget may have
    // fetched in full before learning it (and a burst that straddles a fixed-minute window earns
    // a second budget). Bounded: the fetches are the requests let through, plus that batch.
    const hits = await profileHits(prefix);
    const through = replies.filter((r) => r.status !== 429).length;
    expect(hits).toBeLessThanOrEqual(through + BATCH);
    // Once the address is blocked, a request is refused before any fetch: a batch refused in
    // full (up to three tries, in case one straddles a window's end) adds no fetch.
    let refused = false;
    for (let tries = 0; tries < 3 && !refused; tries++) {
      const before = await profileHits(prefix);
      const offset = replies.length + tries * BATCH;
      const more = await Promise.all(
        Array.from({ length: BATCH }, (_, j) => badlySigned(ip, `${prefix}${offset + j}.json`)),
      );
      refused = more.every((r) => r.status === 429 && r.code === "rate_limited");
      if (refused) expect(await profileHits(prefix)).toBe(before);
    }
    expect(refused, "no batch refused in full after the first 429").toBe(true);
    // A well-signed platform from another address is served meanwhile.
    const good = await rpc(
      "tools/call",
      {
        name: "get_order",
        arguments: { meta: { "ucp-agent": { profile: FULL_PROFILE } }, id: "ord_missing" },
      },
      { "cf-connecting-ip": "192.0.2.92" },
    );
    expect(good.headers.get("ucp-trust-tier")).toBe("authenticated");
  });
});
