/**
 * A merchant's restock as the console receives it and the InventoryObject checks it again:
 * `{"set": n}` states the units on hand, `{"add": n}` adds to what is there now. Pure input
 * parsing (docs/inventory.md "Restocking").
 */
import { err, ok, type Result } from "../lib/result";

export type StockChange = { readonly set: number } | { readonly add: number };

export interface InputIssue {
  readonly path: string;
  readonly message: string;
}

export const MAX_QUANTITY = 1_000_000;

/** Whole units a count may state: 0 to MAX_QUANTITY. */
export const isUnits = (v: unknown): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX_QUANTITY;

/** `{"set": n}` or `{"add": n}`, exactly one, whole units (add may be negative: a count found short). */
export function parseStockChange(change: unknown): Result<StockChange, InputIssue[]> {
  const body = typeof change === "object" && change !== null && !Array.isArray(change) ? change : undefined;
  const keys = body ? Object.keys(body) : [];
  if (!body || keys.length !== 1 || (keys[0] !== "set" && keys[0] !== "add"))
    return err([{ path: "$", message: 'send exactly one of {"set": units} or {"add": units}' }]);
  const value = (body as Record<string, unknown>)[keys[0]];
  if (keys[0] === "set") {
    return isUnits(value)
      ? ok({ set: value })
      : err([{ path: "$.set", message: `must be an integer from 0 to ${MAX_QUANTITY}` }]);
  }
  const add = value;
  return typeof add === "number" && Number.isInteger(add) && Math.abs(add) <= MAX_QUANTITY && add !== 0
    ? ok({ add })
    : err([{ path: "$.add", message: `must be a non-zero integer from -${MAX_QUANTITY} to ${MAX_QUANTITY}` }]);
}
