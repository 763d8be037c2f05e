/**
 * The test payment handler's card form. In test mode the page turns the documented test card
 * numbers into the handler's test tokens (src/payment/processor.ts); any other number is a
 * field error. The number itself is never stored, logged or sent on: only the brand and last
 * four digits go into the instrument's `display`.
 */

import type { MessageKey } from "../i18n/messages/en";
import { TEST_TOKENS } from "../payment/processor";
import type { NoticeCode } from "./checkout-notices";

/** Documented test cards (docs: /ucp/payment/test) → the test handler's tokens. */
export const TEST_CARDS: ReadonlyArray<{ number: string; token: string; outcome: MessageKey }> = [
  { number: "4242424242424242", token: TEST_TOKENS.success, outcome: "checkout.testCard.pays" },
  { number: "4000000000000002", token: TEST_TOKENS.decline, outcome: "checkout.testCard.declined" },
  { number: "4000002760003184", token: TEST_TOKENS.requiresAction, outcome: "checkout.testCard.verifies" },
];

export interface CardEntry {
  readonly number: string;
  readonly expiry: string;
  readonly cvc: string;
  readonly name: string;
}

export interface CardCredential {
  readonly token: string;
  readonly display: { readonly brand: string; readonly last_digits: string };
}

export type CardResult =
  | { readonly ok: true; readonly card: CardCredential }
  | { readonly ok: false; readonly problems: readonly NoticeCode[] };

/** "4242 4242 4242 4242" → "4242 4242 4242 4242" as shown in the hints. */
export function groupDigits(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, "$1 ");
}

function brandOf(digits: string): string {
  if (digits.startsWith("4")) return "visa";
  if (/^(5[1-5]|2[2-7])/.test(digits)) return "mastercard";
  if (/^3[47]/.test(digits)) return "amex";
  return "card";
}

/** MM/YY or MM/YYYY, this month or later (`now` in ms). */
function expiryOk(expiry: string, now: number): boolean {
  const m = /^(0?[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/.exec(expiry);
  if (!m) return false;
  const month = Number(m[1]);
  const year = m[2]?.length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  const today = new Date(now);
  return year > today.getUTCFullYear() || (year === today.getUTCFullYear() && month >= today.getUTCMonth() + 1);
}

/** The entered card as a test credential, or every problem with it (field by field). */
export function testCardCredential(entry: CardEntry, now: number): CardResult {
  const digits = entry.number.replace(/[\s-]/g, "");
  const card = TEST_CARDS.find((c) => c.number === digits);
  const problems: NoticeCode[] = [];
  if (!card) problems.push("card_number");
  if (!expiryOk(entry.expiry, now)) problems.push("card_expiry");
  if (!/^\d{3,4}$/.test(entry.cvc)) problems.push("card_cvc");
  if (entry.name.length === 0) problems.push("card_name");
  if (!card || problems.length > 0) return { ok: false, problems };
  return { ok: true, card: { token: card.token, display: { brand: brandOf(digits), last_digits: digits.slice(-4) } } };
}
