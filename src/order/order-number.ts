/**
 * The short order number a person reads ("#1001"): sequential per store, given once to each
 * order at its creation by one allocator (the ORDER_INDEX class's ORDER_NUMBERS_NAME object,
 * durable-objects/order-index/numbers.ts), keyed by the order id so a replayed completion
 * gets the same number, never reused. The UCP order id stays the protocol's id; the number is
 * the order's `label` (shopping/order.json, order_confirmation.json). Pure.
 */

/** The allocator object's name: one per store, beside the index ("orders") and its log ("order-log"). */
export const ORDER_NUMBERS_NAME = "order-numbers";

/** "#1001": how pages, emails, the console and the order's `label` show it. */
export function orderLabel(number: number): string {
  return `#${number}`;
}

/** The next number: after the highest given, never below the configured start (raising it skips ahead). */
export function nextOrderNumber(highest: number | null, start: number): number {
  return Math.max(start, (highest ?? 0) + 1);
}
