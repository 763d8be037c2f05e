/**
 * What the checkout page says about a submit, by short code. Most submits are answered with
 * the page itself (the buyer's values kept); the few that redirect (post/redirect/get) carry
 * only these codes (`?n=placed`), never what the buyer typed: URLs end up in histories and logs.
 */
import type { MessageKey } from "../i18n/messages/en";

export interface Notice {
  readonly tone: "ok" | "error";
  /** Its words, in the store's language (src/i18n). */
  readonly key: MessageKey;
  /** The input (id) this notice is about (the summary links there). */
  readonly input?: string;
}

export const NOTICES = {
  placed: { tone: "ok", key: "checkout.notice.placed" },
  saved: { tone: "ok", key: "checkout.notice.saved" },
  ready: { tone: "ok", key: "checkout.notice.ready" },
  code_applied: { tone: "ok", key: "checkout.notice.codeApplied" },
  form_expired: { tone: "error", key: "checkout.notice.formExpired" },
  closed: { tone: "error", key: "checkout.notice.closed" },
  invalid: { tone: "error", key: "checkout.notice.invalid" },
  try_again: { tone: "error", key: "checkout.notice.tryAgain" },
  quantity: { tone: "error", key: "checkout.notice.quantity" },
  email_missing: { tone: "error", key: "checkout.notice.emailMissing", input: "contact-email" },
  email: { tone: "error", key: "checkout.notice.email", input: "contact-email" },
  street_missing: { tone: "error", key: "checkout.notice.streetMissing", input: "address-street_address" },
  city_missing: { tone: "error", key: "checkout.notice.cityMissing", input: "address-address_locality" },
  country_missing: { tone: "error", key: "checkout.notice.countryMissing", input: "address-address_country" },
  country: { tone: "error", key: "checkout.notice.country", input: "address-address_country" },
  card_number: { tone: "error", key: "checkout.notice.cardNumber", input: "card_number" },
  card_expiry: { tone: "error", key: "checkout.notice.cardExpiry", input: "card_expiry" },
  card_cvc: { tone: "error", key: "checkout.notice.cardCvc", input: "card_cvc" },
  card_name: { tone: "error", key: "checkout.notice.cardName", input: "card_name" },
  declined: { tone: "error", key: "checkout.notice.declined" },
  not_ready: { tone: "error", key: "checkout.notice.notReady" },
  payments_off: { tone: "error", key: "checkout.notice.paymentsOff" },
  handler: { tone: "error", key: "checkout.notice.handler" },
  card_needs_script: { tone: "error", key: "checkout.notice.cardNeedsScript" },
  not_placed: { tone: "error", key: "checkout.notice.notPlaced" },
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
