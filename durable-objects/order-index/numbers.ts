/**
 * The store's order numbers (ORDER_NUMBERS_NAME, src/order/order-number.ts): one row per order,
 * written once. An order id that already has a number gets it back (a replayed completion);
 * a new one gets the next after the highest, so numbers are never reused, even when the
 * configured start changes. One synchronous transaction per allocation.
 */
import { nextOrderNumber } from "../../src/order/order-number";

export const NUMBERS_SCHEMA = `CREATE TABLE IF NOT EXISTS order_numbers (
  number INTEGER PRIMARY KEY,
  order_id TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
)`;

/** Inside a transaction: the order's number, given now if it has none. */
export function allocateNumber(sql: SqlStorage, orderId: string, start: number, now: number): number {
  const given = sql
    .exec<{ number: number }>("SELECT number FROM order_numbers WHERE order_id = ?", orderId)
    .toArray()[0];
  if (given) return given.number;
  const highest = sql.exec<{ n: number | null }>("SELECT MAX(number) AS n FROM order_numbers").one().n;
  const number = nextOrderNumber(highest, start);
  sql.exec("INSERT INTO order_numbers (number, order_id, created_at) VALUES (?, ?, ?)", number, orderId, now);
  return number;
}
