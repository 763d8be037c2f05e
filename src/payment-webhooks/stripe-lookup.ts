/**
 * What the webhook asks Stripe itself: the checkout a PaymentIntent was made for. A refund made
 * in Stripe's dashboard and a dispute name only their PaymentIntent; its metadata (written at
 * completion: `ucp_checkout_id`) says whose it is. Through the processor's SDK client
 * (src/payment/stripe-client.ts), at STRIPE_API_BASE (Stripe, or a stand-in).
 */
import Stripe from "stripe";
import type { StripeSettings } from "../config/stripe";
import { stripeClient } from "../payment/stripe-client";
import { METADATA } from "../payment/stripe-events";

export interface PaymentIntentLookup {
  /** The checkout id in the PaymentIntent's metadata; undefined when Stripe knows no such intent or it has none. */
  checkoutOf(paymentIntentId: string): Promise<string | undefined>;
  /** A charge's refunds (Refund objects, newest first; the last 100), for charge.refunded without them. */
  refundsOf?(chargeId: string): Promise<readonly unknown[]>;
}

/** The lookup for a store with Stripe's secret key; undefined without one (nothing to ask with). */
export function stripeLookup(settings: StripeSettings | undefined): PaymentIntentLookup | undefined {
  if (!settings) return undefined;
  // The processor's own client (its fetch client, STRIPE_API_BASE, one keyed network retry).
  const stripe = stripeClient(settings);
  return {
    async checkoutOf(paymentIntentId) {
      try {
        const intent = await stripe.paymentIntents.retrieve(paymentIntentId);
        return intent.metadata?.[METADATA.checkout] || undefined;
      } catch (e) {
        // Not Stripe's (another account's id, a deleted test object): nothing to find. Anything
        // else (network, 5xx) is thrown, so the delivery fails and Stripe tries again later.
        if (e instanceof Stripe.errors.StripeInvalidRequestError && e.statusCode === 404) return undefined;
        throw e;
      }
    },
    async refundsOf(chargeId) {
      // A charge has few refunds; past 100 the older ones came by their own refund.* events.
      const page = await stripe.refunds.list({ charge: chargeId, limit: 100 });
      return page.data;
    },
  };
}
