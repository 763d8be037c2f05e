/**
 * 3-D Secure for a charge an agent started (docs/payments.md "3-D Secure"): the charge's
 * PaymentIntent waits in `requires_action`; the buyer opens the store's verify page, where
 * Stripe.js runs the bank's step on that PaymentIntent (`handleNextAction`), and the page then
 * asks Stripe, never the browser, how it ended. The platform's retry then resumes that same
 * PaymentIntent (stripe-processor.ts) and captures once.
 *
 * The page is handed the PaymentIntent's client_secret only while it waits for the buyer: it
 * lets Stripe.js finish this one payment and nothing else.
 */
import type Stripe from "stripe";
import type { StripeSettings } from "../config/stripe";
import { stripeClient } from "./stripe-client";
import { logStripeError } from "./stripe-outcomes";

/** How the bank's step ended, as Stripe reports the PaymentIntent now. */
export type VerificationResult = "passed" | "failed" | "pending";

/** After the bank's step: authorized, paid, or waiting only for the server's confirmation. */
const PASSED: ReadonlySet<Stripe.PaymentIntent.Status> = new Set([
  "requires_capture",
  "succeeded",
  "processing",
  "requires_confirmation",
]);
/** Authentication failed (Stripe returns the intent for another payment method) or it was cancelled. */
const FAILED: ReadonlySet<Stripe.PaymentIntent.Status> = new Set(["requires_payment_method", "canceled"]);

export function verificationResultOf(status: Stripe.PaymentIntent.Status): VerificationResult {
  if (PASSED.has(status)) return "passed";
  if (FAILED.has(status)) return "failed";
  return "pending";
}

/**
 * The client_secret Stripe.js needs to run the bank's step on the charge's PaymentIntent;
 * undefined when it no longer waits for the buyer, is not this checkout's, or Stripe did not
 * answer (the page then says to try again).
 */
export async function verificationSecret(
  settings: StripeSettings,
  intentId: string,
  checkoutId: string,
): Promise<{ readonly clientSecret: string } | undefined> {
  try {
    const intent = await stripeClient(settings).paymentIntents.retrieve(intentId);
    if (intent.metadata?.ucp_checkout_id !== checkoutId) return undefined;
    if (intent.status !== "requires_action" || !intent.client_secret) return undefined;
    return { clientSecret: intent.client_secret };
  } catch (e) {
    logStripeError("verification secret", intentId, e);
    return undefined;
  }
}

/** Stripe's word on the buyer's step; undefined when Stripe did not answer (nothing is decided then). */
export async function verificationResult(
  settings: StripeSettings,
  intentId: string,
  checkoutId: string,
): Promise<VerificationResult | undefined> {
  try {
    const intent = await stripeClient(settings).paymentIntents.retrieve(intentId);
    // Not this checkout's charge: nothing the buyer did here can pass it.
    if (intent.metadata?.ucp_checkout_id !== checkoutId) return "failed";
    return verificationResultOf(intent.status);
  } catch (e) {
    logStripeError("verification result", intentId, e);
    return undefined;
  }
}
