/**
 * The Stripe and Google Pay settings (docs/payments.md "Connect Stripe"): their formats, the
 * contradictions between them, and the parsed `StripeSettings` the processor and handlers
 * read. Secrets (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET) are read from the Worker's env
 * like vars; check:config sees only [vars] and refuses a secret written there
 * (scripts/lib/config-check.ts). No message here ever repeats a secret's value.
 */
import * as z from "zod";

export type StripeMode = "test" | "live";
export type GooglePayEnvironment = "TEST" | "PRODUCTION";

export interface StripeSettings {
  /** STRIPE_SECRET_KEY (a secret): sk_test_… or sk_live_… (rk_… restricted keys too). */
  readonly secretKey: string;
  /** Which of Stripe's two worlds the secret key belongs to. */
  readonly mode: StripeMode;
  readonly webhookSecret?: string;
  readonly publishableKey?: string;
  /** STRIPE_API_BASE: Stripe's API origin, or a stand-in's (tests, local runs). */
  readonly apiBase: string;
  /** STRIPE_JS_URL: where the checkout page loads Stripe.js (Stripe's own, or a stand-in's in tests). */
  readonly jsUrl: string;
  /** automatic: captured at completion; manual: authorized, captured at shipment. */
  readonly capture: "automatic" | "manual";
  /** STRIPE_PROFILE_ID (profile_…): agents issue shared payment tokens to it (com.stripe.payments). */
  readonly profileId?: string;
  /** Google Pay with Stripe as its gateway, when configured completely (stripe-handlers.ts). */
  readonly googlePay?: GooglePaySettings;
}

export interface GooglePaySettings {
  readonly environment: GooglePayEnvironment;
  readonly merchantName: string;
  /** Required in PRODUCTION (Google Pay & Wallet Console); optional and ignored in TEST. */
  readonly merchantId?: string;
}

export interface StripeVars {
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_PUBLISHABLE_KEY?: string;
  STRIPE_API_BASE?: string;
  STRIPE_JS_URL?: string;
  STRIPE_CAPTURE?: string;
  STRIPE_PROFILE_ID?: string;
  GOOGLE_PAY_MERCHANT_ID?: string;
  GOOGLE_PAY_MERCHANT_NAME?: string;
  GOOGLE_PAY_ENVIRONMENT?: string;
}

/** Set with `wrangler secret put`, never in wrangler.toml (check:config refuses them there). */
export const STRIPE_SECRETS = ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"] as const;

export const DEFAULT_STRIPE_API_BASE = "https://api.stripe.com";
/** Stripe.js must be loaded from Stripe (PCI: never bundled or self-hosted); only tests point elsewhere. */
export const DEFAULT_STRIPE_JS_URL = "https://js.stripe.com/v3";

const SECRET_KEY = /^(?:sk|rk)_(test|live)_[A-Za-z0-9_]+$/;
const PUBLISHABLE_KEY = /^pk_(test|live)_[A-Za-z0-9_]+$/;

const ApiBase = z.string().refine(
  (value) => {
    try {
      const url = new URL(value);
      const bare = url.pathname.replace(/\/+$/, "") === "" && !url.search && !url.hash && !url.username;
      return bare && (url.protocol === "https:" || url.protocol === "http:");
    } catch {
      return false;
    }
  },
  { error: (i) => `expected an origin such as "https://api.stripe.com", got ${JSON.stringify(i.input)}` },
);

/** Merged into the merchant vars' schema (merchant-vars.ts): each is checked where it is declared. */
export const STRIPE_VARS = {
  // The value is never echoed: a typo in a secret is still a secret.
  STRIPE_SECRET_KEY: z
    .string()
    .regex(SECRET_KEY, 'expected a Stripe secret key "sk_test_…" or "sk_live_…" (Dashboard → Developers → API keys)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9_]+$/, 'expected a webhook signing secret "whsec_…"')
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(PUBLISHABLE_KEY, 'expected a Stripe publishable key "pk_test_…" or "pk_live_…"')
    .optional(),
  STRIPE_API_BASE: ApiBase.optional(),
  STRIPE_JS_URL: z.url({ protocol: /^https?$/, error: 'expected a URL such as "https://js.stripe.com/v3"' }).optional(),
  STRIPE_CAPTURE: z.enum(["automatic", "manual"], { error: 'expected "automatic" or "manual"' }).optional(),
  STRIPE_PROFILE_ID: z
    .string()
    .regex(/^profile_[A-Za-z0-9_]+$/, 'expected a Stripe profile id "profile_…" (Dashboard → Profiles)')
    .optional(),
  // Google Pay's own pattern for merchant ids (its UCP handler config.json).
  GOOGLE_PAY_MERCHANT_ID: z
    .string()
    .regex(/^[0-9a-zA-Z]+$/, "expected letters and digits only")
    .optional(),
  GOOGLE_PAY_MERCHANT_NAME: z.string().min(1).max(200).optional(),
  GOOGLE_PAY_ENVIRONMENT: z.enum(["TEST", "PRODUCTION"], { error: 'expected "TEST" or "PRODUCTION"' }).optional(),
};

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function keyMode(value: unknown, pattern: RegExp): StripeMode | undefined {
  const match = typeof value === "string" ? pattern.exec(value) : null;
  return match ? (match[1] as StripeMode) : undefined;
}

function testModeOn(vars: Readonly<Record<string, unknown>>): boolean {
  return vars.PAYMENT_TEST_MODE === "true" || vars.PAYMENT_TEST_MODE === true;
}

/**
 * The contradictions between the settings present, each as `NAME: message`. Used by the
 * Worker (it refuses to serve: a live key in test mode is a merchant who thinks they sell)
 * and by check:config, which sees no secret and so checks the key-dependent ones only where
 * it can read one (.dev.vars).
 */
export function stripeVarProblems(vars: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  const secret = keyMode(vars.STRIPE_SECRET_KEY, SECRET_KEY);
  const publishable = keyMode(vars.STRIPE_PUBLISHABLE_KEY, PUBLISHABLE_KEY);
  const googlePay = text(vars.GOOGLE_PAY_ENVIRONMENT);
  if (secret === "live" && testModeOn(vars))
    problems.push(
      'STRIPE_SECRET_KEY: a live key (sk_live_…) on a store in test mode (PAYMENT_TEST_MODE = "true"): test mode never charges through Stripe; use your test keys (sk_test_…) on a test store, or remove PAYMENT_TEST_MODE to sell',
    );
  if (secret && publishable && secret !== publishable)
    problems.push(
      `STRIPE_PUBLISHABLE_KEY: a ${publishable} key (pk_${publishable}_…) beside a ${secret} secret key (sk_${secret}_…); use the pair from one mode of the Dashboard`,
    );
  if (googlePay === "PRODUCTION" && !text(vars.GOOGLE_PAY_MERCHANT_ID))
    problems.push(
      'GOOGLE_PAY_MERCHANT_ID: required with GOOGLE_PAY_ENVIRONMENT = "PRODUCTION" (Google Pay & Wallet Console); TEST needs none',
    );
  if (googlePay && !vars.STRIPE_PUBLISHABLE_KEY)
    problems.push(
      "STRIPE_PUBLISHABLE_KEY: Google Pay tokenizes cards for Stripe with your publishable key (pk_…); set it, or remove GOOGLE_PAY_ENVIRONMENT",
    );
  // Google Pay's TEST tokens are refused by a live Stripe account and its real ones by a test account.
  const mode = secret ?? publishable;
  if (googlePay === "PRODUCTION" && mode === "test")
    problems.push(
      'GOOGLE_PAY_ENVIRONMENT: "PRODUCTION" (real cards) with Stripe test keys, which refuse them; use "TEST" with test keys',
    );
  if (googlePay === "TEST" && mode === "live")
    problems.push(
      'GOOGLE_PAY_ENVIRONMENT: "TEST" (test cards only) with Stripe live keys, which refuse them; use "PRODUCTION" with live keys',
    );
  return problems;
}

/**
 * What is not wrong but worth saying (check:config prints it, it fails nothing): test keys on
 * a store not in test mode is a staging store that takes no real money, which is fine only if
 * meant; Stripe settings without a handler to use them advertise nothing to agents.
 */
export function stripeVarWarnings(vars: Readonly<Record<string, unknown>>): string[] {
  const warnings: string[] = [];
  const secret = keyMode(vars.STRIPE_SECRET_KEY, SECRET_KEY);
  const mode = secret ?? keyMode(vars.STRIPE_PUBLISHABLE_KEY, PUBLISHABLE_KEY);
  if (mode === "test" && !testModeOn(vars))
    warnings.push(
      "STRIPE_SECRET_KEY: Stripe test keys on a store without PAYMENT_TEST_MODE: agents are offered Google Pay and Stripe's handler, but only Stripe's test cards pay and no money moves. Right for a staging store; a store meant to sell needs the live keys",
    );
  if (secret && !text(vars.GOOGLE_PAY_ENVIRONMENT) && !text(vars.STRIPE_PROFILE_ID))
    warnings.push(
      "STRIPE_SECRET_KEY: set, but neither Google Pay (GOOGLE_PAY_ENVIRONMENT, STRIPE_PUBLISHABLE_KEY) nor Stripe's handler (STRIPE_PROFILE_ID) is configured: agents are offered no way to pay",
    );
  return warnings;
}

/** The settings, or undefined when STRIPE_SECRET_KEY is unset (or unusable: merchantConfig refused it already). */
export function stripeSettings(vars: Readonly<StripeVars & { MERCHANT_NAME?: string }>): StripeSettings | undefined {
  const secretKey = text(vars.STRIPE_SECRET_KEY);
  const mode = keyMode(secretKey, SECRET_KEY);
  if (!secretKey || !mode) return undefined;
  const publishableKey = text(vars.STRIPE_PUBLISHABLE_KEY);
  const webhookSecret = text(vars.STRIPE_WEBHOOK_SECRET);
  const profileId = text(vars.STRIPE_PROFILE_ID);
  return {
    secretKey,
    mode,
    ...(webhookSecret ? { webhookSecret } : {}),
    ...(publishableKey ? { publishableKey } : {}),
    apiBase: (text(vars.STRIPE_API_BASE) ?? DEFAULT_STRIPE_API_BASE).replace(/\/+$/, ""),
    jsUrl: text(vars.STRIPE_JS_URL) ?? DEFAULT_STRIPE_JS_URL,
    capture: vars.STRIPE_CAPTURE === "manual" ? "manual" : "automatic",
    ...(profileId ? { profileId } : {}),
    ...googlePaySettings(vars),
  };
}

/** Complete or absent: a half-configured Google Pay is advertised nowhere (check:config names what is missing). */
function googlePaySettings(vars: Readonly<StripeVars & { MERCHANT_NAME?: string }>): {
  googlePay?: GooglePaySettings;
} {
  const environment = vars.GOOGLE_PAY_ENVIRONMENT;
  if (environment !== "TEST" && environment !== "PRODUCTION") return {};
  // The name on Google's payment sheet: the store's own unless the merchant says otherwise.
  const merchantName = text(vars.GOOGLE_PAY_MERCHANT_NAME) ?? text(vars.MERCHANT_NAME);
  const merchantId = text(vars.GOOGLE_PAY_MERCHANT_ID);
  if (!merchantName || !text(vars.STRIPE_PUBLISHABLE_KEY)) return {};
  if (environment === "PRODUCTION" && !merchantId) return {};
  return { googlePay: { environment, merchantName, ...(merchantId ? { merchantId } : {}) } };
}

/**
 * The vars discovery is built from (`npm run discovery`, deploy): wrangler.toml never holds the
 * secret key, yet a store whose [vars] carry Stripe's public settings will charge with it, so
 * its profile must advertise the handlers. A stand-in key of the publishable key's mode (live
 * when there is none) lets the handlers be built; no key, real or not, is ever written into
 * a profile (stripe-handlers.ts puts only public values there). Vars that hold a key, or no
 * Stripe setting at all, are returned unchanged.
 */
export function varsForDiscovery<T extends StripeVars>(vars: T): T {
  if (text(vars.STRIPE_SECRET_KEY)) return vars;
  const publicSettings = [vars.STRIPE_PUBLISHABLE_KEY, vars.STRIPE_PROFILE_ID, vars.GOOGLE_PAY_ENVIRONMENT];
  if (!publicSettings.some((value) => text(value))) return vars;
  const mode = keyMode(vars.STRIPE_PUBLISHABLE_KEY, PUBLISHABLE_KEY) ?? "live";
  return { ...vars, STRIPE_SECRET_KEY: `sk_${mode}_discoveryOnly` };
}
