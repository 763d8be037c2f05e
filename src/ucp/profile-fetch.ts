/**
 * Fetches platform profiles: only URLs checkOutboundUrl passes, no redirects, one deadline
 * over headers and body, a size cap. Cached per isolate by URL for max(Cache-Control max-age,
 * 60 s) up to 24 h; failures for 30 s; concurrent callers share one in-flight fetch. Together
 * these keep a bad URL or a burst from making the Worker fetch in a loop.
 */
import { DEFAULT_PROFILE_FETCH_TIMEOUT_MS } from "../config";
import { Lru } from "../lib/lru";
import { checkOutboundUrl, NO_OUTBOUND_EXCEPTIONS, type OutboundAllowList } from "../lib/outbound-url";
import { readCapped } from "../lib/read-capped";
import { err, ok, type Result } from "../lib/result";
import { parseUntrustedJson } from "../lib/safe-json";
import { type PlatformProfile, parsePlatformProfile } from "./platform-profile";

export type ProfileFailureCode = "invalid_profile_url" | "profile_unreachable" | "profile_malformed";
export interface ProfileFailure {
  readonly code: ProfileFailureCode;
  readonly content: string;
}
export type ProfileResult = Result<PlatformProfile, ProfileFailure>;

export const PROFILE_LIMITS = {
  /**
   * Covers connect, headers and the whole body: a body that stalls or trickles is cut off too.
   * The default; a store sets its own with PROFILE_FETCH_TIMEOUT_MS (the tests set a short one).
   */
  timeoutMs: DEFAULT_PROFILE_FETCH_TIMEOUT_MS,
  maxBytes: 256 * 1024,
  /** Also the spec's floor between forced refreshes of one origin. */
  minTtlMs: 60_000,
  maxTtlMs: 24 * 3600_000,
  failureTtlMs: 30_000,
  cacheEntries: 512,
} as const;

/** How long past the fetch deadline a joined caller waits before giving up on the leader. */
const JOIN_GRACE_MS = 1000;
const TIMED_OUT: ProfileResult = err({ code: "profile_unreachable", content: "Platform profile fetch timed out" });

// Keyed by caller-chosen URLs, so bounded. An in-flight entry pushed out only means a later
// caller starts its own fetch. lastRefresh keeps its own bound: evicting a stamp inside the
// floor would allow a second forced refresh.
const cache = new Lru<string, { result: ProfileResult; expiresAt: number }>(PROFILE_LIMITS.cacheEntries);
const inflight = new Lru<string, { promise: Promise<ProfileResult>; startedAt: number; timeoutMs: number }>(
  PROFILE_LIMITS.cacheEntries,
);
const lastRefresh = new Map<string, number>();

/**
 * Validates a profile URL before anything is fetched: the spec's https rule plus the
 * outbound guard (no private or loopback targets). `allow` is the local-dev exception.
 */
export function checkProfileUrl(
  value: unknown,
  allow: OutboundAllowList = NO_OUTBOUND_EXCEPTIONS,
): Result<URL, ProfileFailure> {
  if (typeof value !== "string" || value.length === 0) {
    return err({ code: "invalid_profile_url", content: 'meta["ucp-agent"].profile is required' });
  }
  const url = checkOutboundUrl(value, allow);
  return url.ok ? url : err({ code: "invalid_profile_url", content: `Platform profile ${url.error}` });
}

export interface FetchOptions {
  readonly fetcher?: typeof fetch;
  /** The deadline over headers and body (MerchantConfig.profileFetchTimeoutMs). */
  readonly timeoutMs?: number;
}

/** The profile at `url` (which must come from checkProfileUrl), from cache when fresh. */
export async function loadPlatformProfile(url: URL, now: number, options: FetchOptions = {}): Promise<ProfileResult> {
  const hit = cached(url.href, now);
  return hit ?? fetchShared(url, now, options);
}

/**
 * Re-fetches past a fresh cached profile, for a signature naming an unknown key id. The
 * spec allows this at most once per TTL floor per origin; inside that window, or while a
 * failure is cached, it answers from the cache like loadPlatformProfile.
 */
export async function refreshPlatformProfile(
  url: URL,
  now: number,
  options: FetchOptions = {},
): Promise<ProfileResult> {
  const hit = cached(url.href, now);
  if (!hit) return fetchShared(url, now, options); // nothing fresh to bypass: an ordinary load
  if (!hit.ok || !claimRefresh(url.origin, now)) return hit;
  return fetchShared(url, now, options);
}

/** True when a fresh profile (not a cached failure) for `url` is held, so loading it costs no fetch. */
export function hasFreshProfile(url: URL, now: number): boolean {
  const hit = cache.peek(url.href);
  return hit !== undefined && hit.expiresAt > now && hit.result.ok;
}

/** Test hook: how many entries the per-isolate maps hold. */
export function profileCacheSizes(): { profiles: number; inflight: number; refreshStamps: number } {
  return { profiles: cache.size, inflight: inflight.size, refreshStamps: lastRefresh.size };
}

/** Test hook: forget every cached profile, in-flight fetch and refresh stamp. */
export function clearProfileCache(): void {
  cache.clear();
  inflight.clear();
  lastRefresh.clear();
}

function cached(key: string, now: number): ProfileResult | undefined {
  const hit = cache.get(key);
  if (!hit || hit.expiresAt <= now) return undefined;
  return hit.result;
}

function remember(key: string, result: ProfileResult, expiresAt: number): void {
  cache.set(key, { result, expiresAt });
}

/** True when `origin` may force a refresh now; records it. Never evicts a stamp inside the floor. */
function claimRefresh(origin: string, now: number): boolean {
  const last = lastRefresh.get(origin);
  if (last !== undefined && now - last < PROFILE_LIMITS.minTtlMs) return false;
  if (last === undefined && lastRefresh.size >= PROFILE_LIMITS.cacheEntries) {
    for (const [key, at] of lastRefresh) if (now - at >= PROFILE_LIMITS.minTtlMs) lastRefresh.delete(key);
    // Still full: that many origins refreshed within a minute; the floor is also a global cap.
    if (lastRefresh.size >= PROFILE_LIMITS.cacheEntries) return false;
  }
  lastRefresh.delete(origin);
  lastRefresh.set(origin, now);
  return true;
}

/**
 * One fetch per URL at a time: later callers join the leader's promise. Each caller also
 * waits under its own deadline, because if the leader's request is cancelled its fetch may
 * never settle; such a stuck entry is replaced once it is older than the deadline.
 */
function fetchShared(url: URL, now: number, options: FetchOptions): Promise<ProfileResult> {
  const key = url.href;
  const timeoutMs = options.timeoutMs ?? PROFILE_LIMITS.timeoutMs;
  let flight = inflight.get(key);
  if (!flight || now - flight.startedAt > flight.timeoutMs + JOIN_GRACE_MS) {
    const fetcher = options.fetcher ?? fetch;
    const promise: Promise<ProfileResult> = fetchProfile(url, fetcher, timeoutMs).then(({ result, ttlMs }) => {
      // Only a forced refresh fetches past a fresh profile; its failure must not evict the
      // good copy, or one hiccup (or a caller naming a bogus kid) locks the platform out.
      if (result.ok || !cached(key, now)?.ok) remember(key, result, now + ttlMs);
      if (inflight.peek(key)?.promise === promise) inflight.delete(key);
      return result;
    });
    flight = { promise, startedAt: now, timeoutMs };
    inflight.set(key, flight);
  }
  return withDeadline(flight.promise, timeoutMs + JOIN_GRACE_MS);
}

function withDeadline(promise: Promise<ProfileResult>, ms: number): Promise<ProfileResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<ProfileResult>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  return Promise.race([promise, late]).finally(() => {
    if (timer !== undefined) clearTimeout(timer);
  });
}

type Fetched = { result: ProfileResult; ttlMs: number };

function failure(code: ProfileFailureCode, content: string): Fetched {
  return { result: err({ code, content }), ttlMs: PROFILE_LIMITS.failureTtlMs };
}

/** Never rejects: every way a fetch can go wrong is a cached failure. */
async function fetchProfile(url: URL, fetcher: typeof fetch, timeoutMs: number): Promise<Fetched> {
  // In workerd an aborted fetch signal also errors the body stream mid-read, so this one
  // deadline bounds a body that stalls or trickles after the headers (tested).
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return await fetchWithin(url, fetcher, signal);
  } catch {
    return signal.aborted
      ? { result: TIMED_OUT, ttlMs: PROFILE_LIMITS.failureTtlMs }
      : failure("profile_unreachable", "Platform profile could not be fetched");
  }
}

async function fetchWithin(url: URL, fetcher: typeof fetch, signal: AbortSignal): Promise<Fetched> {
  const response = await fetcher(url.href, { redirect: "manual", headers: { accept: "application/json" }, signal });
  // UCP: profile fetches MUST NOT follow redirects.
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    return failure("profile_unreachable", "Platform profile responded with a redirect; redirects are not followed");
  }
  if (!response.ok) {
    await response.body?.cancel();
    return failure("profile_unreachable", `Platform profile responded with HTTP ${response.status}`);
  }
  const text = await readCapped(response, PROFILE_LIMITS.maxBytes);
  if (text === undefined) {
    return failure("profile_malformed", `Platform profile exceeds ${PROFILE_LIMITS.maxBytes} bytes`);
  }
  const json = parseUntrustedJson(text);
  if (!json.ok) return failure("profile_malformed", "Platform profile is not valid JSON");
  const parsed = parsePlatformProfile(json.value);
  if (!parsed.ok) return failure("profile_malformed", parsed.error);
  return { result: ok(parsed.value), ttlMs: ttlFrom(response.headers.get("cache-control")) };
}

export function ttlFrom(cacheControl: string | null): number {
  const match = cacheControl ? /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(cacheControl) : null;
  const seconds = match?.[1] ? Number(match[1]) : 0;
  return Math.min(Math.max(seconds * 1000, PROFILE_LIMITS.minTtlMs), PROFILE_LIMITS.maxTtlMs);
}
