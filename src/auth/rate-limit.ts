/**
 * Request budgets per tier, enforced with the Workers rate-limiting bindings
 * (RATE_LIMIT_ANONYMOUS / RATE_LIMIT_AUTHENTICATED, `[[ratelimits]]` in wrangler.toml).
 * Chosen over a Durable Object token bucket because the binding is answered in the same
 * location without a round trip, so traffic under the limit pays next to nothing
 * (docs/benchmarks.md); the price is that counts are per location and approximate.
 *
 * Keys: an authenticated platform by its verified profile URL; an anonymous caller by
 * client IP, since its profile URL is only a claim anyone can vary.
 *
 * Broken credentials (a bad signature, an unknown API key, a signer whose profile cannot be
 * loaded) draw from the anonymous budget of their client address, and a profile that fails to
 * load also from its origin's. The charge is made once the failure is known, and a spent key is
 * remembered in the isolate, so later requests are refused before any profile fetch or signature
 * check; valid traffic still makes exactly one limiter call. The origin key only refuses fetches
 * (a fresh cached profile is still used), so a flood naming one host's bad URLs cannot lock out
 * a platform on that host whose profile is already known.
 */
import { Lru } from "../lib/lru";
import { type ProtocolError, rateLimited } from "../ucp/errors";
import type { Principal } from "./authenticate";
import type { TrustConfig } from "./trust-config";

interface LimitBinding {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

export interface RateLimitEnv {
  readonly RATE_LIMIT_ANONYMOUS?: LimitBinding;
  readonly RATE_LIMIT_AUTHENTICATED?: LimitBinding;
}

export async function checkRateLimit(
  env: RateLimitEnv,
  principal: Principal,
  request: Request,
  trust: TrustConfig,
): Promise<ProtocolError | undefined> {
  const authenticated = principal.tier === "authenticated";
  const binding = authenticated ? env.RATE_LIMIT_AUTHENTICATED : env.RATE_LIMIT_ANONYMOUS;
  // A merchant who removes the binding turns that tier's limit off.
  if (!binding) return undefined;
  const key = authenticated ? `platform:${principal.profile}` : addressKey(request);
  try {
    const { success } = await binding.limit({ key });
    return success ? undefined : rateLimited(trust.rateLimitPeriodSeconds, principal.tier);
  } catch (e) {
    // The limiter failing must not take the store down with it: serve, and say so in the log.
    console.error("rate limiter unavailable", e instanceof Error ? e.message : e);
    return undefined;
  }
}

/** The anonymous budget's key: the client address, which the caller controls least. */
export function addressKey(request: Request): string {
  return `ip:${request.headers.get("cf-connecting-ip") ?? "unknown"}`;
}

/** The key a profile that fails to load is charged under: its origin, so varying the path does not escape it. */
export function profileOriginKey(url: URL): string {
  return `profile-origin:${url.origin}`;
}

// Keys whose bad-credential budget is spent, with when the block ends (ms). Bounded: an
// evicted key costs one more limiter call, not a hole.
const SPENT_KEYS = 10_000;
const spent = new Lru<string, number>(SPENT_KEYS);

/** 429 when `key` spent its budget on bad credentials within the period; no limiter call. */
export function spentBudget(key: string, now: number): ProtocolError | undefined {
  const until = spent.peek(key);
  if (until === undefined) return undefined;
  if (until > now) return rateLimited(Math.ceil((until - now) / 1000), "anonymous");
  spent.delete(key);
  return undefined;
}

/** Charges a credential failure to each key; 429 when any is over its budget (then remembered). */
export async function chargeFailure(
  env: RateLimitEnv,
  keys: readonly string[],
  now: number,
  trust: TrustConfig,
): Promise<ProtocolError | undefined> {
  const binding = env.RATE_LIMIT_ANONYMOUS;
  if (!binding) return undefined;
  let over = false;
  for (const key of keys) {
    try {
      const { success } = await binding.limit({ key });
      if (!success) {
        spent.set(key, now + trust.rateLimitPeriodSeconds * 1000);
        over = true;
      }
    } catch (e) {
      console.error("rate limiter unavailable", e instanceof Error ? e.message : e);
    }
  }
  return over ? rateLimited(trust.rateLimitPeriodSeconds, "anonymous") : undefined;
}

/** Test hook: forget spent budgets. */
export function clearSpentBudgets(): void {
  spent.clear();
}
