/**
 * Appending an adjustment (refund, cancellation, ...) and what it obliges the merchant to do
 * outside the order: refund through the processor, return reserved stock. Pure: the object
 * stores the order and queues the effects in one transaction, then runs them (settlement.ts).
 */
import { err, ok, type Result } from "../lib/result";
import { type Issue, lineIssues } from "./line-refs";
import { planLineRefund } from "./line-refunds";
import type { AdjustmentInput } from "./order-input";
import type { Adjustment, AdjustmentStatus, LineCount, OrderLine, OrderState } from "./order-state";

/** Adjustment types whose amount goes back through the payment processor. Others (credit,
 * dispute: the bank already moved the money) only record it. */
const REFUNDED: ReadonlySet<string> = new Set(["refund", "cancellation", "return", "price_adjustment"]);

/** A release with `lines` gives back only those units of the reservation (a refund with restock). */
export type Effect =
  | { readonly kind: "refund"; readonly chargeId: string; readonly amount: number }
  | {
      readonly kind: "release";
      readonly reservationId: string;
      readonly lines?: ReadonlyArray<{ variantId: string; quantity: number }>;
    };

export interface AdjustmentPlan {
  readonly order: OrderState;
  readonly adjustmentId: string;
  readonly effects: readonly Effect[];
}

const unshipped = (line: OrderLine) => line.quantity.total - line.quantity.fulfilled;
const totalOf = (totals: OrderState["totals"]) => totals.find((t) => t.type === "total")?.amount ?? 0;

/** Money already given back: every negative adjustment total that did not fail. */
export function refundedSoFar(order: OrderState): number {
  return order.adjustments
    .filter((a) => a.status !== "failed")
    .reduce((sum, a) => sum + Math.max(0, -totalOf(a.totals ?? [])), 0);
}

export function applyAdjustment(
  order: OrderState,
  input: AdjustmentInput,
  now: number,
): Result<AdjustmentPlan, Issue[]> {
  const cancel = input.type === "cancellation";
  const issues = lineIssues(order, input.line_items ?? [], (line, quantity) => {
    if (!cancel) return undefined;
    if (quantity > 0) return "a cancellation reduces a line: use a negative quantity";
    return -quantity > unshipped(line) ? `only ${unshipped(line)} unshipped unit(s) of ${line.id} remain` : undefined;
  });
  if (input.restock && !(input.type === "refund" && input.line_items))
    issues.push({ path: "$.restock", message: "only a refund by line can restock: name the lines and units" });
  const byLine =
    issues.length === 0 && input.type === "refund" && input.line_items
      ? planLineRefund(order, input.line_items, input.restock === true)
      : undefined;
  if (byLine && !byLine.ok) issues.push(...byLine.error);
  if (issues.length > 0) return err(issues);
  const lines: readonly LineCount[] | undefined =
    input.line_items ??
    (cancel
      ? order.line_items.filter((l) => unshipped(l) > 0).map((l) => ({ id: l.id, quantity: -unshipped(l) }))
      : undefined);
  if (cancel && lines?.length === 0) {
    return err([{ path: "$.line_items", message: "nothing left to cancel: every unit is shipped or canceled" }]);
  }
  // Only a cancellation changes quantities (UCP: total is the active quantity); other types
  // record the lines they concern.
  const lineItems = cancel
    ? order.line_items.map((l) => reduce(l, lines ?? []))
    : byLine?.ok
      ? byLine.value.lineItems
      : order.line_items;
  const refundable = totalOf(order.totals) - refundedSoFar(order);
  const everything = lineItems.every((l) => l.quantity.total === 0);
  const share = byLine?.ok ? Math.min(byLine.value.share, refundable) : 0;
  const amount = input.amount ?? (cancel ? cancelRefund(order, lines ?? [], everything, refundable) : share);
  const refunds = REFUNDED.has(input.type) && amount > 0;
  if (input.type === "refund" && amount === 0) issues.push({ path: "$.amount", message: "a refund needs an amount" });
  if (amount > refundable) issues.push({ path: "$.amount", message: `at most ${refundable} can still be refunded` });
  if (refunds && !order.charge_id) issues.push({ path: "$.amount", message: "this order has no charge to refund" });
  if (issues.length > 0) return err(issues);

  const effects: Effect[] = [];
  // An authorization not captured yet (capture at shipment, capture.ts): a part given back
  // before shipment is simply not captured; giving back all that is left releases the whole
  // authorization (the processor cancels it when asked for its full amount).
  const held = order.capture?.status === "authorized";
  const releases = held && refunds && amount >= refundable;
  if (refunds && order.charge_id && !held) effects.push({ kind: "refund", chargeId: order.charge_id, amount });
  if (releases && order.charge_id)
    effects.push({ kind: "refund", chargeId: order.charge_id, amount: totalOf(order.totals) });
  // The whole reservation goes back only when nothing was ever shipped and nothing remains.
  const untouched = order.line_items.every((l) => l.quantity.fulfilled === 0);
  if (cancel && everything && untouched && order.reservation_id) {
    effects.push({ kind: "release", reservationId: order.reservation_id });
  } else if (cancel && order.reservation_id) {
    // Otherwise the canceled units alone go back (never shipped: they are on the shelf).
    const back = canceledUnits(order.line_items, lines ?? []);
    if (back.length > 0) effects.push({ kind: "release", reservationId: order.reservation_id, lines: back });
  }
  if (byLine?.ok && byLine.value.restock.length > 0 && order.reservation_id)
    effects.push({ kind: "release", reservationId: order.reservation_id, lines: byLine.value.restock });
  const adjustment: Adjustment = {
    id: `adj_${order.adjustments.length + 1}`,
    type: input.type,
    occurred_at: new Date(now).toISOString(),
    // Pending until the processor confirms the money went back (see settleAdjustment).
    status: effects.length > 0 ? "pending" : "completed",
    ...(lines ? { line_items: lines } : {}),
    ...(amount > 0 ? { totals: [{ type: "total", amount: -amount }] } : {}),
    ...(input.description ? { description: input.description } : {}),
  };
  return ok({
    order: {
      ...order,
      line_items: lineItems,
      adjustments: [...order.adjustments, adjustment],
      ...(byLine?.ok ? { returned_units: byLine.value.returned, restocked_units: byLine.value.restocked } : {}),
      ...(cancel && order.returned_units ? { returned_units: stillReturned(order.returned_units, lineItems) } : {}),
      ...(releases ? { capture: { status: "released" as const } } : {}),
    },
    adjustmentId: adjustment.id,
    effects,
  });
}

/** The order once an adjustment's effects finished (or gave up). */
export function settleAdjustment(order: OrderState, adjustmentId: string, status: AdjustmentStatus): OrderState {
  return {
    ...order,
    adjustments: order.adjustments.map((a) => (a.id === adjustmentId ? { ...a, status } : a)),
  };
}

/** The variants and units a cancellation takes off the order. */
function canceledUnits(before: readonly OrderLine[], lines: readonly LineCount[]) {
  return lines.flatMap((ref) => {
    const line = before.find((l) => l.id === ref.id);
    return line && ref.quantity < 0 ? [{ variantId: line.item.id, quantity: -ref.quantity }] : [];
  });
}

function reduce(line: OrderLine, lines: readonly LineCount[]): OrderLine {
  const change = lines.find((l) => l.id === line.id)?.quantity ?? 0;
  return change === 0 ? line : { ...line, quantity: { ...line.quantity, total: line.quantity.total + change } };
}

/**
 * A cancellation without an amount: all that is left when the whole order goes (shipping and
 * tax included), otherwise the canceled units' share of each line's total, rounded down. Units
 * a refund by line already paid back (`returned_units`: refunded, still on the order) are not
 * paid again: a line's active units carry money only beyond those.
 */
function cancelRefund(order: OrderState, lines: readonly LineCount[], everything: boolean, refundable: number): number {
  if (everything) return refundable;
  const share = lines.reduce((sum, ref) => {
    const line = order.line_items.find((l) => l.id === ref.id);
    if (!line || line.quantity.original === 0) return sum;
    const paidBack = order.returned_units?.[line.id] ?? 0;
    const units = Math.min(-ref.quantity, Math.max(0, line.quantity.total - paidBack));
    const lineTotal = totalOf(line.totals) || line.item.price * line.quantity.original;
    return sum + Math.floor((lineTotal * units) / line.quantity.original);
  }, 0);
  return Math.min(share, refundable);
}

/** After a cancellation: a line never counts more refunded units than it still has. */
function stillReturned(
  returned: Readonly<Record<string, number>>,
  after: readonly OrderLine[],
): Record<string, number> {
  return Object.fromEntries(
    Object.entries(returned).map(([id, units]) => {
      const total = after.find((l) => l.id === id)?.quantity.total ?? 0;
      return [id, Math.min(units, total)];
    }),
  );
}
