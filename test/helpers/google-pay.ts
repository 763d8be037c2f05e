/**
 * What an agent sends to pay with Google Pay on a store that charges through Stripe:
 * tokenizationData.token for gateway "stripe" is the JSON of a Stripe token (e.g. tok_visa).
 * Plain data, so workerd, e2e and browser tests share it.
 */
export const googlePay = (stripeToken: string, lastDigits = "4242") => ({
  payment: {
    instruments: [
      {
        id: "instr_gp",
        handler_id: "google_pay",
        type: "card",
        selected: true,
        display: { brand: "visa", last_digits: lastDigits },
        credential: { type: "PAYMENT_GATEWAY", token: JSON.stringify({ id: stripeToken, object: "token" }) },
      },
    ],
  },
});
