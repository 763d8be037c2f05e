/**
 * Capture at shipment (issue 24 item 1, STRIPE_CAPTURE=manual) without Stripe: which shipment
 * queues the capture and for how much, what a cancellation before shipment does to the
 * authorization, the capture job's exactly-once life (failure retried, success final, a
 * second run or queue does nothing), and the instrument display the order keeps (never more
 * than four digits). The Stripe side: test/payment/stripe/stripe-capture.stripe-test.ts.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CAPTURES_SCHEMA, queueCapture, runDueCapture } from "../../durable-objects/order/captures";
import type { OrderObject } from "../../durable-objects/order-object";
import type { CheckoutState } from "../../src/checkout/checkout-state";
import { applyAdjustment } from "../../src/order/adjustments";
import { captureOnEvent, settleCapture } from "../../src/order/capture";
import { applyEvent } from "../../src/order/fulfillment-events";
import { type OrderState, orderFromCheckout, paymentDisplayOf } from "../../src/order/order-state";

const NOW = Date.parse("2026-11-27T09:00:00Z");

function checkout(display?: Record<string, unknown>): CheckoutState {
  return {
    id: "chk_1",
    status: "complete_in_progress",
    currency: "USD",
    line_items: [
      {
        id: "li_1",
        item: { id: "item_123", title: "Tee", price: 2500 },
        quantity: 2,
        totals: [{ type: "total", amount: 5000 }],
      },
    ],
    totals: [{ type: "total", amount: 5000 }],
    messages: [],
    payment: {
      instruments: [
        { id: "i_other", handler_id: "google_pay", type: "card", display: { brand: "amex", last_digits: "0005" } },
        { id: "i_1", handler_id: "google_pay", type: "card", selected: true, ...(display ? { display } : {}) },
      ],
    },
    next_line: 2,
    created_at: NOW,
    expires_at: NOW + 3600_000,
  } as unknown as CheckoutState;
}

const ids = { orderId: "ord_1", permalink: "https://shop.example.com/o/x", chargeId: "pi_1" };
const manual = (): OrderState =>
  orderFromCheckout(checkout({ brand: "visa", last_digits: "4242" }), { ...ids, captureAtShipment: true }, "p", NOW);
const ship = (order: OrderState, quantity?: number) => {
  const next = applyEvent(
    order,
    { type: "shipped", ...(quantity ? { line_items: [{ id: "li_1", quantity }] } : {}) } as never,
    NOW,
  );
  if (!next.ok) throw new Error(JSON.stringify(next.error));
  return captureOnEvent(next.value, "shipped");
};

describe("the order keeps the charged instrument's display", () => {
  it("the selected instrument's brand and last four digits, nothing else", () => {
    const order = orderFromCheckout(checkout({ brand: "visa", last_digits: "4242", token: "secret" }), ids, "p", NOW);
    expect(order.payment_display).toEqual({ handler_id: "google_pay", brand: "visa", last_digits: "4242" });
    expect(JSON.stringify(order)).not.toContain("secret");
    expect(order.capture).toBeUndefined();
  });

  it("never keeps more than four digits (a platform sending the card number in display)", () => {
    const shown = paymentDisplayOf(checkout({ brand: "visa", last_digits: "4242424242424242" }));
    expect(shown.payment_display).toEqual({ handler_id: "google_pay", brand: "visa" });
    expect(JSON.stringify(shown)).not.toContain("424242");
  });

  it("an order without instruments keeps none (older orders read as before)", () => {
    const bare = { ...checkout(), payment: undefined } as unknown as CheckoutState;
    expect(orderFromCheckout(bare, ids, "p", NOW).payment_display).toBeUndefined();
  });
});

describe("capture at shipment", () => {
  it("the first shipment queues one capture of the total; a second shipment queues none", () => {
    const order = manual();
    expect(order.capture).toEqual({ status: "authorized" });
    const first = ship(order, 1);
    expect(first.capture).toEqual({ chargeId: "pi_1", amount: 5000 });
    expect(first.order.capture).toEqual({ status: "pending", amount: 5000 });
    const second = ship(first.order, 1);
    expect(second.capture).toBeUndefined();
    const taken = settleCapture(second.order, "captured", NOW);
    expect(taken.capture).toEqual({ status: "captured", amount: 5000, captured_at: "2026-11-27T09:00:00.000Z" });
    expect(captureOnEvent(taken, "shipped").capture).toBeUndefined();
  });

  it("an order captured at completion never queues a capture", () => {
    const order = orderFromCheckout(checkout(), ids, "p", NOW);
    expect(ship(order).capture).toBeUndefined();
  });

  it("a part canceled before shipment is not captured (no refund at the processor)", () => {
    const canceled = applyAdjustment(
      manual(),
      { type: "cancellation", line_items: [{ id: "li_1", quantity: -1 }] },
      NOW,
    );
    if (!canceled.ok) throw new Error("refused");
    expect(canceled.value.effects).toEqual([]);
    expect(canceled.value.order.adjustments.at(-1)?.status).toBe("completed");
    expect(canceled.value.order.capture).toEqual({ status: "authorized" });
    expect(ship(canceled.value.order).capture).toEqual({ chargeId: "pi_1", amount: 2500 });
  });

  it("canceling the whole order before shipment releases the whole authorization", () => {
    const first = applyAdjustment(manual(), { type: "cancellation", line_items: [{ id: "li_1", quantity: -1 }] }, NOW);
    if (!first.ok) throw new Error("refused");
    const rest = applyAdjustment(first.value.order, { type: "cancellation" }, NOW);
    if (!rest.ok) throw new Error("refused");
    // The full authorization (the processor cancels it), not the 2500 left.
    expect(rest.value.effects).toContainEqual({ kind: "refund", chargeId: "pi_1", amount: 5000 });
    expect(rest.value.order.capture).toEqual({ status: "released" });
  });

  it("after shipment a refund is a refund of the captured money", () => {
    const shipped = ship(manual()).order;
    const refund = applyAdjustment(shipped, { type: "refund", amount: 1000 }, NOW);
    if (!refund.ok) throw new Error("refused");
    expect(refund.value.effects).toEqual([{ kind: "refund", chargeId: "pi_1", amount: 1000 }]);
  });
});

describe("the capture job", () => {
  it("runs once per order: a failure is retried later under the same key, success is final", async () => {
    const stub = env.ORDER.getByName(`t-${crypto.randomUUID()}`) as DurableObjectStub<OrderObject>;
    await runInDurableObject(stub, async (_o: OrderObject, state) => {
      const sql = state.storage.sql;
      sql.exec(CAPTURES_SCHEMA);
      queueCapture(sql, "ord_1", "pi_1", 5000, NOW);
      queueCapture(sql, "ord_1", "pi_1", 5000, NOW); // a replayed shipment
      const calls: string[] = [];
      let answer = false;
      const port = async (chargeId: string, amount: number, key: string) => {
        calls.push(`${chargeId}/${amount}/${key}`);
        return { ok: answer };
      };
      expect(await runDueCapture(sql, port, NOW)).toBeUndefined();
      expect(calls).toEqual(["pi_1/5000/ord_1:capture"]);
      // Not due again until its backoff (an overlapping alarm does nothing).
      expect(await runDueCapture(sql, port, NOW + 1000)).toBeUndefined();
      expect(calls).toHaveLength(1);
      answer = true;
      expect(await runDueCapture(sql, port, NOW + 60_000)).toBe("captured");
      expect(calls).toEqual(["pi_1/5000/ord_1:capture", "pi_1/5000/ord_1:capture"]);
      expect(await runDueCapture(sql, port, NOW + 3600_000)).toBeUndefined();
      queueCapture(sql, "ord_1", "pi_1", 5000, NOW + 3600_000);
      expect(await runDueCapture(sql, port, NOW + 7200_000)).toBeUndefined();
      expect(calls).toHaveLength(2);
    });
  });
});
