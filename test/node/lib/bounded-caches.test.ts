/**
 * Per-isolate caches keyed by what callers send stay within their bound (issue 10, finding 11):
 * thousands of distinct profile URLs and API keys, as a hostile agent would vary them.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type AuthKv, clearApiKeyCache, findApiKey } from "../../../src/auth/api-keys";
import {
  clearProfileCache,
  loadPlatformProfile,
  PROFILE_LIMITS,
  profileCacheSizes,
} from "../../../src/ucp/profile-fetch";

const PROFILE = JSON.stringify({
  ucp: { version: "2026-04-08", services: {}, capabilities: {}, payment_handlers: {} },
});

describe("bounded per-isolate caches", () => {
  afterEach(() => {
    clearProfileCache();
    clearApiKeyCache();
  });

  it("profiles from 3,000 distinct URLs: the cache holds at most its bound, the newest stays", async () => {
    let fetches = 0;
    const fetcher = (async () => {
      fetches++;
      return new Response(PROFILE, { headers: { "content-type": "application/json" } });
    }) as unknown as typeof fetch;
    const now = Date.now();
    const url = (i: number) => new URL(`https://agent.test/profiles/p-${i}.json`);
    for (let i = 0; i < 3000; i++) {
      expect((await loadPlatformProfile(url(i), now, { fetcher })).ok).toBe(true);
    }
    const sizes = profileCacheSizes();
    expect(sizes.profiles).toBe(PROFILE_LIMITS.cacheEntries);
    expect(sizes.inflight).toBe(0);
    expect(fetches).toBe(3000);
    await loadPlatformProfile(url(2999), now, { fetcher }); // newest: cached
    expect(fetches).toBe(3000);
    await loadPlatformProfile(url(0), now, { fetcher }); // oldest: evicted, fetched again
    expect(fetches).toBe(3001);
  });

  it("5,000 unknown API keys: each is one KV read, and the remembered misses stay bounded", async () => {
    let reads = 0;
    const kv = {
      get: async () => {
        reads++;
        return null;
      },
    } as unknown as AuthKv;
    const key = (i: number) => `ucpk_${String(i).padStart(43, "x")}`;
    const now = Date.now();
    for (let i = 0; i < 5000; i++) expect(await findApiKey(kv, key(i), now)).toBeNull();
    expect(reads).toBe(5000);
    await findApiKey(kv, key(4999), now); // a recent miss is remembered: no read
    expect(reads).toBe(5000);
    await findApiKey(kv, key(0), now); // the oldest was let go: read again
    expect(reads).toBe(5001);
  });
});
