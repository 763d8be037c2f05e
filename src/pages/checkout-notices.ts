/**
 * What a checkout form's outcome says after the redirect (post/redirect/get). The redirect
 * carries only short codes from this table (`?n=email,card_cvc`), never what the buyer typed:
 * URLs end up in histories and logs.
 */

export type Section = "top" | "items" | "contact" | "address" | "shipping" | "discounts" | "payment";

export interface Notice {
  readonly section: Section;
  readonly tone: "ok" | "error";
  readonly text: string;
  /** The form field this notice is about (aria-describedby). */
  readonly field?: string;
}

export const NOTICES = {
  placed: { section: "top", tone: "ok", text: "Thank you! Your order is placed." },
  form_expired: {
    section: "top",
    tone: "error",
    text: "That form was already sent. Check the page as it is now and try again.",
  },
  closed: { section: "top", tone: "error", text: "This checkout can no longer be changed." },
  invalid: { section: "top", tone: "error", text: "Something in the form did not look right. Check it and try again." },
  try_again: { section: "top", tone: "error", text: "The store could not do that just now. Please try again." },
  items_saved: { section: "items", tone: "ok", text: "Your items are updated." },
  quantity: { section: "items", tone: "error", text: "Quantities are whole numbers from 0 to 999." },
  contact_saved: { section: "contact", tone: "ok", text: "Contact details saved." },
  email: {
    section: "contact",
    tone: "error",
    text: "Enter an email address like name@example.com.",
    field: "email",
  },
  address_saved: { section: "address", tone: "ok", text: "Shipping address saved." },
  address_incomplete: {
    section: "address",
    tone: "error",
    text: "Enter the street address, city and country.",
  },
  country: { section: "address", tone: "error", text: "Choose a country from the list.", field: "address_country" },
  shipping_saved: { section: "shipping", tone: "ok", text: "Shipping method saved." },
  shipping_option: {
    section: "shipping",
    tone: "error",
    text: "Choose one of the shipping methods shown.",
    field: "option",
  },
  discount_applied: { section: "discounts", tone: "ok", text: "Discount code applied." },
  discount_rejected: {
    section: "discounts",
    tone: "error",
    text: "That discount code could not be applied (see why below).",
  },
  discount_removed: { section: "discounts", tone: "ok", text: "Discount code removed." },
  discount_empty: { section: "discounts", tone: "error", text: "Enter a discount code.", field: "code" },
  card_number: {
    section: "payment",
    tone: "error",
    text: "This store is in test mode: use a test card number listed below.",
    field: "card_number",
  },
  card_expiry: {
    section: "payment",
    tone: "error",
    text: "Enter the expiry date as MM/YY, not in the past.",
    field: "card_expiry",
  },
  card_cvc: { section: "payment", tone: "error", text: "Enter the 3 or 4 digit security code.", field: "card_cvc" },
  card_name: { section: "payment", tone: "error", text: "Enter the name on the card.", field: "card_name" },
  declined: {
    section: "payment",
    tone: "error",
    text: "The payment was declined and nothing was charged. Try another card.",
  },
  not_ready: {
    section: "payment",
    tone: "error",
    text: "The order cannot be placed yet: fill in the details this page asks for first.",
  },
  payments_off: { section: "payment", tone: "error", text: "This store cannot take payments yet." },
  handler: { section: "payment", tone: "error", text: "That way of paying is not offered for this checkout." },
  not_placed: {
    section: "payment",
    tone: "error",
    text: "The order was not placed. Check the messages on this page and try again.",
  },
} as const satisfies Record<string, Notice>;

export type NoticeCode = keyof typeof NOTICES;

const MAX_CODES = 8;

/** `?n=a,b`: the known codes only, in order, without repeats. */
export function readNotices(url: URL): Notice[] {
  const raw = url.searchParams.get("n") ?? "";
  const codes = [...new Set(raw.split(",").slice(0, MAX_CODES))];
  return codes.filter((c): c is NoticeCode => Object.hasOwn(NOTICES, c)).map((c) => NOTICES[c]);
}

/** The page's URL with these notices. */
export function withNotices(path: string, codes: readonly NoticeCode[]): string {
  return codes.length > 0 ? `${path}?n=${codes.join(",")}` : path;
}
