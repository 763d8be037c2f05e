/**
 * Issue 10, finding 11 (unbounded memory): a per-isolate map keyed by what callers send must
 * stay within its bound however many distinct keys arrive. The in-flight profile fetches had
 * no bound before src/lib/lru.ts (b1f90b3): an entry left only when its fetch settled, and a
 * fetch whose leading request was cancelled may never settle in workerd, so every distinct
 * profile URL named by a request that went away stayed in the isolate for good.
 */
import { afterEach, describe, expect, it } from "vitest";
import { clearProfileCache, loadPlatformProfile, PROFILE_LIMITS, profileCacheSizes } from "../../src/ucp/profile-fetch";

const URLS = 2_000;
const url = (i: number) => new URL(`https://agent.test/profiles/never-settles-${i}.json`);

describe("per-isolate caches keyed by callers stay bounded", () => {
  afterEach(() => clearProfileCache());

  it(`${URLS} distinct profile URLs whose fetches never settle: in-flight entries stay at the bound`, async () => {
    let fetches = 0;
    // What a cancelled leader's fetch looks like from the isolate: a promise that never settles.
    const fetcher = (() => {
      fetches++;
      return new Promise<Response>(() => {});
    }) as unknown as typeof fetch;
    const now = Date.now();
    // A short deadline so each caller gives up after about a second instead of 5 s.
    const options = { fetcher, timeoutMs: 1 };
    const callers = Array.from({ length: URLS }, (_, i) => loadPlatformProfile(url(i), now, options));
    expect(profileCacheSizes().inflight).toBe(PROFILE_LIMITS.cacheEntries);

    const results = await Promise.all(callers);
    expect(results.every((r) => !r.ok && r.error.code === "profile_unreachable")).toBe(true);
    expect(fetches).toBe(URLS);
    // Nothing settled, so nothing left on its own: only the bound keeps the map from holding 2,000.
    expect(profileCacheSizes().inflight).toBe(PROFILE_LIMITS.cacheEntries);

    // The newest URL still joins its stuck fetch; the oldest was let go and starts a new one.
    await loadPlatformProfile(url(URLS - 1), now, options);
    expect(fetches).toBe(URLS);
    await loadPlatformProfile(url(0), now, options);
    expect(fetches).toBe(URLS + 1);
    expect(profileCacheSizes().inflight).toBe(PROFILE_LIMITS.cacheEntries);
  });
});
