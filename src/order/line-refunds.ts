/**
 * A refund by line (issue 26 item 1): `{type: "refund", line_items: [{id, quantity: -n}]}`,
 * optionally `restock: true`. Restocked units not shipped yet leave the order (its active
 * quantity drops: nobody ships what is back on the shelf); every other refunded unit (shipped
 * and coming back, or a refund of money only, which keeps its units on the order as before)
 * is counted in `returned_units`. A line never gives back more than it has active and not yet
 * refunded. Without an amount the money is the units' share of the line's total. Restocking
 * names the variants and units for the order's reservation (stock-returns.ts). Pure.
 */
import { err, ok, type Result } from "../lib/result";
import { type Issue, lineIssues } from "./line-refs";
import type { LineCount, OrderLine, OrderState } from "./order-state";

export interface LineRefundPlan {
  readonly lineItems: readonly OrderLine[];
  readonly returned: Readonly<Record<string, number>>;
  readonly restocked: Readonly<Record<string, number>>;
  /** The units' share of their lines' totals (the default amount). */
  readonly share: number;
  /** Variants and units to put back in stock (empty without restock). */
  readonly restock: ReadonlyArray<{ variantId: string; quantity: number }>;
}

const totalOf = (line: OrderLine) =>
  line.totals.find((t) => t.type === "total")?.amount ?? line.item.price * line.quantity.original;

/** Units of a line that may still be refunded by line: active, and not already refunded. */
export function refundableUnits(order: OrderState, line: OrderLine): number {
  return Math.max(0, line.quantity.total - (order.returned_units?.[line.id] ?? 0));
}

export function planLineRefund(
  order: OrderState,
  lines: readonly LineCount[],
  restock: boolean,
): Result<LineRefundPlan, Issue[]> {
  const issues = lineIssues(order, lines, (line, quantity) => {
    if (quantity > 0) return "a refund gives units back: use a negative quantity";
    const left = refundableUnits(order, line);
    return -quantity > left ? `only ${left} unit(s) of ${line.id} can still be refunded` : undefined;
  });
  if (restock && !order.reservation_id)
    issues.push({ path: "$.restock", message: "this order kept no stock reservation: restock from the catalog page" });
  if (issues.length > 0) return err(issues);
  const returned = { ...(order.returned_units ?? {}) };
  const restocked = { ...(order.restocked_units ?? {}) };
  let share = 0;
  const back: Array<{ variantId: string; quantity: number }> = [];
  const lineItems = order.line_items.map((line) => {
    const units = -(lines.find((l) => l.id === line.id)?.quantity ?? 0);
    if (units === 0) return line;
    const unshipped = Math.max(0, line.quantity.total - line.quantity.fulfilled);
    const fromUnshipped = restock ? Math.min(units, unshipped) : 0;
    const kept = units - fromUnshipped;
    if (kept > 0) returned[line.id] = (returned[line.id] ?? 0) + kept;
    if (restock) {
      restocked[line.id] = (restocked[line.id] ?? 0) + units;
      back.push({ variantId: line.item.id, quantity: units });
    }
    if (line.quantity.original > 0) share += Math.floor((totalOf(line) * units) / line.quantity.original);
    return fromUnshipped === 0
      ? line
      : { ...line, quantity: { ...line.quantity, total: line.quantity.total - fromUnshipped } };
  });
  return ok({ lineItems, returned, restocked, share, restock: back });
}
