/**
 * The order as stored in its Durable Object (built from the completed checkout) and its
 * response shape (shopping/order.json). Pure.
 */
import type { Total } from "../../schemas/ucp/cart";
import type { CheckoutState } from "../checkout/checkout-state";
import { orderLabel } from "./order-number";

export interface OrderLine {
  readonly id: string;
  readonly item: { id: string; title: string; price: number; image_url?: string };
  readonly quantity: { original: number; total: number; fulfilled: number };
  readonly totals: readonly Total[];
}

/** `{id, quantity}`: a line and a count (events: ≥ 1; adjustments: signed). */
export interface LineCount {
  readonly id: string;
  readonly quantity: number;
}

/** types/fulfillment_event.json: append-only. */
export interface FulfillmentEvent {
  readonly id: string;
  readonly occurred_at: string;
  readonly type: string;
  readonly line_items: readonly LineCount[];
  readonly tracking_number?: string;
  readonly tracking_url?: string;
  readonly carrier?: string;
  readonly description?: string;
}

export type AdjustmentStatus = "pending" | "completed" | "failed";

/** types/adjustment.json: totals are signed, negative = money back to the buyer. */
export interface Adjustment {
  readonly id: string;
  readonly type: string;
  readonly occurred_at: string;
  readonly status: AdjustmentStatus;
  readonly line_items?: readonly LineCount[];
  readonly totals?: readonly Total[];
  readonly description?: string;
}

/**
 * A refund the payment processor reported (its webhooks, processor-events.ts): merchant-side
 * only, never in the UCP payload. Keyed by the processor's id, so it is recorded once.
 */
export interface RefundRecord {
  readonly id: string;
  readonly amount: number;
  readonly currency: string;
  /** The processor's own status (Stripe: pending, succeeded, failed, canceled, requires_action). */
  readonly status: string;
  readonly reason?: string;
  /** The store's own refund (already its adjustment); false: made in the processor's dashboard. */
  readonly by_store: boolean;
  /** The adjustment a dashboard refund became, or the store's own this refund was made for. */
  readonly adjustment_id?: string;
  readonly recorded_at: string;
  readonly updated_at: string;
  /** The processor's time of the last event taken (ms): an older one changes nothing. */
  readonly event_at: number;
}

/** A dispute the payment processor reported (merchant-side; its adjustment is in the UCP order). */
export interface DisputeRecord {
  readonly id: string;
  readonly amount: number;
  readonly currency: string;
  /** Stripe's dispute status (needs_response, under_review, won, lost, warning_*). */
  readonly status: string;
  readonly reason: string;
  readonly adjustment_id: string;
  readonly evidence_due_by?: string;
  readonly opened_at: string;
  readonly updated_at: string;
  readonly event_at: number;
}

/**
 * What the buyer paid with, as the checkout showed it (its selected instrument's display):
 * the handler, the card's brand and last four digits. Display data only, never a credential;
 * anything that is not four digits is not kept as last_digits.
 */
export interface PaymentDisplay {
  readonly handler_id: string;
  readonly brand?: string;
  readonly last_digits?: string;
}

/**
 * A charge that was only authorized at completion (STRIPE_CAPTURE=manual when the order was
 * placed) and is taken at the first shipment. authorized: nothing taken yet; pending: the
 * capture is queued (retried by the alarm); captured; failed: given up after the retries;
 * released: the order was canceled whole before shipment and the authorization cancelled.
 */
export interface CaptureRecord {
  readonly status: "authorized" | "pending" | "captured" | "failed" | "released";
  /** What the capture takes: the total less what was canceled before shipment. */
  readonly amount?: number;
  readonly captured_at?: string;
}

export interface OrderState {
  readonly id: string;
  readonly checkout_id: string;
  readonly permalink_url: string;
  readonly currency: string;
  readonly line_items: readonly OrderLine[];
  readonly totals: readonly Total[];
  readonly expectations: readonly unknown[];
  readonly events: readonly FulfillmentEvent[];
  readonly adjustments: readonly Adjustment[];
  /** The platform profile that placed it: only it may read the order. */
  readonly owner: string;
  readonly created_at: number;
  // Merchant-side only, never in the UCP payload: where the confirmation goes, and what a
  // cancellation must undo (the stock reservation, the charge). Absent on older orders.
  readonly buyer_email?: string;
  readonly reservation_id?: string;
  readonly charge_id?: string;
  /** The placing platform's order webhook URL (its profile's order config), if it gave one. */
  readonly webhook_url?: string;
  /** That profile's protocol version, which the webhooks speak (webhook-version.ts); absent: the model's. */
  readonly webhook_version?: string;
  /** Refunds the processor reported by webhook (absent on orders that never had one). */
  readonly processor_refunds?: readonly RefundRecord[];
  /** Disputes the processor reported by webhook (absent on orders that never had one). */
  readonly disputes?: readonly DisputeRecord[];
  /** The checkout's display of the instrument charged (absent on older orders). */
  readonly payment_display?: PaymentDisplay;
  /** Present only when the charge was an authorization to capture at shipment. */
  readonly capture?: CaptureRecord;
  /** The short order number people read ("#1001", order-number.ts); absent on older orders. */
  readonly number?: number;
  /** Units refunded by line that stayed on the order (shipped, or money only), per line id (line-refunds.ts). */
  readonly returned_units?: Readonly<Record<string, number>>;
  /** Units put back in stock by refunds with restock, per line id; absent until the first. */
  readonly restocked_units?: Readonly<Record<string, number>>;
  /** The shipping option the buyer chose, by its title (absent on older orders and without one). */
  readonly shipping_option?: { readonly id: string; readonly title: string };
}

export function orderFromCheckout(
  checkout: CheckoutState,
  ids: {
    orderId: string;
    permalink: string;
    reservationId?: string;
    chargeId?: string;
    webhookUrl?: string;
    webhookVersion?: string;
    /** The charge was an authorization, captured at the first shipment (STRIPE_CAPTURE=manual). */
    captureAtShipment?: boolean;
    /** The order's short number, given by the store's allocator. */
    number?: number;
  },
  owner: string,
  now: number,
): OrderState {
  const method = checkout.fulfillment?.methods[0];
  const destination = method?.destinations.find((d) => d.id === method.selected_destination_id);
  const option = method?.groups[0]?.options.find((o) => o.id === method.groups[0]?.selected_option_id);
  const { id: _destinationId, ...address } = destination ?? { id: "" };
  return {
    id: ids.orderId,
    checkout_id: checkout.id,
    permalink_url: ids.permalink,
    currency: checkout.currency,
    line_items: checkout.line_items.map((line) => ({
      id: line.id,
      item: { ...line.item },
      quantity: { original: line.quantity, total: line.quantity, fulfilled: 0 },
      totals: line.totals,
    })),
    totals: checkout.totals,
    expectations: destination
      ? [
          {
            id: "exp_1",
            line_items: checkout.line_items.map((l) => ({ id: l.id, quantity: l.quantity })),
            method_type: "shipping",
            destination: address,
            ...(option?.description ? { description: option.description } : {}),
            fulfillable_on: "now",
          },
        ]
      : [],
    events: [],
    adjustments: [],
    owner,
    created_at: now,
    ...(checkout.buyer?.email ? { buyer_email: checkout.buyer.email } : {}),
    ...(ids.reservationId ? { reservation_id: ids.reservationId } : {}),
    ...(ids.chargeId ? { charge_id: ids.chargeId } : {}),
    ...(ids.webhookUrl ? { webhook_url: ids.webhookUrl } : {}),
    ...(ids.webhookUrl && ids.webhookVersion ? { webhook_version: ids.webhookVersion } : {}),
    ...paymentDisplayOf(checkout),
    ...(ids.chargeId && ids.captureAtShipment ? { capture: { status: "authorized" as const } } : {}),
    ...(ids.number !== undefined ? { number: ids.number } : {}),
    ...(option?.title ? { shipping_option: { id: option.id, title: option.title.slice(0, 200) } } : {}),
  };
}

const LAST_DIGITS = /^[0-9]{4}$/;

/**
 * The charged instrument's display (the one completion charged: the selected one, else the
 * first, as planCompletion picks it). Only short strings are kept, and last_digits only as
 * exactly four digits, so no card number can ride in through a platform's display object.
 */
export function paymentDisplayOf(checkout: CheckoutState): { payment_display?: PaymentDisplay } {
  const instruments = checkout.payment?.instruments ?? [];
  const charged = instruments.find((i) => i.selected === true) ?? instruments[0];
  if (!charged) return {};
  const display = charged.display ?? {};
  const brand = typeof display.brand === "string" ? display.brand.trim().slice(0, 40) : "";
  const last =
    typeof display.last_digits === "string" && LAST_DIGITS.test(display.last_digits) ? display.last_digits : "";
  return {
    payment_display: {
      handler_id: charged.handler_id.slice(0, 100),
      ...(brand ? { brand } : {}),
      ...(last ? { last_digits: last } : {}),
    },
  };
}

/** order_line_item.json status, derived from the quantities. */
export function lineStatus(q: OrderLine["quantity"]): "removed" | "fulfilled" | "partial" | "processing" {
  if (q.total === 0) return "removed";
  if (q.fulfilled >= q.total) return "fulfilled";
  return q.fulfilled > 0 ? "partial" : "processing";
}

/** The UCP order (shopping/order.json): fields are picked, so merchant-only state never leaks. */
export function orderPayload(order: OrderState, envelope: unknown) {
  return {
    ucp: envelope,
    id: order.id,
    // The human-readable label (shopping/order.json, both versions): "#1001".
    ...(order.number !== undefined ? { label: orderLabel(order.number) } : {}),
    checkout_id: order.checkout_id,
    permalink_url: order.permalink_url,
    line_items: order.line_items.map((l) => ({ ...l, status: lineStatus(l.quantity) })),
    fulfillment: { expectations: order.expectations, events: order.events },
    adjustments: order.adjustments,
    currency: order.currency,
    totals: order.totals,
  };
}
