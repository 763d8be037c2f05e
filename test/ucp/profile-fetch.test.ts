/**
 * Platform profile fetching against hostile URLs and servers, end to end through the Worker
 * where the wire matters and through profile-fetch directly where time must be virtual.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { buildConfig } from "../../src/config";
import { profileUrl } from "../../src/ucp/negotiation";
import { loadPlatformProfile, PROFILE_LIMITS, refreshPlatformProfile } from "../../src/ucp/profile-fetch";
import { callTool, PROFILES } from "../helpers/mcp";

const search = { catalog: { query: "jacket" } };
/** test/vitest.config.ts sets a short PROFILE_FETCH_TIMEOUT_MS: the cut-off is tested without 4 s of waiting. */
const deadlineMs = buildConfig(env).profileFetchTimeoutMs;

async function hits(url: string): Promise<number> {
  const res = await fetch(`https://fixtures.test/hits?url=${encodeURIComponent(url)}`);
  return (await res.json<{ hits: number }>()).hits;
}

describe("profile URLs that point inside a network are refused before any fetch", () => {
  it("the hits counter sees every outbound fetch, IP literals included", async () => {
    await fetch("https://127.0.0.1/profiles/control.json");
    expect(await hits("https://127.0.0.1/profiles/control.json")).toBe(1);
  });

  it.each([
    ["loopback", "https://127.0.0.1/profiles/a.json"],
    ["loopback in decimal", "https://2130706433/profiles/b.json"],
    ["loopback in hex", "https://0x7f000001/profiles/c.json"],
    ["loopback in octal", "https://0177.0.0.1/profiles/d.json"],
    ["loopback, short form", "https://127.1/profiles/e.json"],
    ["a private address", "https://10.0.0.7/profiles/f.json"],
    ["a private address, short form", "https://192.168.257/profiles/g.json"],
    ["cloud metadata", "https://169.254.169.254/latest/meta-data/"],
    ["CGNAT", "https://100.64.0.1/profiles/h.json"],
    ["IPv6 loopback", "https://[::1]/profiles/i.json"],
    ["IPv6 unique-local", "https://[fd00::1]/profiles/j.json"],
    ["IPv4-mapped loopback", "https://[::ffff:127.0.0.1]/profiles/k.json"],
    ["NAT64 of a private address", "https://[64:ff9b::10.0.0.1]/profiles/l.json"],
    ["localhost", "https://localhost/profiles/m.json"],
    ["a .localhost name", "https://agent.localhost:8443/profiles/n.json"],
  ])("%s", async (_, profile) => {
    const reply = await callTool("search_catalog", search, profile);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({
      code: -32001,
      data: { code: "invalid_profile_url", content: "Platform profile URL points at a private or loopback address" },
    });
    expect(await hits(new URL(profile).href)).toBe(0);
  });

  it.each([
    ["credentials", "https://user:secret@agent.test/profiles/unique-creds.json", /credentials/],
    ["a single-label host", "https://intranet/profiles/unique-single.json", /fully qualified/],
    ["http", "http://agent.test/profiles/unique-http.json", /https/],
  ])("refuses %s", async (_, profile, message) => {
    const reply = await callTool("search_catalog", search, profile);
    expect(reply.status).toBe(400);
    expect(reply.body.error.data.code).toBe("invalid_profile_url");
    expect(reply.body.error.data.content).toMatch(message);
    const bare = new URL(profile);
    bare.username = "";
    bare.password = "";
    expect(await hits(bare.href)).toBe(0);
    expect(await hits(new URL(profile).href)).toBe(0);
  });
});

describe("the OUTBOUND_ALLOW exception", () => {
  const dev = buildConfig({ MERCHANT_ORIGIN: "https://shop.example.com", OUTBOUND_ALLOW: "http://localhost:*" });
  const prod = buildConfig({ MERCHANT_ORIGIN: "https://shop.example.com" });
  const local = "http://localhost:8788/profiles/unique-dev.json";

  it("lets local development fetch an http loopback profile, and only there", async () => {
    expect(profileUrl(local, prod).ok).toBe(false);
    const url = profileUrl(local, dev);
    if (!url.ok) throw new Error("the allow-list should admit a localhost profile");
    expect((await loadPlatformProfile(url.value, Date.now())).ok).toBe(true);
    expect(await hits(local)).toBe(1);
    expect(profileUrl("http://127.0.0.1:8788/profiles/unique-dev.json", dev).ok).toBe(false);
  });
});

describe("fetch limits", () => {
  it.each([301, 302, 303, 307, 308])("treats a %s as unreachable and never follows it", async (status) => {
    const source = `${PROFILES}/redirect-${status}-r${status}.json`;
    const reply = await callTool("search_catalog", search, source);
    expect(reply.status).toBe(424);
    expect(reply.body.error.data).toMatchObject({
      code: "profile_unreachable",
      content: expect.stringMatching(/redirect/),
    });
    expect(await hits(source)).toBe(1);
    expect(await hits(`${PROFILES}/unique-target-r${status}.json`)).toBe(0);
  });

  it.each([
    ["declared by content-length", "huge.json?cap"],
    ["streamed without a length", "huge-streamed.json"],
  ])("refuses a body over 256 KiB %s as malformed", async (_, file) => {
    const reply = await callTool("search_catalog", search, `${PROFILES}/${file}`);
    expect(reply.status).toBe(422);
    expect(reply.body.error.data).toMatchObject({
      code: "profile_malformed",
      content: expect.stringMatching(/exceeds/),
    });
  });

  it("cuts off slow headers, a stalled body and a trickling body at the deadline, and caches the failure", async () => {
    const urls = ["slow.json?deadline", "stalled-body.json", "trickle.json"].map((f) => `${PROFILES}/${f}`);
    const started = Date.now();
    const replies = await Promise.all(urls.map((url) => callTool("search_catalog", search, url)));
    const elapsed = Date.now() - started;
    for (const reply of replies) {
      expect(reply.status).toBe(424);
      expect(reply.body.error.data).toEqual({
        code: "profile_unreachable",
        content: "Platform profile fetch timed out",
        continue_url: "https://shop.example.com",
      });
    }
    expect(deadlineMs).toBeLessThan(PROFILE_LIMITS.timeoutMs);
    expect(elapsed).toBeGreaterThanOrEqual(deadlineMs - 100);
    expect(elapsed).toBeLessThan(deadlineMs + 1500);
    // Within the failure TTL the same URLs answer at once, without fetching again.
    const again = Date.now();
    for (const url of urls) expect((await callTool("search_catalog", search, url)).status).toBe(424);
    expect(Date.now() - again).toBeLessThan(1000);
    for (const url of urls) expect(await hits(url)).toBe(1);
  }, 15_000);
});

describe("no fetch loops", () => {
  it.each([
    ["a 503", "server-error.json?no-loop", 424],
    ["a redirect", "redirect-302-no-loop.json", 424],
    ["a body that is not JSON", "not-json.json?no-loop", 422],
    ["a body over the cap", "huge-streamed.json?no-loop", 422],
  ])("fetches a URL that answers %s once per failure TTL", async (_, file, status) => {
    const url = `${PROFILES}/${file}`;
    for (let i = 0; i < 5; i++) expect((await callTool("search_catalog", search, url)).status).toBe(status);
    expect(await hits(url)).toBe(1);
  });

  it("fetches a failing URL again only once the failure TTL has passed", async () => {
    const url = new URL(`${PROFILES}/server-error.json?ttl`);
    const t0 = Date.now();
    expect((await loadPlatformProfile(url, t0)).ok).toBe(false);
    expect((await loadPlatformProfile(url, t0 + PROFILE_LIMITS.failureTtlMs - 1)).ok).toBe(false);
    expect(await hits(url.href)).toBe(1);
    expect((await loadPlatformProfile(url, t0 + PROFILE_LIMITS.failureTtlMs)).ok).toBe(false);
    expect(await hits(url.href)).toBe(2);
  });

  it.each([
    ["good", "delayed-burst.json", 200],
    ["failing", "failing-burst.json", 424],
  ])("shares one fetch among 10 concurrent requests for a fresh %s profile", async (_, file, status) => {
    const url = `${PROFILES}/${file}`;
    const replies = await Promise.all(Array.from({ length: 10 }, () => callTool("search_catalog", search, url)));
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(status));
    expect(await hits(url)).toBe(1);
  });

  it("hands every concurrent caller the same result", async () => {
    const url = new URL(`${PROFILES}/delayed-direct.json`);
    const now = Date.now();
    const results = await Promise.all(Array.from({ length: 10 }, () => loadPlatformProfile(url, now)));
    expect(new Set(results).size).toBe(1);
    expect(await hits(url.href)).toBe(1);
  });
});

describe("refreshPlatformProfile (unknown signing key id)", () => {
  const floor = PROFILE_LIMITS.minTtlMs;

  it("re-fetches past the cache at most once per TTL floor per origin", async () => {
    const url = new URL("https://refresh-a.agent.test/profiles/unique-keys.json");
    const t0 = Date.now();
    expect((await loadPlatformProfile(url, t0)).ok).toBe(true);
    expect(await hits(url.href)).toBe(1);

    const first = await refreshPlatformProfile(url, t0 + 1000);
    expect(first.ok).toBe(true);
    expect(await hits(url.href)).toBe(2);
    // Inside the floor: the cached value, no fetch.
    expect(await refreshPlatformProfile(url, t0 + 1000 + floor - 1)).toBe(first);
    expect(await hits(url.href)).toBe(2);
    // Another URL on the same origin shares the floor.
    const sibling = new URL("https://refresh-a.agent.test/profiles/unique-keys-2.json");
    await loadPlatformProfile(sibling, t0 + 2000);
    await refreshPlatformProfile(sibling, t0 + 3000);
    expect(await hits(sibling.href)).toBe(1);

    expect((await refreshPlatformProfile(url, t0 + 1000 + floor)).ok).toBe(true);
    expect(await hits(url.href)).toBe(3);
  });

  it("keeps each origin's floor separate", async () => {
    const t0 = Date.now();
    const a = new URL("https://refresh-b.agent.test/profiles/unique-x.json");
    const b = new URL("https://refresh-c.agent.test/profiles/unique-x.json");
    for (const url of [a, b]) await loadPlatformProfile(url, t0);
    for (const url of [a, b]) await refreshPlatformProfile(url, t0 + 1);
    for (const url of [a, b]) await refreshPlatformProfile(url, t0 + 2);
    expect([await hits(a.href), await hits(b.href)]).toEqual([2, 2]);
  });

  it("is an ordinary load when nothing is cached, and does not spend the origin's refresh", async () => {
    const url = new URL("https://refresh-f.agent.test/profiles/unique-cold.json");
    const t0 = Date.now();
    expect((await refreshPlatformProfile(url, t0)).ok).toBe(true);
    expect((await refreshPlatformProfile(url, t0 + 1)).ok).toBe(true);
    expect(await hits(url.href)).toBe(2);
  });

  it("does not refetch while a failure is cached", async () => {
    const url = new URL("https://refresh-d.agent.test/profiles/missing.json");
    const t0 = Date.now();
    const failed = await loadPlatformProfile(url, t0);
    expect(failed.ok).toBe(false);
    expect(await refreshPlatformProfile(url, t0 + 1)).toBe(failed);
    expect(await hits(url.href)).toBe(1);
  });

  it("keeps the good profile when the refresh itself fails", async () => {
    const url = new URL("https://refresh-e.agent.test/profiles/unique-keep.json");
    const t0 = Date.now();
    const good = await loadPlatformProfile(url, t0);
    expect(good.ok).toBe(true);
    const down: typeof fetch = async () => new Response("down", { status: 503 });
    const refreshed = await refreshPlatformProfile(url, t0 + 1, { fetcher: down });
    expect(refreshed.ok).toBe(false);
    expect(await loadPlatformProfile(url, t0 + 2)).toBe(good);
  });
});
