/**
 * Request budgets per tier, enforced with the Workers rate-limiting bindings
 * (RATE_LIMIT_ANONYMOUS / RATE_LIMIT_AUTHENTICATED, `[[ratelimits]]` in wrangler.toml).
 * Chosen over a Durable Object token bucket because the binding is answered in the same
 * location without a round trip, so traffic under the limit pays next to nothing
 * (docs/benchmarks.md); the price is that counts are per location and approximate.
 *
 * Keys: an authenticated platform by its verified profile URL; an anonymous caller by
 * client IP, since its profile URL is only a claim anyone can vary.
 */
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
  const key = authenticated
    ? `platform:${principal.profile}`
    : `ip:${request.headers.get("cf-connecting-ip") ?? "unknown"}`;
  try {
    const { success } = await binding.limit({ key });
    return success ? undefined : rateLimited(trust.rateLimitPeriodSeconds, principal.tier);
  } catch (e) {
    // The limiter failing must not take the store down with it: serve, and say so in the log.
    console.error("rate limiter unavailable", e instanceof Error ? e.message : e);
    return undefined;
  }
}
