/**
 * ORDER_NUMBER_START: where a store's short order numbers begin (src/order/order-number.ts
 * gives them). A setting, so it lives with the config that reads it.
 */

/** The first number a store gives when ORDER_NUMBER_START is not set. */
export const DEFAULT_ORDER_NUMBER_START = 1001;

/** Numbers stay far below 2^53 and short enough to read aloud. */
export const MAX_ORDER_NUMBER = 999_999_999_999;

/** ORDER_NUMBER_START as the Worker reads it (merchant-vars.ts refuses a bad one first). */
export function orderNumberStart(value: unknown): number {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 1 && n <= MAX_ORDER_NUMBER ? n : DEFAULT_ORDER_NUMBER_START;
}
