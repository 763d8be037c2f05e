/**
 * What the checkout page says about a submit, by short code. Most submits are answered with
 * the page itself (the buyer's values kept); the few that redirect (post/redirect/get) carry
 * only these codes (`?n=placed`), never what the buyer typed: URLs end up in histories and logs.
 */

export interface Notice {
  readonly tone: "ok" | "error";
  readonly text: string;
  /** The input (id) this notice is about (the summary links there). */
  readonly input?: string;
}

export const NOTICES = {
  placed: { tone: "ok", text: "Thank you! Your order is placed." },
  saved: { tone: "ok", text: "Your details are saved." },
  ready: { tone: "ok", text: "Everything is in. Check the total, then press Pay." },
  code_applied: { tone: "ok", text: "Discount code applied. Check the new total, then press Pay." },
  form_expired: {
    tone: "error",
    text: "That form was already sent. Check the page as it is now and try again.",
  },
  closed: { tone: "error", text: "This checkout can no longer be changed." },
  invalid: { tone: "error", text: "Something in the form did not look right. Check it and try again." },
  try_again: { tone: "error", text: "The store could not do that just now. Please try again." },
  quantity: { tone: "error", text: "Quantities are whole numbers from 0 to 999." },
  email_missing: { tone: "error", text: "Enter your email address.", input: "contact-email" },
  email: { tone: "error", text: "Enter an email address like name@example.com.", input: "contact-email" },
  street_missing: { tone: "error", text: "Enter the street address.", input: "address-street_address" },
  city_missing: { tone: "error", text: "Enter the city.", input: "address-address_locality" },
  country_missing: { tone: "error", text: "Choose a country.", input: "address-address_country" },
  country: { tone: "error", text: "Choose a country from the list.", input: "address-address_country" },
  card_number: {
    tone: "error",
    text: "This store is in test mode: use a test card number listed below.",
    input: "card_number",
  },
  card_expiry: { tone: "error", text: "Enter the expiry date as MM/YY, not in the past.", input: "card_expiry" },
  card_cvc: { tone: "error", text: "Enter the 3 or 4 digit security code.", input: "card_cvc" },
  card_name: { tone: "error", text: "Enter the name on the card.", input: "card_name" },
  declined: { tone: "error", text: "The payment was declined and nothing was charged. Try another card." },
  not_ready: {
    tone: "error",
    text: "The order cannot be placed yet: fill in the details this page asks for first.",
  },
  payments_off: { tone: "error", text: "This store cannot take payments yet." },
  handler: { tone: "error", text: "That way of paying is not offered for this checkout." },
  card_needs_script: {
    tone: "error",
    text: "Paying by card on this page needs JavaScript: the card form is Stripe's.",
  },
  not_placed: { tone: "error", text: "The order was not placed. Check the messages on this page and try again." },
} as const satisfies Record<string, Notice>;

export type NoticeCode = keyof typeof NOTICES;

/** The codes a redirect may carry. */
const REDIRECTED: readonly NoticeCode[] = ["placed", "closed", "form_expired", "try_again", "invalid"];
const MAX_CODES = 8;

/** `?n=a,b`: the known codes only, in order, without repeats. */
export function readNotices(url: URL): Notice[] {
  const raw = url.searchParams.get("n") ?? "";
  const codes = [...new Set(raw.split(",").slice(0, MAX_CODES))];
  return codes.filter((c): c is NoticeCode => REDIRECTED.includes(c as NoticeCode)).map((c) => NOTICES[c]);
}

/** The page's URL with these notices. */
export function withNotices(path: string, codes: readonly NoticeCode[]): string {
  return codes.length > 0 ? `${path}?n=${codes.join(",")}` : path;
}
