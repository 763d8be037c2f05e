/**
 * The handlers a store connected to Stripe advertises (discovery and every checkout), each
 * only when its settings are complete and each with public configuration only: never the
 * secret key or the webhook secret.
 *
 * - `com.google.pay` (Google's handler spec, version 2026-01-23): the platform shows Google
 *   Pay with this config and sends Google's token; PAYMENT_GATEWAY tokenization with Stripe as
 *   the gateway makes that token a Stripe token (stripe-credentials.ts).
 * - `com.stripe.payments` (Stripe's handler, private preview): agents obtain a shared payment
 *   token issued to the merchant's Stripe profile (STRIPE_PROFILE_ID) and send it.
 */

import type { StripeSettings } from "../config/stripe";
import type { HandlerEntry, HandlerRegistry } from "./handlers";

export const GOOGLE_PAY_HANDLER_ID = "google_pay";
export const STRIPE_HANDLER_ID = "stripe_payments";
export const GOOGLE_PAY = "com.google.pay";
export const STRIPE_PAYMENTS = "com.stripe.payments";

const GOOGLE_PAY_VERSION = "2026-01-23";
/** Google Pay's Stripe gateway parameters name this version of Stripe's token format. */
const STRIPE_TOKEN_VERSION = "2018-10-31";

/**
 * The brands Stripe takes through both handlers, as UCP names them (card_payment_instrument:
 * lower case); Google Pay's own list names the same networks its way.
 */
export const CARD_BRANDS = ["visa", "mastercard", "amex", "discover", "jcb"] as const;
const GOOGLE_NETWORKS = ["VISA", "MASTERCARD", "AMEX", "DISCOVER", "JCB"] as const;

const CARDS: HandlerEntry["available_instruments"] = [{ type: "card", constraints: { brands: [...CARD_BRANDS] } }];

export function stripeHandlers(settings: StripeSettings, origin: string): HandlerRegistry {
  const registry: HandlerRegistry = {};
  const google = googlePayEntry(settings, origin);
  if (google) registry[GOOGLE_PAY] = [google];
  const stripe = stripePaymentsEntry(settings);
  if (stripe) registry[STRIPE_PAYMENTS] = [stripe];
  return registry;
}

function googlePayEntry(settings: StripeSettings, origin: string): HandlerEntry | undefined {
  const pay = settings.googlePay;
  if (!pay || !settings.publishableKey) return undefined;
  return {
    id: GOOGLE_PAY_HANDLER_ID,
    version: GOOGLE_PAY_VERSION,
    spec: `https://pay.google.com/gp/p/ucp/${GOOGLE_PAY_VERSION}/`,
    schema: `https://pay.google.com/gp/p/ucp/${GOOGLE_PAY_VERSION}/schemas/config.json`,
    available_instruments: CARDS,
    config: {
      api_version: 2,
      api_version_minor: 0,
      environment: pay.environment,
      merchant_info: {
        merchant_name: pay.merchantName,
        ...(pay.merchantId ? { merchant_id: pay.merchantId } : {}),
        merchant_origin: new URL(origin).hostname,
      },
      allowed_payment_methods: [
        {
          type: "CARD",
          parameters: { allowed_auth_methods: ["PAN_ONLY"], allowed_card_networks: [...GOOGLE_NETWORKS] },
          tokenization_specification: {
            type: "PAYMENT_GATEWAY",
            // Google Pay's documented parameters for Stripe: the publishable key is public by design.
            parameters: {
              gateway: "stripe",
              "stripe:version": STRIPE_TOKEN_VERSION,
              "stripe:publishableKey": settings.publishableKey,
            },
          },
        },
      ],
    },
  };
}

function stripePaymentsEntry(settings: StripeSettings): HandlerEntry | undefined {
  if (!settings.profileId) return undefined;
  return {
    id: STRIPE_HANDLER_ID,
    version: "2026-04-08",
    spec: "https://docs.stripe.com/agentic-commerce/protocols/ucp/stripe-payments-handler",
    available_instruments: CARDS,
    // Agents issue shared payment tokens to this profile, in the same mode as the keys.
    config: { profile_id: settings.profileId, environment: settings.mode },
  };
}

/**
 * Stripe's minimum charge per currency (docs.stripe.com/currencies, "Minimum and maximum
 * charge amounts"), in minor units; a currency not listed is left to Stripe to refuse.
 */
const STRIPE_MINIMUM: Readonly<Record<string, number>> = {
  USD: 50,
  EUR: 50,
  GBP: 30,
  CAD: 50,
  AUD: 50,
  CHF: 50,
  NZD: 50,
  SGD: 50,
  DKK: 250,
  NOK: 300,
  SEK: 300,
  JPY: 50,
  MXN: 1000,
  HKD: 400,
  PLN: 200,
  CZK: 1500,
};

const STRIPE_HANDLERS: ReadonlySet<string> = new Set([GOOGLE_PAY, STRIPE_PAYMENTS]);

/**
 * The handlers one checkout can actually be paid with (the spec's "filtered by cart
 * context": a checkout response's available_instruments is the resolved, authoritative set).
 * Stripe refuses a charge under its minimum for the currency, so below it neither Stripe
 * handler is offered; other handlers (the test one) pass unchanged. Pure.
 */
export function handlersForCheckout(
  registry: Readonly<Record<string, readonly unknown[]>>,
  checkout: { readonly currency: string; readonly total: number },
): Record<string, unknown[]> {
  const minimum = STRIPE_MINIMUM[checkout.currency.toUpperCase()] ?? 1;
  const out: Record<string, unknown[]> = {};
  for (const [name, entries] of Object.entries(registry)) {
    if (STRIPE_HANDLERS.has(name) && checkout.total < minimum) continue;
    out[name] = [...entries];
  }
  return out;
}
