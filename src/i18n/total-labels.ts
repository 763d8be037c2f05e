/**
 * Totals and order words in the buyer's language. The API's `display_text` and the order's
 * lower_snake_case types are English for agents (docs/decisions/pages.md "Issue 25: the buyer's
 * language"); the pages name the kinds they know and show the API's words for the rest.
 */
import { INCLUDED_TAX_TEXT } from "../checkout/included-tax";
import type { MessageKey } from "./messages/en";
import type { Translate } from "./translate";

const TOTALS: Readonly<Record<string, MessageKey>> = {
  subtotal: "totals.subtotal",
  items_discount: "totals.discount",
  discount: "totals.discount",
  fulfillment: "totals.shipping",
  tax: "totals.tax",
  fee: "totals.fees",
  total: "totals.total",
};

/** A totals row's label: the kind's own word; a discount or fee keeps the API's text (it names the code). */
export function totalLabel(
  t: Translate,
  total: { readonly type: string; readonly display_text?: string },
  estimate = false,
): string {
  if (total.type === "total") return t(estimate ? "totals.estimated" : "totals.total");
  const keep = ["discount", "items_discount", "fee"].includes(total.type) && total.display_text;
  const key = TOTALS[total.type];
  return keep || !key ? (total.display_text ?? total.type) : t(key);
}

/** "incl. VAT (19%)" → "inkl. VAT (19%)": the merchant's rate label inside the store's words. */
export function includedLabel(t: Translate, displayText: string): string {
  const prefix = INCLUDED_TAX_TEXT.included("");
  return displayText.startsWith(prefix)
    ? t("totals.included", { label: displayText.slice(prefix.length) })
    : displayText;
}

const WORDS: Readonly<Record<string, MessageKey>> = {
  shipped: "order.event.shipped",
  in_transit: "order.event.inTransit",
  out_for_delivery: "order.event.outForDelivery",
  delivered: "order.event.delivered",
  failed_attempt: "order.event.failedAttempt",
  canceled: "order.event.canceled",
  refund: "order.adjustment.refund",
  cancellation: "order.adjustment.cancellation",
  return: "order.adjustment.return",
  credit: "order.adjustment.credit",
  price_adjustment: "order.adjustment.priceAdjustment",
  dispute: "order.adjustment.dispute",
  pending: "order.adjustment.pending",
  completed: "order.adjustment.completed",
  success: "order.adjustment.completed",
  failed: "order.adjustment.failed",
};

/** An order's lower_snake_case word ("in_transit") for a person: translated when known, else "In transit". */
export function orderWord(t: Translate, type: string): string {
  const key = WORDS[type];
  if (key) return t(key);
  const text = type.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
