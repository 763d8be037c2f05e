/**
 * What each of Stripe's documented test values does (docs "Testing": test card tokens `tok_*`,
 * test PaymentMethods `pm_card_*`), and the stand-in's Shared Payment Tokens (`spt_*`). Only
 * these magic values are reusable; anything else is unknown to the stand-in, as an unknown id
 * is to Stripe.
 */
export interface Card {
  readonly brand: string;
  readonly last4: string;
  readonly funding: "credit" | "debit";
  readonly country: string;
}

export type Outcome =
  | { readonly kind: "succeed"; readonly card: Card }
  | {
      readonly kind: "decline";
      readonly card: Card;
      readonly code: string;
      readonly declineCode: string;
      readonly message: string;
    }
  /** The issuer asks for 3-D Secure: the PaymentIntent becomes requires_action. */
  | { readonly kind: "authenticate"; readonly card: Card };

const visa = (last4: string): Card => ({ brand: "visa", last4, funding: "credit", country: "US" });

const succeed = (card: Card): Outcome => ({ kind: "succeed", card });
const decline = (last4: string, declineCode: string, message: string, code = "card_declined"): Outcome => ({
  kind: "decline",
  card: visa(last4),
  code,
  declineCode,
  message,
});
const authenticate = (last4: string): Outcome => ({ kind: "authenticate", card: visa(last4) });

const DECLINED = "Your card was declined.";

/** The name without its prefix → outcome: `tok_<name>` and `pm_card_<name>` mean the same card. */
const CARDS: Record<string, Outcome> = {
  visa: succeed(visa("4242")),
  visa_debit: succeed({ brand: "visa", last4: "5556", funding: "debit", country: "US" }),
  mastercard: succeed({ brand: "mastercard", last4: "4444", funding: "credit", country: "US" }),
  amex: succeed({ brand: "amex", last4: "8431", funding: "credit", country: "US" }),
  chargeDeclined: decline("0002", "generic_decline", DECLINED),
  chargeDeclinedInsufficientFunds: decline("9995", "insufficient_funds", "Your card has insufficient funds."),
  visa_chargeDeclinedInsufficientFunds: decline("9995", "insufficient_funds", "Your card has insufficient funds."),
  chargeDeclinedFraudulent: decline("0019", "fraudulent", DECLINED),
  visa_chargeDeclinedFraudulent: decline("0019", "fraudulent", DECLINED),
  chargeDeclinedExpiredCard: decline("0069", "expired_card", "Your card has expired.", "expired_card"),
  chargeDeclinedIncorrectCvc: decline(
    "0127",
    "incorrect_cvc",
    "Your card's security code is incorrect.",
    "incorrect_cvc",
  ),
  chargeDeclinedProcessingError: decline(
    "0119",
    "processing_error",
    "An error occurred while processing your card. Try again in a little bit.",
    "processing_error",
  ),
  threeDSecure2Required: authenticate("3220"),
  threeDSecureRequired: authenticate("3063"),
  authenticationRequired: authenticate("3184"),
};

/** A test card token (`tok_visa`), or undefined when it is not one of Stripe's test values. */
export function tokenOutcome(token: string): Outcome | undefined {
  return token.startsWith("tok_") ? CARDS[token.slice(4)] : undefined;
}

/** A test PaymentMethod alias (`pm_card_visa`), or undefined. */
export function paymentMethodAlias(id: string): Outcome | undefined {
  return id.startsWith("pm_card_") ? CARDS[id.slice(8)] : undefined;
}

/**
 * Shared Payment Tokens (Stripe's com.stripe.payments handler): any `spt_…` pays with a Visa,
 * except `spt_declined` (declined) and tokens naming a test card after `spt_`
 * (`spt_chargeDeclinedInsufficientFunds`, `spt_authenticationRequired`), which act as that card.
 */
export function sharedTokenOutcome(token: string): Outcome | undefined {
  if (!/^spt_\w+$/.test(token)) return undefined;
  const name = token.slice(4);
  if (name === "declined") return CARDS.chargeDeclined;
  return CARDS[name] ?? CARDS.visa;
}
