/**
 * One order as the order index holds it (the console's list, search and dashboard): a flat
 * row derived from the order's state, plus its lines for the top-products figures. Pure:
 * the order object builds it inside the transaction that changes the order.
 */

import { refundedSoFar } from "./adjustments";
import type { OrderState } from "./order-state";

export const ORDER_STATUSES = ["processing", "partially_shipped", "shipped", "delivered", "canceled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface IndexLine {
  /** The variant id (the catalog's item id). */
  readonly item_id: string;
  readonly title: string;
  readonly quantity: number;
  readonly amount: number;
}

export interface OrderIndexEntry {
  readonly id: string;
  /** The short order number ("#1001"); absent on orders placed before numbers (and in their older feeds). */
  readonly number?: number;
  readonly created_at: number;
  readonly status: OrderStatus;
  readonly total: number;
  /** Money back to the buyer so far (refunds, cancellations), positive minor units. */
  readonly refunded: number;
  readonly currency: string;
  readonly buyer_email: string | null;
  /** The placing platform's profile URL. */
  readonly platform: string;
  /** Webhook delivery attempts that failed (no answer or not 2xx). */
  readonly webhook_failures: number;
  readonly last_webhook_failure_at: number | null;
  readonly lines: readonly IndexLine[];
}

const totalOf = (totals: OrderState["totals"] | undefined) => totals?.find((t) => t.type === "total")?.amount ?? 0;

/** The status a merchant filters by, from the quantities and the last event. */
export function orderStatus(order: OrderState): OrderStatus {
  const lines = order.line_items;
  if (lines.length > 0 && lines.every((l) => l.quantity.total === 0)) return "canceled";
  const open = lines.filter((l) => l.quantity.total > 0);
  const shipped = open.filter((l) => l.quantity.fulfilled >= l.quantity.total).length;
  if (shipped === 0) return open.some((l) => l.quantity.fulfilled > 0) ? "partially_shipped" : "processing";
  if (shipped < open.length) return "partially_shipped";
  return order.events.at(-1)?.type === "delivered" ? "delivered" : "shipped";
}

export function indexEntry(
  order: OrderState,
  webhooks: { failures: number; lastFailureAt: number | null },
): OrderIndexEntry {
  return {
    id: order.id,
    ...(order.number !== undefined ? { number: order.number } : {}),
    created_at: order.created_at,
    status: orderStatus(order),
    total: totalOf(order.totals),
    // The order's own sum: a failed refund and a dispute the merchant won returned nothing.
    refunded: refundedSoFar(order),
    currency: order.currency,
    buyer_email: order.buyer_email?.toLowerCase() ?? null,
    platform: order.owner,
    webhook_failures: webhooks.failures,
    last_webhook_failure_at: webhooks.lastFailureAt,
    lines: order.line_items.map((l) => ({
      item_id: l.item.id,
      title: l.item.title,
      quantity: l.quantity.original,
      amount: totalOf(l.totals) || l.item.price * l.quantity.original,
    })),
  };
}

/** The one index object per store (env.ORDER_INDEX.getByName). */
export const ORDER_INDEX_NAME = "orders";
/**
 * The store's order id log: another object of the same class, holding only the ids, so the
 * index object can be wiped (a schema change, a bug) and rebuilt from it.
 */
export const ORDER_LOG_NAME = "order-log";
