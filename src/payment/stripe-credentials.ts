/**
 * What Stripe is asked to charge, per handler: the credential an agent sent, mapped to a
 * PaymentIntent's payment method parameters. Used once, at the charge, never stored or logged.
 *
 * - com.google.pay with PAYMENT_GATEWAY tokenization to Stripe: `credential.token` is Google
 *   Pay's `tokenizationData.token`, which for gateway "stripe" is the JSON of a Stripe token
 *   (`{"id": "tok_…", …}`) → `payment_method_data: {type: "card", card: {token}}`.
 * - com.stripe.payments: a shared payment token Stripe issued to this business's profile
 *   (`spt_…`) → `shared_payment_granted_token`.
 */
import { GOOGLE_PAY_HANDLER_ID, STRIPE_HANDLER_ID } from "./stripe-handlers";

export type StripePaymentMethod =
  | { readonly payment_method_data: { readonly type: "card"; readonly card: { readonly token: string } } }
  | { readonly shared_payment_granted_token: string };

type Credential = { readonly type: string; readonly [key: string]: unknown };

/** The parameters, or why the credential cannot be charged (a reason the buyer may read). */
export function stripePaymentMethod(
  handlerId: string,
  credential: Credential,
): { ok: true; value: StripePaymentMethod } | { ok: false; reason: string } {
  const token = typeof credential.token === "string" ? credential.token.trim() : "";
  if (handlerId === GOOGLE_PAY_HANDLER_ID) {
    const id = googlePayStripeToken(token);
    return id
      ? { ok: true, value: { payment_method_data: { type: "card", card: { token: id } } } }
      : { ok: false, reason: "The Google Pay token is not one for this store's payment gateway (Stripe)." };
  }
  if (handlerId === STRIPE_HANDLER_ID) {
    return /^spt_[A-Za-z0-9_]+$/.test(token)
      ? { ok: true, value: { shared_payment_granted_token: token } }
      : { ok: false, reason: "The credential is not a Stripe shared payment token (spt_…)." };
  }
  return { ok: false, reason: "This payment handler is not charged through Stripe." };
}

/**
 * Google Pay's gateway token for Stripe is a JSON document whose `id` is the Stripe token; a
 * platform that already unwrapped it may send the bare `tok_…`.
 */
export function googlePayStripeToken(token: string): string | undefined {
  if (/^tok_[A-Za-z0-9_]+$/.test(token)) return token;
  if (!token.startsWith("{")) return undefined;
  try {
    const parsed = JSON.parse(token) as { id?: unknown };
    return typeof parsed.id === "string" && /^tok_[A-Za-z0-9_]+$/.test(parsed.id) ? parsed.id : undefined;
  } catch {
    return undefined;
  }
}
