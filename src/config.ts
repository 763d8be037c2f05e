/**
 * The merchant's settings, read from `wrangler.toml` [vars] and secrets once per isolate.
 * Everything else reads a MerchantConfig, never `env` strings directly.
 */

import { type EmailSetup, type EmailVars, emailSetup } from "./config/email";
import { orderNumberStart } from "./config/order-number";
import { type StorePolicy, storePolicies } from "./config/policies";
import { type StripeSettings, type StripeVars, stripeSettings } from "./config/stripe";
import { type OutboundAllowList, parseOutboundAllowList } from "./lib/outbound-url";
import { DEFAULT_RETRY, type RetryPolicy } from "./lib/retry";
import { StoreMisconfigured } from "./lib/store-misconfigured";
import { merchantVarProblems } from "./merchant-vars";

export type ProfileFallback = "strict" | "assume-compatible";

export interface MerchantConfig {
  readonly name: string;
  /** Public origin without trailing slash, e.g. https://shop.example.com. */
  readonly origin: string;
  readonly currency: string;
  readonly profileFallback: ProfileFallback;
  /** URL of the MCP endpoint advertised in discovery. */
  readonly mcpEndpoint: string;
  /** How long a cart lives after its last change. */
  readonly cartTtlMs: number;
  /** HMAC key that signs resource ids (the ID_SIGNING_KEY secret). */
  readonly idSecret: string;
  /** Origins outbound fetches may reach despite http/loopback (OUTBOUND_ALLOW; local dev only). */
  readonly outboundAllow: OutboundAllowList;
  /** First delay before an order webhook is retried (WEBHOOK_RETRY_BASE_SECONDS, default 10). */
  readonly webhookRetryBaseSeconds: number;
  /** Deadline for fetching a platform profile, headers and body (PROFILE_FETCH_TIMEOUT_MS, default 4000). */
  readonly profileFetchTimeoutMs: number;
  /**
   * PAYMENT_TEST_MODE = "true": the test payment handler is live and every checkout says so.
   * Off unless the merchant says so: a deployed store must not take orders paid with test tokens.
   */
  readonly paymentTestMode: boolean;
  /** The confirmation email provider, or why there is none (never a reason to refuse service). */
  readonly email: EmailSetup;
  /** Backoff of the confirmation outbox (EMAIL_RETRY_BASE_SECONDS, default 30, is its first delay). */
  readonly emailRetry: RetryPolicy;
  /** The buyer pages' look (MERCHANT_LOCALE, STORE_ACCENT_COLOR, STORE_LOGO_URL). */
  readonly storefront: StorefrontLook;
  /** The console's time zone (MERCHANT_TIME_ZONE, IANA, default UTC); its dates use storefront.locale. */
  readonly timeZone: string;
  /** Cloudflare Access in front of the console (ACCESS_TEAM_DOMAIN and ACCESS_AUD, both or neither). */
  readonly access?: AccessSettings;
  /** Returns, shipping, privacy, terms… (POLICIES): the pages link them; 2026-08-25 answers carry them. */
  readonly policies: readonly StorePolicy[];
  /** The first short order number ("#1001"; ORDER_NUMBER_START, default 1001): src/order/order-number.ts. */
  readonly orderNumberStart: number;
  /**
   * Stripe (docs/payments.md "Connect Stripe"): undefined when STRIPE_SECRET_KEY is unset.
   * The processor outside test mode (src/payment/store-processor.ts).
   */
  readonly stripe?: StripeSettings;
}

export interface AccessSettings {
  /** e.g. https://acme.cloudflareaccess.com: the JWT's issuer and where its signing keys are published. */
  readonly teamDomain: string;
  /** The Access application's audience tag (the JWT's `aud`). */
  readonly audience: string;
}

export interface StorefrontLook {
  /** BCP 47, for prices and dates on the pages and in email. */
  readonly locale: string;
  /** #rgb or #rrggbb (merchant-vars.ts checks it: it is written into CSS). */
  readonly accentColor: string;
  readonly logoUrl?: string;
}

export const MCP_PATH = "/ucp/mcp";

export interface MerchantVars extends EmailVars, StripeVars {
  MERCHANT_NAME?: string;
  MERCHANT_ORIGIN?: string;
  MERCHANT_CURRENCY?: string;
  PROFILE_FALLBACK?: string;
  CART_TTL_HOURS?: string;
  ID_SIGNING_KEY?: string;
  OUTBOUND_ALLOW?: string;
  WEBHOOK_RETRY_BASE_SECONDS?: string;
  PROFILE_FETCH_TIMEOUT_MS?: string;
  /** "true" (or a TOML boolean true) turns test mode on; anything else leaves it off. */
  PAYMENT_TEST_MODE?: string | boolean;
  EMAIL_RETRY_BASE_SECONDS?: string;
  MERCHANT_LOCALE?: string;
  STORE_ACCENT_COLOR?: string;
  STORE_LOGO_URL?: string;
  MERCHANT_TIME_ZONE?: string;
  ACCESS_TEAM_DOMAIN?: string;
  ACCESS_AUD?: string;
  /** A JSON string or TOML array of tables (src/config/policies.ts). */
  POLICIES?: unknown;
  ORDER_NUMBER_START?: string;
}

const DEFAULT_CART_TTL_HOURS = 72;
const DEFAULT_WEBHOOK_RETRY_BASE_SECONDS = 10;
/** A platform profile's fetch deadline unless PROFILE_FETCH_TIMEOUT_MS says otherwise (src/ucp/profile-fetch.ts). */
export const DEFAULT_PROFILE_FETCH_TIMEOUT_MS = 4000;

export const MISSING_ID_SIGNING_KEY =
  "ID_SIGNING_KEY is not set: the store signs resource ids and hand-off URLs with it (`npx wrangler secret put ID_SIGNING_KEY`; .dev.vars for local development)";

let cached: { vars: MerchantVars; config: MerchantConfig } | undefined;

export function merchantConfig(env: MerchantVars): MerchantConfig {
  if (cached?.vars === env) return cached.config;
  // A setting buildConfig would quietly default (a typo in the origin or currency) stops the store instead.
  const problems = merchantVarProblems(env as Readonly<Record<string, unknown>>);
  if (!env.ID_SIGNING_KEY) problems.push(MISSING_ID_SIGNING_KEY);
  if (problems.length > 0) throw new StoreMisconfigured(problems);
  const config = buildConfig(env);
  cached = { vars: env, config };
  return config;
}

export function buildConfig(vars: MerchantVars): MerchantConfig {
  const origin = (vars.MERCHANT_ORIGIN ?? "http://localhost:8787").replace(/\/+$/, "");
  const ttlHours = Number(vars.CART_TTL_HOURS);
  return {
    name: vars.MERCHANT_NAME ?? "Merchant",
    origin,
    currency: (vars.MERCHANT_CURRENCY ?? "USD").toUpperCase(),
    // Anything but the explicit opt-in is strict: a typo must not open the door.
    profileFallback: vars.PROFILE_FALLBACK === "assume-compatible" ? "assume-compatible" : "strict",
    mcpEndpoint: `${origin}${MCP_PATH}`,
    cartTtlMs: positiveOr(ttlHours, DEFAULT_CART_TTL_HOURS) * 3600_000,
    // No fallback: a secret built from the public origin would let anyone compute derived
    // ids and hand-off tokens. merchantConfig refuses to run without it (scripts that only
    // build discovery never use it).
    idSecret: vars.ID_SIGNING_KEY ?? "",
    // Comma-separated origins such as http://localhost:*; unset in production.
    outboundAllow: parseOutboundAllowList(vars.OUTBOUND_ALLOW),
    webhookRetryBaseSeconds: positiveOr(Number(vars.WEBHOOK_RETRY_BASE_SECONDS), DEFAULT_WEBHOOK_RETRY_BASE_SECONDS),
    profileFetchTimeoutMs: positiveOr(Number(vars.PROFILE_FETCH_TIMEOUT_MS), DEFAULT_PROFILE_FETCH_TIMEOUT_MS),
    paymentTestMode: vars.PAYMENT_TEST_MODE === "true" || vars.PAYMENT_TEST_MODE === true,
    email: emailSetup(vars),
    emailRetry: {
      ...DEFAULT_RETRY,
      firstDelayMs: positiveOr(Number(vars.EMAIL_RETRY_BASE_SECONDS), DEFAULT_RETRY.firstDelayMs / 1000) * 1000,
    },
    storefront: {
      locale: vars.MERCHANT_LOCALE ?? "en-US",
      accentColor: vars.STORE_ACCENT_COLOR ?? "#1d4ed8",
      ...(vars.STORE_LOGO_URL ? { logoUrl: vars.STORE_LOGO_URL } : {}),
    },
    timeZone: vars.MERCHANT_TIME_ZONE ?? "UTC",
    ...(vars.ACCESS_TEAM_DOMAIN && vars.ACCESS_AUD
      ? { access: { teamDomain: vars.ACCESS_TEAM_DOMAIN.replace(/\/+$/, ""), audience: vars.ACCESS_AUD } }
      : {}),
    policies: storePolicies(vars.POLICIES, origin),
    orderNumberStart: orderNumberStart(vars.ORDER_NUMBER_START),
    ...withStripe(stripeSettings(vars)),
  };
}

function withStripe(stripe: StripeSettings | undefined): { stripe?: StripeSettings } {
  return stripe ? { stripe } : {};
}

function positiveOr(value: number, fallback: number): number {
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
