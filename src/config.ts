/**
 * The merchant's settings, read from `wrangler.toml` [vars] (and secrets) once per isolate.
 * Everything else reads a MerchantConfig, never `env` strings directly.
 */
export type ProfileFallback = "strict" | "assume-compatible";

export interface MerchantConfig {
  readonly name: string;
  /** Public origin without trailing slash, e.g. https://shop.example.com. */
  readonly origin: string;
  readonly currency: string;
  readonly profileFallback: ProfileFallback;
  /** URL of the MCP endpoint advertised in discovery. */
  readonly mcpEndpoint: string;
}

export const MCP_PATH = "/ucp/mcp";

let cached: { key: string; config: MerchantConfig } | undefined;

export interface MerchantVars {
  MERCHANT_NAME?: string;
  MERCHANT_ORIGIN?: string;
  MERCHANT_CURRENCY?: string;
  PROFILE_FALLBACK?: string;
}

export function merchantConfig(env: MerchantVars): MerchantConfig {
  const key = `${env.MERCHANT_NAME}|${env.MERCHANT_ORIGIN}|${env.MERCHANT_CURRENCY}|${env.PROFILE_FALLBACK}`;
  if (cached?.key === key) return cached.config;
  const config = buildConfig(env);
  cached = { key, config };
  return config;
}

export function buildConfig(vars: MerchantVars): MerchantConfig {
  const origin = (vars.MERCHANT_ORIGIN ?? "http://localhost:8787").replace(/\/+$/, "");
  return {
    name: vars.MERCHANT_NAME ?? "Merchant",
    origin,
    currency: (vars.MERCHANT_CURRENCY ?? "USD").toUpperCase(),
    // Anything but the explicit opt-in is strict: a typo must not open the door.
    profileFallback: vars.PROFILE_FALLBACK === "assume-compatible" ? "assume-compatible" : "strict",
    mcpEndpoint: `${origin}${MCP_PATH}`,
  };
}
