/**
 * The rules that make Stripe's refunds and disputes land on an order once and in the right
 * state (src/order/processor-events.ts), and the reading of Stripe's events
 * (src/payment/stripe-events.ts), over Stripe's own example objects where they fit.
 */
import { describe, expect, it } from "vitest";
import type { OrderState } from "../../src/order/order-state";
import {
  applyProcessorEvent,
  type ProcessorDispute,
  type ProcessorEventInput,
  type ProcessorRefund,
} from "../../src/order/processor-events";
import { readStripeEvent } from "../../src/payment/stripe-events";

const NOW = Date.UTC(2026, 10, 27);
const order: OrderState = {
  id: "ord_1",
  checkout_id: "chk_1",
  permalink_url: "https://shop.example.com/orders/t",
  currency: "USD",
  line_items: [],
  totals: [{ type: "total", amount: 5000 }],
  expectations: [],
  events: [],
  adjustments: [],
  owner: "https://platform.example/profile.json",
  created_at: NOW - 1000,
  charge_id: "pi_1",
};

const refund = (fields: Partial<ProcessorRefund> = {}): ProcessorRefund => ({
  id: "re_1",
  amount: 700,
  currency: "USD",
  status: "succeeded",
  byStore: false,
  ...fields,
});
const dispute = (fields: Partial<ProcessorDispute> = {}): ProcessorDispute => ({
  id: "dp_1",
  amount: 5000,
  currency: "USD",
  status: "needs_response",
  reason: "fraudulent",
  ...fields,
});
const event = (changes: ProcessorEventInput["changes"], occurredAt = NOW, chargeId = "pi_1"): ProcessorEventInput => ({
  eventId: `evt_${occurredAt}`,
  eventType: "test",
  occurredAt,
  chargeId,
  changes,
});

function apply(base: OrderState, input: ProcessorEventInput) {
  const next = applyProcessorEvent(base, input, NOW);
  if (!next.ok) throw new Error(JSON.stringify(next.error));
  return next.value;
}

describe("processor events on an order", () => {
  it("a dashboard refund is one adjustment; the same facts again change nothing", () => {
    const first = apply(order, event([{ kind: "refund", refund: refund() }]));
    expect(first.changed).toBe(true);
    expect(first.order.adjustments).toMatchObject([
      { id: "adj_1", type: "refund", status: "completed", totals: [{ type: "total", amount: -700 }] },
    ]);
    const again = apply(first.order, event([{ kind: "refund", refund: refund() }], NOW + 1000));
    expect(again.changed).toBe(false);
    expect(again.order).toBe(first.order);
  });

  it("a pending refund that succeeds later updates its adjustment; an older pending does not undo it", () => {
    const pending = apply(order, event([{ kind: "refund", refund: refund({ status: "pending" }) }], NOW));
    expect(pending.order.adjustments[0]?.status).toBe("pending");
    const done = apply(pending.order, event([{ kind: "refund", refund: refund() }], NOW + 1000));
    expect(done.order.adjustments).toHaveLength(1);
    expect(done.order.adjustments[0]?.status).toBe("completed");
    // A late "pending" with the same timestamp, or an older one: the outcome stands.
    expect(
      apply(done.order, event([{ kind: "refund", refund: refund({ status: "pending" }) }], NOW + 1000)).changed,
    ).toBe(false);
    expect(apply(done.order, event([{ kind: "refund", refund: refund({ status: "failed" }) }], NOW)).changed).toBe(
      false,
    );
    // A succeeded refund that fails later (a card closed meanwhile) is no money back after all.
    const failed = apply(done.order, event([{ kind: "refund", refund: refund({ status: "failed" }) }], NOW + 2000));
    expect(failed.order.adjustments[0]?.status).toBe("failed");
  });

  it("the store's own refund is noted, never a second adjustment", () => {
    const noted = apply(order, event([{ kind: "refund", refund: refund({ byStore: true }) }]));
    expect(noted.changed).toBe(true);
    expect(noted.order.adjustments).toEqual([]);
    expect(noted.order.processor_refunds).toMatchObject([{ id: "re_1", by_store: true }]);
  });

  it("the store's refund that Stripe fails later fails the store's adjustment", () => {
    const base: OrderState = {
      ...order,
      adjustments: [{ id: "adj_1", type: "refund", occurred_at: "x", status: "completed", totals: [] }],
    };
    const ours = { byStore: true, storeAdjustmentId: "adj_1" };
    const seen = apply(base, event([{ kind: "refund", refund: refund(ours) }]));
    expect(seen.order.adjustments[0]?.status).toBe("completed");
    expect(seen.order.processor_refunds).toMatchObject([{ adjustment_id: "adj_1", by_store: true }]);
    const failed = apply(
      seen.order,
      event([{ kind: "refund", refund: refund({ ...ours, status: "failed" }) }], NOW + 1),
    );
    expect(failed.order.adjustments).toHaveLength(1);
    expect(failed.order.adjustments[0]?.status).toBe("failed");
  });

  it("a dispute is pending while open, completed when lost, failed when won", () => {
    const opened = apply(order, event([{ kind: "dispute", dispute: dispute() }]));
    expect(opened.order.adjustments).toMatchObject([
      { id: "adj_1", type: "dispute", status: "pending", totals: [{ type: "total", amount: -5000 }] },
    ]);
    const lost = apply(opened.order, event([{ kind: "dispute", dispute: dispute({ status: "lost" }) }], NOW + 1));
    expect(lost.order.adjustments.map((a) => a.status)).toEqual(["completed"]);
    const won = apply(opened.order, event([{ kind: "dispute", dispute: dispute({ status: "won" }) }], NOW + 1));
    expect(won.order.adjustments.map((a) => a.status)).toEqual(["failed"]);
    expect(won.order.disputes).toMatchObject([{ id: "dp_1", status: "won", adjustment_id: "adj_1" }]);
  });

  it("an event about another charge is refused", () => {
    const other = applyProcessorEvent(order, event([{ kind: "refund", refund: refund() }], NOW, "pi_2"), NOW);
    expect(other.ok).toBe(false);
  });
});

describe("reading Stripe's events", () => {
  it("a dashboard refund names its PaymentIntent; the store's names its order", () => {
    const object = { id: "re_1", object: "refund", amount: 100, currency: "usd", status: "succeeded", metadata: {} };
    const dashboard = readStripeEvent({
      id: "evt_1",
      type: "refund.created",
      created: 1,
      data: { object: { ...object, payment_intent: "pi_1" } },
    });
    expect(dashboard).toMatchObject({
      id: "evt_1",
      created: 1000,
      plan: {
        kind: "order",
        target: { paymentIntentId: "pi_1" },
        changes: [{ kind: "refund", refund: { id: "re_1", currency: "USD", byStore: false } }],
      },
    });
    const ours = readStripeEvent({
      id: "evt_2",
      type: "refund.updated",
      created: 1,
      data: { object: { ...object, metadata: { ucp_order_id: "ord_1" }, payment_intent: { id: "pi_1" } } },
    });
    expect(ours?.plan).toMatchObject({ target: { orderId: "ord_1", paymentIntentId: "pi_1" } });
    const keyed = readStripeEvent({
      id: "evt_3",
      type: "refund.created",
      created: 1,
      data: { object: { ...object, metadata: { ucp_refund: "adj_3:refund" }, payment_intent: "pi_1" } },
    });
    expect(keyed?.plan).toMatchObject({
      target: { paymentIntentId: "pi_1" },
      changes: [{ refund: { byStore: true, storeAdjustmentId: "adj_3" } }],
    });
    // Today's key is scoped by the order (one store, many orders' adj_1); the bare form above is older refunds'.
    const scoped = readStripeEvent({
      id: "evt_4",
      type: "refund.created",
      created: 1,
      data: { object: { ...object, metadata: { ucp_refund: "ord_Ab-1:adj_12:refund" }, payment_intent: "pi_1" } },
    });
    expect(scoped?.plan).toMatchObject({ changes: [{ refund: { byStore: true, storeAdjustmentId: "adj_12" } }] });
  });

  it("other types, and objects that are not what the type says, are ignored with a reason", () => {
    const plan = (type: string, object: Record<string, unknown>) =>
      readStripeEvent({ id: "evt_1", type, created: 1, data: { object } })?.plan;
    expect(plan("customer.created", { id: "cus_1" })).toEqual({
      kind: "ignored",
      reason: "not an event the store handles",
    });
    expect(plan("charge.dispute.created", { id: "dp_1" })).toMatchObject({ kind: "ignored" });
    // Current API versions: the charge without its refunds, which the webhook then lists.
    expect(plan("charge.refunded", { id: "ch_1", metadata: {}, payment_intent: "pi_1" })).toEqual({
      kind: "order",
      target: { paymentIntentId: "pi_1" },
      changes: [],
      refundsOfCharge: "ch_1",
    });
    expect(readStripeEvent({ nope: true })).toBeUndefined();
  });
});
