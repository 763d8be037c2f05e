/**
 * Fetches platform profiles: https only, no redirects, a timeout and a size cap, cached
 * per isolate by URL for max(Cache-Control max-age, 60 s). Failures are cached briefly
 * too, so one bad URL cannot make the Worker fetch in a loop.
 */
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
  timeoutMs: 4000,
  maxBytes: 256 * 1024,
  minTtlMs: 60_000,
  maxTtlMs: 24 * 3600_000,
  failureTtlMs: 30_000,
  cacheEntries: 512,
} as const;

const cache = new Map<string, { result: ProfileResult; expiresAt: number }>();

/** Validates a profile URL as the spec requires: absolute https. */
export function checkProfileUrl(value: unknown): Result<URL, ProfileFailure> {
  if (typeof value !== "string" || value.length === 0) {
    return err({ code: "invalid_profile_url", content: 'meta["ucp-agent"].profile is required' });
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return err({ code: "invalid_profile_url", content: "Platform profile is not a valid URL" });
  }
  if (url.protocol !== "https:") {
    return err({ code: "invalid_profile_url", content: "Platform profile URL must use https" });
  }
  return ok(url);
}

export async function loadPlatformProfile(
  url: URL,
  now: number,
  fetcher: typeof fetch = fetch,
): Promise<ProfileResult> {
  const key = url.href;
  const hit = cache.get(key);
  if (hit && hit.expiresAt > now) {
    cache.delete(key);
    cache.set(key, hit); // most recently used goes last
    return hit.result;
  }
  const { result, ttlMs } = await fetchProfile(url, fetcher);
  remember(key, result, now + ttlMs);
  return result;
}

function remember(key: string, result: ProfileResult, expiresAt: number): void {
  cache.delete(key);
  cache.set(key, { result, expiresAt });
  while (cache.size > PROFILE_LIMITS.cacheEntries) {
    const oldest = cache.keys().next().value;
    if (oldest === undefined) break;
    cache.delete(oldest);
  }
}

/** Test hook: forget every cached profile. */
export function clearProfileCache(): void {
  cache.clear();
}

async function fetchProfile(url: URL, fetcher: typeof fetch): Promise<{ result: ProfileResult; ttlMs: number }> {
  const failure = (code: ProfileFailureCode, content: string) => ({
    result: err({ code, content }),
    ttlMs: PROFILE_LIMITS.failureTtlMs,
  });
  let response: Response;
  try {
    response = await fetcher(url.href, {
      redirect: "manual",
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(PROFILE_LIMITS.timeoutMs),
    });
  } catch (e) {
    const timedOut = e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError");
    return failure(
      "profile_unreachable",
      timedOut ? "Platform profile fetch timed out" : "Platform profile could not be fetched",
    );
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    return failure("profile_unreachable", "Platform profile responded with a redirect; redirects are not followed");
  }
  if (!response.ok) {
    await response.body?.cancel();
    return failure("profile_unreachable", `Platform profile responded with HTTP ${response.status}`);
  }
  const text = await readCapped(response, PROFILE_LIMITS.maxBytes);
  if (text === undefined)
    return failure("profile_malformed", `Platform profile exceeds ${PROFILE_LIMITS.maxBytes} bytes`);
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
