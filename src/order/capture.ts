/**
 * Capture at shipment (STRIPE_CAPTURE=manual, docs/payments.md): an order whose charge was
 * only authorized takes the money when the merchant first ships. Pure: which shipment
 * queues the capture, and for how much. The order object queues it in the event's own
 * transaction and runs it after (durable-objects/order/captures.ts), retried by the alarm.
 */
import { refundedSoFar } from "./adjustments";
import type { OrderState } from "./order-state";

export interface CaptureJob {
  readonly chargeId: string;
  readonly amount: number;
}

const totalOf = (order: OrderState) => order.totals.find((t) => t.type === "total")?.amount ?? 0;

/**
 * The order after a fulfillment event of `type`, and the capture it queues: only the first
 * `shipped` of an order still `authorized` queues one (later shipments find it pending or
 * captured), for the total less what was canceled or refunded before shipment.
 */
export function captureOnEvent(order: OrderState, type: string): { order: OrderState; capture?: CaptureJob } {
  if (type !== "shipped" || order.capture?.status !== "authorized" || !order.charge_id) return { order };
  const amount = totalOf(order) - refundedSoFar(order);
  if (amount <= 0) return { order };
  return {
    order: { ...order, capture: { status: "pending", amount } },
    capture: { chargeId: order.charge_id, amount },
  };
}

/** The order once its capture finished: taken, or given up after the retries. */
export function settleCapture(order: OrderState, outcome: "captured" | "failed", now: number): OrderState {
  const amount = order.capture?.amount;
  return {
    ...order,
    capture: {
      status: outcome,
      ...(amount !== undefined ? { amount } : {}),
      ...(outcome === "captured" ? { captured_at: new Date(now).toISOString() } : {}),
    },
  };
}
