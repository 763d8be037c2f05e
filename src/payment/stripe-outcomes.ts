/**
 * What a PaymentIntent's state and Stripe's errors mean for a completion (ChargeOutcome), and
 * what is logged of them: a code, never a message (Stripe's messages can quote the token).
 */
import type Stripe from "stripe";
import type { ChargeOutcome } from "./processor";

export const VERIFY_REASON = "The card's bank asks the buyer to verify this payment (3-D Secure).";

/** Buyer-safe words per decline code; anything else is the generic decline. */
const DECLINES: Readonly<Record<string, string>> = {
  insufficient_funds: "The card was declined: insufficient funds.",
  expired_card: "The card has expired.",
  incorrect_cvc: "The card's security code is incorrect.",
  incorrect_number: "The card number is incorrect.",
  processing_error: "The card could not be processed. Try again or use another card.",
  lost_card: "The card was declined.",
  stolen_card: "The card was declined.",
  fraudulent: "The card was declined.",
  authentication_required: "The card's bank could not verify the payment.",
};
const DECLINED = "The card was declined.";

export function outcomeOf(intent: Stripe.PaymentIntent): ChargeOutcome {
  switch (intent.status) {
    case "succeeded":
    case "requires_capture":
      // Captured or authorized (manual capture at shipment): the money is the merchant's to take.
      return { kind: "captured", chargeId: intent.id };
    case "requires_action": {
      const redirect = intent.next_action?.redirect_to_url?.url;
      return {
        kind: "requires_action",
        reason: VERIFY_REASON,
        authenticationId: intent.id,
        ...(redirect ? { actionUrl: redirect } : {}),
      };
    }
    case "processing":
      // Cards settle synchronously; a processing intent is a rare method Stripe confirms later.
      return { kind: "declined", reason: "The payment is still processing; nothing was captured. Try again shortly." };
    default: {
      const code = intent.last_payment_error?.decline_code ?? intent.last_payment_error?.code;
      return { kind: "declined", reason: (code && DECLINES[code]) || DECLINED };
    }
  }
}

/** A card error or a refused credential is a decline; anything else is thrown (the completion stays to be recovered). */
export function declineOf(error: unknown): ChargeOutcome | undefined {
  const e = error as Partial<Stripe.errors.StripeError> | undefined;
  if (e?.type === "StripeCardError") {
    const code = e.decline_code ?? e.code;
    return { kind: "declined", reason: (code && DECLINES[code]) || DECLINED };
  }
  // A token that does not exist, was used already, or belongs to another account: the agent's credential is bad.
  if (e?.type === "StripeInvalidRequestError" && (e.statusCode ?? 0) < 500 && e.code !== "idempotency_key_in_use")
    return { kind: "declined", reason: "The payment credential could not be used. Pay with another one." };
  return undefined;
}

/** One log line: the operation, the key it ran under, Stripe's error type and code. Never the message. */
export function logStripeError(operation: string, key: string, error: unknown): void {
  const e = error as Partial<Stripe.errors.StripeError> | undefined;
  const type = typeof e?.type === "string" ? e.type : "unknown";
  const code = typeof e?.code === "string" ? e.code : "";
  const decline = typeof e?.decline_code === "string" ? ` decline_code=${e.decline_code}` : "";
  console.error(`stripe: ${operation} ${key}: ${type}${code ? ` code=${code}` : ""}${decline}`);
}

/** For a thrown error: a message that names what failed without anything Stripe said. */
export function stripeFailure(operation: string, error: unknown): Error {
  const e = error as Partial<Stripe.errors.StripeError> | undefined;
  return new Error(`stripe ${operation} failed (${typeof e?.type === "string" ? e.type : "unknown error"})`);
}
