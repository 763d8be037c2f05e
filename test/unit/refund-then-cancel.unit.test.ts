/**
 * A refund by line that keeps its units on the order (money only, no restock), then a
 * cancellation of those same units: the cancellation must not pay them back a second time
 * (review finding: $200 order, A 2 × $50 refunded, B shipped, cancel → another $100). Pure.
 */
import { describe, expect, it } from "vitest";
import type { CheckoutState } from "../../src/checkout/checkout-state";
import { type AdjustmentPlan, applyAdjustment } from "../../src/order/adjustments";
import { applyEvent } from "../../src/order/fulfillment-events";
import { type OrderState, orderFromCheckout } from "../../src/order/order-state";

const NOW = Date.parse("2026-11-27T09:00:00Z");

function twoLines(): OrderState {
  const checkout = {
    id: "chk_1",
    status: "complete_in_progress",
    currency: "USD",
    line_items: [
      {
        id: "li_a",
        item: { id: "item_a", title: "A", price: 5000 },
        quantity: 2,
        totals: [{ type: "total", amount: 10000 }],
      },
      {
        id: "li_b",
        item: { id: "item_b", title: "B", price: 10000 },
        quantity: 1,
        totals: [{ type: "total", amount: 10000 }],
      },
    ],
    totals: [{ type: "total", amount: 20000 }],
    messages: [],
    next_line: 3,
    created_at: NOW,
    expires_at: NOW + 3600_000,
  } as unknown as CheckoutState;
  return orderFromCheckout(
    checkout,
    { orderId: "ord_1", permalink: "https://shop.example.com/o/x", chargeId: "pi_1" },
    "p",
    NOW,
  );
}

function applied(order: OrderState, input: Parameters<typeof applyAdjustment>[1]): AdjustmentPlan {
  const plan = applyAdjustment(order, input, NOW);
  if (!plan.ok) throw new Error(JSON.stringify(plan.error));
  return plan.value;
}

const refunds = (plan: AdjustmentPlan) =>
  plan.effects.flatMap((e) => (e.kind === "refund" ? [e.amount] : [])).reduce((a, b) => a + b, 0);

function shipB(order: OrderState): OrderState {
  const shipped = applyEvent(order, { type: "shipped", line_items: [{ id: "li_b", quantity: 1 }] } as never, NOW);
  if (!shipped.ok) throw new Error(JSON.stringify(shipped.error));
  return shipped.value;
}

describe("a cancellation after a refund by line that kept its units", () => {
  it("pays nothing again for units already refunded", () => {
    const refunded = applied(twoLines(), { type: "refund", line_items: [{ id: "li_a", quantity: -2 }] });
    expect(refunds(refunded)).toBe(10000);
    const canceled = applied(shipB(refunded.order), { type: "cancellation" });
    expect(refunds(canceled)).toBe(0);
    // Nothing more than was paid ever goes back: $100 of $200, B kept.
    expect(canceled.order.returned_units?.li_a ?? 0).toBe(0);
  });

  it("pays the units not yet refunded, once", () => {
    const refunded = applied(twoLines(), { type: "refund", line_items: [{ id: "li_a", quantity: -1 }] });
    expect(refunds(refunded)).toBe(5000);
    const canceled = applied(shipB(refunded.order), { type: "cancellation" });
    expect(refunds(canceled)).toBe(5000);
    expect(canceled.order.line_items.find((l) => l.id === "li_a")?.quantity.total).toBe(0);
  });

  it("a shipped unit refunded (a return) does not reduce what canceling the unshipped ones pays", () => {
    const shippedA = applyEvent(
      twoLines(),
      { type: "shipped", line_items: [{ id: "li_a", quantity: 1 }] } as never,
      NOW,
    );
    if (!shippedA.ok) throw new Error("refused");
    const returned = applied(shippedA.value, { type: "refund", line_items: [{ id: "li_a", quantity: -1 }] });
    const canceled = applied(returned.order, { type: "cancellation", line_items: [{ id: "li_a", quantity: -1 }] });
    expect(refunds(canceled)).toBe(5000);
  });
});
