/**
 * Stripe's webhooks end to end against the stand-in (issue 24 "Done when": a dashboard refund
 * arrives by webhook and shows in the console once; a tampered or replayed webhook is
 * refused). An agent pays with Google Pay through the Stripe processor; the stand-in makes a
 * refund "in the dashboard" and opens a dispute, and signs each event as Stripe does; the
 * store's route verifies it with the SDK, finds the order through the PaymentIntent (the
 * real SDK asks the stand-in) and records each once.
 */
import { exports } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { type Json, tool } from "../../helpers/checkout";
import { googlePay } from "../../helpers/google-pay";
import { FULL_PROFILE } from "../../helpers/mcp";
import { ADMIN_TOKEN, admin } from "../../order/order-helpers";

const STAND_IN = "https://stripe.test/__stand-in";
const WEBHOOK = "https://shop.example.com/payments/stripe/webhook";
// This project's bindings (./vitest.config.ts STRIPE_TEST_BINDINGS; importing it here would pull Node in).
const SECRET = "whsec_workerdStandIn";
const SECRET_KEY = "sk_test_workerdStandIn";

beforeEach(async () => {
  await fetch(`${STAND_IN}/reset`, { method: "POST" });
});

async function mcp(name: string, args: Record<string, unknown>, key?: string): Promise<Json> {
  const reply = await tool(name, args, key, FULL_PROFILE);
  expect(reply.body.error, JSON.stringify(reply.body.error)).toBeUndefined();
  return reply.body.result.structuredContent;
}

/** An order paid with Google Pay (a Stripe card token) through the Stripe processor. */
async function paidOrder(): Promise<{ orderId: string; intentId: string }> {
  const checkout = await mcp("create_checkout", {
    checkout: {
      line_items: [{ item: { id: "item_123" }, quantity: 1 }],
      buyer: { email: "jane@example.com", first_name: "Jane" },
      fulfillment: {
        methods: [
          {
            type: "shipping",
            destinations: [
              {
                street_address: "1 Main St",
                address_locality: "Springfield",
                address_region: "IL",
                postal_code: "62701",
                address_country: "US",
              },
            ],
          },
        ],
      },
    },
  });
  expect(checkout.status, JSON.stringify(checkout.messages)).toBe("ready_for_complete");
  const done = await mcp(
    "complete_checkout",
    { id: checkout.id, checkout: googlePay("tok_visa") },
    crypto.randomUUID(),
  );
  expect(done.status, JSON.stringify(done.messages)).toBe("completed");
  const intents = await (
    await fetch(`${STAND_IN}/payment_intents?metadata[ucp_checkout_id]=${encodeURIComponent(checkout.id)}`)
  ).json();
  const intentId = (intents as Json).data[0].id as string;
  return { orderId: done.order.id, intentId };
}

/** The stand-in builds (and for charge.refunded / charge.dispute.created first does) the event and signs it. */
async function standInEvent(body: Record<string, unknown>): Promise<{ payload: string; signature: string }> {
  const res = await fetch(`${STAND_IN}/deliver`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ secret: SECRET, ...body }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

async function post(payload: string, signature: string): Promise<number> {
  const res = await exports.default.fetch(WEBHOOK, {
    method: "POST",
    headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signature },
    body: payload,
  });
  return res.status;
}

async function merchantOrder(orderId: string): Promise<Json> {
  const res = await exports.default.fetch(`https://shop.example.com/admin/orders/${orderId}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(res.status).toBe(200);
  return res.json();
}

describe("Stripe's webhooks against the stand-in", () => {
  it("a dashboard refund (charge.refunded, then refund.created) is one adjustment; redelivery changes nothing", async () => {
    const { orderId, intentId } = await paidOrder();
    const refunded = await standInEvent({ type: "charge.refunded", id: intentId, amount: 400 });
    expect(await post(refunded.payload, refunded.signature)).toBe(200);
    expect(await post(refunded.payload, refunded.signature)).toBe(200);
    let order = await merchantOrder(orderId);
    expect(order.charge_id).toBe(intentId);
    expect(order.order.adjustments).toEqual([
      expect.objectContaining({ type: "refund", status: "completed", totals: [{ type: "total", amount: -400 }] }),
    ]);
    const [record] = order.processor_refunds;
    expect(record).toMatchObject({ by_store: false, amount: 400, adjustment_id: "adj_1" });

    // The same refund's own event, as Stripe also sends it: known already.
    const created = await standInEvent({ type: "refund.created", id: record.id });
    expect(await post(created.payload, created.signature)).toBe(200);
    order = await merchantOrder(orderId);
    expect(order.order.adjustments).toHaveLength(1);
    expect(order.processor_refunds).toHaveLength(1);
  });

  it("the store's own refund (console) is one Stripe refund and is not doubled by its webhook", async () => {
    const { orderId, intentId } = await paidOrder();
    expect((await admin(orderId, "adjustments", { type: "refund", amount: 300 })).status).toBe(200);
    const refunds = (await (
      await fetch(`https://stripe.test/v1/refunds?payment_intent=${intentId}`, {
        headers: { authorization: `Bearer ${SECRET_KEY}` },
      })
    ).json()) as Json;
    expect(refunds.data).toHaveLength(1);
    expect(refunds.data[0].metadata).toMatchObject({ ucp_order_id: orderId, ucp_refund: `${orderId}:adj_1:refund` });
    const created = await standInEvent({ type: "refund.created", id: refunds.data[0].id });
    expect(await post(created.payload, created.signature)).toBe(200);
    const order = await merchantOrder(orderId);
    expect(order.order.adjustments).toHaveLength(1);
    expect(order.processor_refunds).toMatchObject([{ by_store: true, adjustment_id: "adj_1" }]);
  });

  it("a dispute is on the order once; a tampered or replayed delivery is refused", async () => {
    const { orderId, intentId } = await paidOrder();
    const opened = await standInEvent({ type: "charge.dispute.created", id: intentId, reason: "fraudulent" });
    expect(await post(opened.payload.replace('"fraudulent"', '"general"'), opened.signature)).toBe(400);
    expect((await merchantOrder(orderId)).disputes).toEqual([]);
    expect(await post(opened.payload, opened.signature)).toBe(200);
    expect(await post(opened.payload, opened.signature)).toBe(200);
    const order = await merchantOrder(orderId);
    expect(order.disputes).toEqual([expect.objectContaining({ status: "needs_response", reason: "fraudulent" })]);
    expect(order.order.adjustments).toEqual([expect.objectContaining({ type: "dispute", status: "pending" })]);

    // Signed ten minutes ago: outside Stripe's five-minute tolerance, a replay.
    const old = await standInEvent({
      type: "charge.dispute.closed",
      id: order.disputes[0].id,
      status: "won",
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    expect(await post(old.payload, old.signature)).toBe(400);
    expect((await merchantOrder(orderId)).disputes[0].status).toBe("needs_response");
  });
});
