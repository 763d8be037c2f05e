/**
 * What the payment processor reports about an order's money after the fact (Stripe's
 * webhooks, src/payment-webhooks/): a refund made in its dashboard, the store's own refund
 * confirmed, a dispute opened or closed. Pure: the order, the processor's facts and `now` in;
 * the next order (the same object when nothing changes) out.
 *
 * Exactly once: each refund and dispute is keyed by the processor's own id in the order
 * (`processor_refunds`, `disputes`), so a redelivered or duplicated event finds its record
 * and changes nothing; an event older than the one a record last took is ignored (the
 * processor does not promise delivery order).
 */
import { err, ok, type Result } from "../lib/result";
import type { Issue } from "./line-refs";
import type { Adjustment, AdjustmentStatus, DisputeRecord, OrderState, RefundRecord } from "./order-state";

/** A refund as the processor states it (Stripe: a Refund object). */
export interface ProcessorRefund {
  readonly id: string;
  /** Minor units, positive. */
  readonly amount: number;
  /** ISO 4217, upper case. */
  readonly currency: string;
  /** The processor's status (Stripe: pending, requires_action, succeeded, failed, canceled). */
  readonly status: string;
  readonly reason?: string;
  /**
   * Made by this store (its metadata names this order): already an adjustment of the
   * store's own, so it is noted, never added again.
   */
  readonly byStore: boolean;
  /** The store's adjustment it was made for, when its key says (`<adjustment id>:refund`). */
  readonly storeAdjustmentId?: string;
}

/** A dispute (chargeback or inquiry) as the processor states it (Stripe: a Dispute object). */
export interface ProcessorDispute {
  readonly id: string;
  readonly amount: number;
  readonly currency: string;
  /** Stripe: warning_needs_response, warning_under_review, warning_closed, needs_response, under_review, won, lost. */
  readonly status: string;
  readonly reason: string;
  /** When evidence is due (ms), if the processor says. */
  readonly evidenceDueBy?: number;
}

export type ProcessorChange =
  | { readonly kind: "refund"; readonly refund: ProcessorRefund }
  | { readonly kind: "dispute"; readonly dispute: ProcessorDispute };

/** One processor event for one order: the object's input (its ledger key is the event id). */
export interface ProcessorEventInput {
  /** Stripe's event id (`evt_…`): the ledger key, so a redelivery replays. */
  readonly eventId: string;
  readonly eventType: string;
  /** When the processor made the event (ms): orders the facts about one refund or dispute. */
  readonly occurredAt: number;
  /** The charge it concerns (Stripe: the PaymentIntent id), when known: must be the order's. */
  readonly chargeId?: string;
  readonly changes: readonly ProcessorChange[];
}

/** States a refund or dispute does not leave for an open one: a late "pending" never undoes an outcome. */
const SETTLED: ReadonlySet<string> = new Set(["succeeded", "failed", "canceled", "won", "lost", "warning_closed"]);

/** Whether a record already says at least this much: the same facts, a newer event, or an outcome. */
function stale(
  known: { status: string; amount: number; event_at: number } | undefined,
  fact: { status: string; amount: number },
  at: number,
): boolean {
  if (!known) return false;
  if (known.status === fact.status && known.amount === fact.amount) return true;
  return known.event_at > at || (SETTLED.has(known.status) && !SETTLED.has(fact.status));
}

/** Stripe's refund status as the adjustment's: only a succeeded refund has given money back. */
export function refundAdjustmentStatus(status: string): AdjustmentStatus {
  if (status === "succeeded") return "completed";
  return status === "failed" || status === "canceled" ? "failed" : "pending";
}

/**
 * A dispute as an adjustment: open, the money is held back from the merchant (pending);
 * lost, it went to the buyer (completed); won or an inquiry closed, it came back (failed:
 * the dispute moved no money in the end, and the order's refunded sum no longer counts it).
 */
export function disputeAdjustmentStatus(status: string): AdjustmentStatus {
  if (status === "lost") return "completed";
  return status === "won" || status === "warning_closed" ? "failed" : "pending";
}

/**
 * The order after the processor's facts, or issues when the event is not this order's (another
 * charge). `changed`: false when every fact was already known (a redelivery), so nothing is
 * saved or announced.
 */
export function applyProcessorEvent(
  order: OrderState,
  input: ProcessorEventInput,
  now: number,
): Result<{ order: OrderState; changed: boolean }, Issue[]> {
  if (input.chargeId && order.charge_id && input.chargeId !== order.charge_id) {
    return err([{ path: "$.charge", message: "the event's payment is not this order's charge" }]);
  }
  let next = order;
  for (const change of input.changes) {
    next =
      change.kind === "refund"
        ? withRefund(next, change.refund, input.occurredAt, now)
        : withDispute(next, change.dispute, input.occurredAt, now);
  }
  return ok({ order: next, changed: next !== order });
}

function withRefund(order: OrderState, refund: ProcessorRefund, at: number, now: number): OrderState {
  const records = order.processor_refunds ?? [];
  const known = records.find((r) => r.id === refund.id);
  if (stale(known, refund, at)) return order;
  const stamp = new Date(now).toISOString();
  let adjustments = order.adjustments;
  let adjustmentId = known?.adjustment_id;
  if (refund.byStore) {
    // The store's own: its adjustment already says it. Only a failure Stripe reports later (a
    // refund it accepted and then could not pay) changes it: that money did not go back.
    const own = order.adjustments.find((a) => a.id === refund.storeAdjustmentId);
    adjustmentId = own?.id;
    if (own && refundAdjustmentStatus(refund.status) === "failed")
      adjustments = adjustments.map((a) => (a.id === own.id ? { ...a, status: "failed" } : a));
  } else {
    const status = refundAdjustmentStatus(refund.status);
    if (adjustmentId) {
      adjustments = adjustments.map((a) =>
        a.id === adjustmentId ? { ...a, status, totals: [{ type: "total", amount: -refund.amount }] } : a,
      );
    } else {
      adjustmentId = `adj_${adjustments.length + 1}`;
      adjustments = [
        ...adjustments,
        {
          id: adjustmentId,
          type: "refund",
          occurred_at: stamp,
          status,
          totals: [{ type: "total", amount: -refund.amount }],
          description: "Refunded in the payment processor's dashboard",
        },
      ];
    }
  }
  const record: RefundRecord = {
    id: refund.id,
    amount: refund.amount,
    currency: refund.currency,
    status: refund.status,
    by_store: refund.byStore,
    ...(refund.reason ? { reason: refund.reason } : {}),
    ...(adjustmentId ? { adjustment_id: adjustmentId } : {}),
    recorded_at: known?.recorded_at ?? stamp,
    updated_at: stamp,
    event_at: at,
  };
  return {
    ...order,
    adjustments,
    processor_refunds: known ? records.map((r) => (r.id === refund.id ? record : r)) : [...records, record],
  };
}

function withDispute(order: OrderState, dispute: ProcessorDispute, at: number, now: number): OrderState {
  const records = order.disputes ?? [];
  const known = records.find((d) => d.id === dispute.id);
  if (stale(known, dispute, at)) return order;
  const stamp = new Date(now).toISOString();
  const status = disputeAdjustmentStatus(dispute.status);
  const totals = [{ type: "total", amount: -dispute.amount }];
  let adjustments = order.adjustments;
  let adjustmentId = known?.adjustment_id;
  if (adjustmentId) {
    adjustments = adjustments.map((a) => (a.id === adjustmentId ? { ...a, status, totals } : a));
  } else {
    adjustmentId = `adj_${adjustments.length + 1}`;
    const adjustment: Adjustment = {
      id: adjustmentId,
      type: "dispute",
      occurred_at: stamp,
      status,
      totals,
      description: `The buyer's bank opened a dispute (${dispute.reason.replaceAll("_", " ")})`,
    };
    adjustments = [...adjustments, adjustment];
  }
  const record: DisputeRecord = {
    id: dispute.id,
    amount: dispute.amount,
    currency: dispute.currency,
    status: dispute.status,
    reason: dispute.reason,
    adjustment_id: adjustmentId,
    ...(dispute.evidenceDueBy ? { evidence_due_by: new Date(dispute.evidenceDueBy).toISOString() } : {}),
    opened_at: known?.opened_at ?? stamp,
    updated_at: stamp,
    event_at: at,
  };
  return {
    ...order,
    adjustments,
    disputes: known ? records.map((d) => (d.id === dispute.id ? record : d)) : [...records, record],
  };
}
