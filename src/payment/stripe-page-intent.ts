/**
 * The buyer's card form on the checkout page (docs/payments.md "The buyer's card form"): a
 * PaymentIntent the page's Payment Element (Stripe.js) confirms in the browser, so no card
 * number ever reaches the Worker (PCI SAQ-A). The page gets only its client_secret.
 *
 * One PaymentIntent per checkout and total: the Idempotency-Key names both, so a reload (or
 * two tabs) finds the same one, and a changed total makes a new one that charges the new
 * amount. Its metadata names the checkout (ucp_checkout_id), which is what the completion
 * checks before it accepts the PaymentIntent as paid (stripe-processor.ts, adoptPageIntent).
 * The page only authorizes (manual capture): the completion captures when it places the order.
 * An intent the buyer never confirms charges nothing; Stripe leaves it incomplete.
 */
import type Stripe from "stripe";
import type { StripeSettings } from "../config/stripe";
import { stripeClient } from "./stripe-client";
import { logStripeError } from "./stripe-outcomes";

export interface PageIntent {
  readonly id: string;
  /** Handed to Stripe.js only: it lets the browser confirm this one PaymentIntent, nothing else. */
  readonly clientSecret: string;
  /** Authorized already (an earlier visit paid and the order was not placed yet): nothing to enter again. */
  readonly paid: boolean;
}

export interface PageIntentRequest {
  readonly checkoutId: string;
  /** The checkout's total as the server computed it (minor units), never a figure from the page. */
  readonly amount: number;
  readonly currency: string;
}

/** The Idempotency-Key: the checkout and its total (amount and currency). */
export function pageIntentKey(request: PageIntentRequest): string {
  return `ucp_page:${request.checkoutId}:${request.amount}:${request.currency.toLowerCase()}`;
}

const PAID: ReadonlySet<string> = new Set(["succeeded", "requires_capture"]);

/** The checkout's PaymentIntent for the page, created once; undefined when Stripe did not answer. */
export async function pageIntent(
  settings: StripeSettings,
  request: PageIntentRequest,
): Promise<PageIntent | undefined> {
  const stripe = stripeClient(settings);
  const key = pageIntentKey(request);
  try {
    let intent = await stripe.paymentIntents.create(
      {
        amount: request.amount,
        currency: request.currency.toLowerCase(),
        // Authorized only: the completion captures it once the order is placed (stripe-processor.ts),
        // so a checkout that ends without an order (stock gone, total changed) takes no money;
        // an authorization never captured is released by Stripe.
        capture_method: "manual",
        // Cards (and wallets) confirmed on this page; nothing that leaves it for another site.
        automatic_payment_methods: { enabled: true, allow_redirects: "never" },
        metadata: { ucp_checkout_id: request.checkoutId, ucp_source: "checkout_page" },
      },
      { idempotencyKey: key },
    );
    // A replay is Stripe's first answer, not the intent as it is now: read it again.
    if (replayed(intent)) intent = await stripe.paymentIntents.retrieve(intent.id);
    if (!intent.client_secret) return undefined;
    return { id: intent.id, clientSecret: intent.client_secret, paid: PAID.has(intent.status) };
  } catch (e) {
    logStripeError("page intent", key, e);
    return undefined;
  }
}

function replayed(intent: Stripe.PaymentIntent): boolean {
  // With the fetch client, lastResponse is the fetch Response itself (its Headers).
  const headers = (intent as { lastResponse?: { headers?: unknown } }).lastResponse?.headers;
  if (headers instanceof Headers) return headers.get("idempotent-replayed") === "true";
  return (headers as Record<string, string> | undefined)?.["idempotent-replayed"] === "true";
}

/**
 * The card's brand and last four digits, for the instrument's display (the order and the
 * console show what was paid with): read from the PaymentIntent's payment method at Stripe,
 * since the page never sees the card. Undefined when Stripe does not say; display is optional.
 */
export async function pageIntentDisplay(
  settings: StripeSettings,
  intentId: string,
): Promise<{ brand: string; last_digits: string } | undefined> {
  try {
    const intent = await stripeClient(settings).paymentIntents.retrieve(intentId, { expand: ["payment_method"] });
    const method = intent.payment_method;
    const card = typeof method === "object" && method !== null ? method.card : undefined;
    return card?.brand && /^[0-9]{4}$/.test(card.last4 ?? "")
      ? { brand: card.brand, last_digits: card.last4 }
      : undefined;
  } catch (e) {
    logStripeError("page intent display", intentId, e);
    return undefined;
  }
}
