/**
 * Builds line-item and checkout `totals` arrays (types/totals.json): fixed order, exactly one
 * subtotal and one total, and the accounting identity sum(non-total) === total, which
 * platforms verify before completing.
 */
import type { Total } from "../../schemas/ucp/cart";
import { includedLines } from "./included-tax";

/** Line totals: subtotal, items_discount (only when positive), total. */
export function lineTotals(subtotal: number, itemsDiscount: number): Total[] {
  const discount = clamp(itemsDiscount, subtotal);
  return [
    { type: "subtotal", amount: subtotal },
    ...(discount > 0 ? [{ type: "items_discount", amount: -discount }] : []),
    { type: "total", amount: subtotal - discount },
  ];
}

export interface CheckoutTotalsInput {
  /** Σ item.price × quantity. */
  readonly merchandise: number;
  /** Σ of the lines' discounts (positive); must match the lines' items_discount totals. */
  readonly itemsDiscount: number;
  /** Order-level discount (positive). */
  readonly orderDiscount: number;
  /** The selected option's amount; omit while no option is selected. */
  readonly fulfillment?: number;
  readonly taxes: readonly Total[];
  /** Taxes the gross prices include (prices_include_tax): sub-lines of the total, never added to it. */
  readonly includedTaxes?: readonly Total[];
}

/**
 * Ordered subtotal, items_discount, discount, fulfillment, taxes, total. Discounts are capped so
 * the total never goes negative: items at the merchandise, the order discount at what remains
 * plus shipping.
 */
export function checkoutTotals(input: CheckoutTotalsInput): Total[] {
  const items = clamp(input.itemsDiscount, input.merchandise);
  const shipping = input.fulfillment === undefined ? undefined : Math.max(0, input.fulfillment);
  const order = clamp(input.orderDiscount, input.merchandise - items + (shipping ?? 0));
  const entries: Total[] = [
    { type: "subtotal", display_text: "Subtotal", amount: input.merchandise },
    ...(items > 0 ? [{ type: "items_discount", display_text: "Item Discounts", amount: -items }] : []),
    ...(order > 0 ? [{ type: "discount", display_text: "Order Discounts", amount: -order }] : []),
    ...(shipping === undefined ? [] : [{ type: "fulfillment", display_text: "Shipping", amount: shipping }]),
    ...input.taxes.map((tax) => ({ ...tax })),
  ];
  const total = entries.reduce((sum, entry) => sum + entry.amount, 0);
  const included = input.includedTaxes ?? [];
  const lines = included.length > 0 ? { lines: includedLines(total, included) } : {};
  return [...entries, { type: "total", display_text: "Total", amount: total, ...lines }];
}

function clamp(discount: number, max: number): number {
  return Math.min(Math.max(0, discount), Math.max(0, max));
}
