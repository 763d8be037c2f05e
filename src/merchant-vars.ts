/**
 * The schema of the merchant's scalar vars (MERCHANT_ORIGIN, MERCHANT_CURRENCY,
 * PROFILE_FALLBACK, CART_TTL_HOURS, MERCHANT_NAME, PAYMENT_TEST_MODE, ORDER_NUMBER_START, the Stripe and Google Pay settings).
 * The Worker refuses to serve with a bad
 * one (merchantConfig) and `npm run check:config` reports it before deploy, both through
 * `merchantVarProblems`. Deployment-only rules (https) live in the check, not here: local
 * development serves http://localhost.
 */
import * as z from "zod";
import { policyVarProblems } from "./config/policies";
import { STRIPE_VARS, stripeVarProblems } from "./config/stripe";
import { isHttpsOrLocalUrl } from "./lib/public-url";

/** Intl knows the ISO 4217 list in Node and workerd alike; a regex alone would accept "XYZ". */
const CURRENCIES: ReadonlySet<string> = new Set(
  typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("currency") : [],
);

const Origin = z.string().superRefine((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: "custom", message: `expected an origin such as https://shop.example.com, got "${value}"` });
    return;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    ctx.addIssue({ code: "custom", message: `expected an https origin, got "${value}"` });
  // buildConfig strips trailing slashes; anything else after the host would break every URL built from it.
  else if (url.pathname.replace(/\/+$/, "") !== "" || url.search || url.hash || url.username || url.password)
    ctx.addIssue({ code: "custom", message: `expected an origin without path, query or credentials, got "${value}"` });
});

const Currency = z.string().refine((c) => CURRENCIES.size === 0 || CURRENCIES.has(c), {
  error: (issue) => `expected an ISO 4217 currency code such as "USD", got ${JSON.stringify(issue.input)}`,
});

function isLocale(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const LogoUrl = z
  .string()
  .refine(isHttpsOrLocalUrl, { error: (i) => `expected an https URL of an image, got ${JSON.stringify(i.input)}` });

/** Cloudflare Access's team domain (docs/console.md): the JWT's issuer and where its keys are. */
const TeamDomain = z.string().refine(
  (value) => {
    try {
      const url = new URL(value);
      return url.protocol === "https:" && url.pathname.replace(/\/+$/, "") === "" && !url.search && !url.hash;
    } catch {
      return false;
    }
  },
  {
    error: (i) =>
      `expected an https origin such as "https://acme.cloudflareaccess.com", got ${JSON.stringify(i.input)}`,
  },
);

const MerchantVarsSchema = z.object({
  MERCHANT_NAME: z.string().min(1).max(200).optional(),
  MERCHANT_ORIGIN: Origin.optional(),
  MERCHANT_CURRENCY: Currency.optional(),
  PROFILE_FALLBACK: z.enum(["strict", "assume-compatible"]).optional(),
  CART_TTL_HOURS: z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'expected a number of hours as a string, e.g. "72"')
    .refine((h) => Number(h) > 0, "expected more than 0 hours")
    .optional(),
  // Pages (src/pages/): prices are formatted for this locale; the accent colour and logo brand them.
  MERCHANT_LOCALE: z
    .string()
    .refine(isLocale, { error: (i) => `expected a BCP 47 locale such as "en-US", got ${JSON.stringify(i.input)}` })
    .optional(),
  // Only #rgb/#rrggbb: the value is written into the pages' stylesheet.
  STORE_ACCENT_COLOR: z
    .string()
    .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'expected a hex colour such as "#1f6feb"')
    .optional(),
  STORE_LOGO_URL: LogoUrl.optional(),
  // The console's dates and times (docs/console.md): an IANA zone; unset is UTC.
  MERCHANT_TIME_ZONE: z
    .string()
    .refine(isTimeZone, {
      error: (i) => `expected an IANA time zone such as "Europe/Berlin", got ${JSON.stringify(i.input)}`,
    })
    .optional(),
  // A typo must be named, not read as "off" and found later as payments_not_configured.
  PAYMENT_TEST_MODE: z
    .union([z.enum(["true", "false"]), z.boolean()], { error: 'expected "true" or "false"' })
    .optional(),
  // Cloudflare Access in front of the console (docs/console.md); both or neither.
  ACCESS_TEAM_DOMAIN: TeamDomain.optional(),
  ACCESS_AUD: z.string().min(1).max(200).optional(),
  // The first short order number; raising it later skips ahead, lowering it reuses nothing.
  ORDER_NUMBER_START: z
    .string()
    .regex(/^[1-9]\d{0,11}$/, 'expected a whole number from 1 to 999999999999 as a string, e.g. "1001"')
    .optional(),
  ...STRIPE_VARS,
});

/** Each problem as `NAME: message`, in the order the vars are declared above. */
export function merchantVarProblems(vars: Readonly<Record<string, unknown>>): string[] {
  const result = MerchantVarsSchema.safeParse(vars);
  const problems = result.success
    ? []
    : result.error.issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`);
  // One without the other would quietly leave the console to the admin token alone.
  if (!vars.ACCESS_TEAM_DOMAIN !== !vars.ACCESS_AUD)
    problems.push("ACCESS_AUD: set ACCESS_TEAM_DOMAIN and ACCESS_AUD both (Cloudflare Access) or neither");
  problems.push(...policyVarProblems(vars));
  problems.push(...stripeVarProblems(vars));
  return problems;
}
