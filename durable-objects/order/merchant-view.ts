/** The order as its merchant sees it, for the console and the admin API (not UCP: merchant-side facts included). */
import { refundedSoFar } from "../../src/order/adjustments";
import { type OrderStatus, orderStatus } from "../../src/order/index-entry";
import {
  type CaptureRecord,
  type DisputeRecord,
  type OrderState,
  orderPayload,
  type PaymentDisplay,
  type RefundRecord,
} from "../../src/order/order-state";
import type { webhookLog } from "./webhooks";

/** The order as its merchant sees it: the UCP order plus who placed it, for whom, and its webhook log. */
export interface MerchantOrderView {
  readonly order: ReturnType<typeof orderPayload>;
  readonly status: OrderStatus;
  readonly created_at: number;
  readonly buyer_email: string | null;
  readonly platform: string;
  readonly webhooks: ReturnType<typeof webhookLog>;
  /** The processor's charge (Stripe: the PaymentIntent id); null when none was recorded (older orders). */
  readonly charge_id: string | null;
  /** Refunds the payment processor reported (its dashboard's and the store's own), by its id. */
  readonly processor_refunds: readonly RefundRecord[];
  /** Disputes the payment processor reported. */
  readonly disputes: readonly DisputeRecord[];
  /** The charged instrument as the checkout showed it (brand, last 4); null on older orders. */
  readonly payment_display: PaymentDisplay | null;
  /** Capture at shipment: null when the charge was captured at completion. */
  readonly capture: CaptureRecord | null;
  /** Given back so far (the order's own refund/cancellation adjustments that did not fail), minor units. */
  readonly refunded: number;
  /** Units refunded by line that stayed on the order, and units restocked, per line id (src/order/line-refunds.ts). */
  readonly returned_units: Readonly<Record<string, number>>;
  readonly restocked_units: Readonly<Record<string, number>>;
  /** The shipping option the buyer chose; null on older orders and orders without shipping. */
  readonly shipping_option: { readonly id: string; readonly title: string } | null;
  /** Whether a refund can restock: the order kept its stock reservation (older orders did not). */
  readonly restockable: boolean;
}

export function merchantView(
  order: OrderState,
  envelope: unknown,
  webhooks: MerchantOrderView["webhooks"],
): MerchantOrderView {
  return {
    order: orderPayload(order, envelope),
    status: orderStatus(order),
    created_at: order.created_at,
    buyer_email: order.buyer_email ?? null,
    platform: order.owner,
    webhooks,
    charge_id: order.charge_id ?? null,
    processor_refunds: order.processor_refunds ?? [],
    disputes: order.disputes ?? [],
    payment_display: order.payment_display ?? null,
    capture: order.capture ?? null,
    refunded: refundedSoFar(order),
    returned_units: order.returned_units ?? {},
    restocked_units: order.restocked_units ?? {},
    shipping_option: order.shipping_option ?? null,
    restockable: order.reservation_id !== undefined,
  };
}
