/**
 * Stripe's webhooks at POST /payments/stripe/webhook (issue 24 items 4 and 6): events signed
 * exactly as Stripe signs them, verified by the SDK; a refund made in Stripe's dashboard and a
 * dispute become the order's adjustments once, whatever Stripe redelivers; the store's own
 * refund is recognised; forged, tampered, stale or unsigned deliveries change nothing; an
 * event for an object the store does not know is acknowledged and logged.
 *
 * The store's env here carries the Stripe settings (the suite's bindings do not, so no other
 * test changes); the PaymentIntent lookup Stripe would answer is a map (`lookup`).
 */
import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stripeWebhook, type WebhookPorts } from "../../src/payment-webhooks/stripe-webhook";
import { route } from "../../src/router";
import { type Json, pay, readyCheckout, tool } from "../helpers/checkout";
import { openPage, signIn } from "../helpers/console";
import { ADMIN_TOKEN, admin, orderObject, placeOrder } from "../order/order-helpers";
import { stripeEvent, stripeSignature } from "./stripe-signature";

const SECRET = "whsec_test_webhook_secret_for_the_suite";
const storeEnv = {
  ...env,
  STRIPE_SECRET_KEY: "sk_test_webhooks",
  STRIPE_WEBHOOK_SECRET: SECRET,
  STRIPE_API_BASE: "https://stripe.test",
} as Env;
const URL_ = "https://shop.example.com/payments/stripe/webhook";

/** PaymentIntent id → checkout id, as Stripe's metadata would say. */
const intents = new Map<string, string>();
const ports: WebhookPorts = { lookup: { checkoutOf: async (id) => intents.get(id) } };

afterEach(() => vi.restoreAllMocks());

async function deliver(
  event: Json,
  options: { secret?: string; at?: number; tamper?: (body: string) => string; header?: string | null } = {},
) {
  const body = JSON.stringify(event);
  const signature = await stripeSignature(body, options.secret ?? SECRET, options.at);
  const header = options.header === undefined ? signature : options.header;
  const request = new Request(URL_, {
    method: "POST",
    headers: { "content-type": "application/json", ...(header === null ? {} : { "stripe-signature": header }) },
    body: options.tamper ? options.tamper(body) : body,
  });
  const res = await stripeWebhook(request, storeEnv, {}, ports);
  return { status: res.status, body: (await res.json()) as Json };
}

/** The order as the merchant's admin JSON API shows it. */
async function merchantOrder(orderId: string): Promise<Json> {
  const res = await exports.default.fetch(`https://shop.example.com/admin/orders/${orderId}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(res.status).toBe(200);
  return res.json();
}

/** An order placed by an agent, its charge known to "Stripe" as its checkout's PaymentIntent. */
async function paidOrder() {
  const { orderId, checkout } = await placeOrder([{ id: "item_123", quantity: 1 }]);
  const order = await merchantOrder(orderId);
  // The test processor's charge id stands for the PaymentIntent id the Stripe processor stores.
  const chargeId = await chargeOf(orderId);
  intents.set(chargeId, checkout.id);
  return { orderId, checkoutId: checkout.id as string, chargeId, total: totalOf(order.order) };
}

async function chargeOf(orderId: string): Promise<string> {
  return runInDurableObject(await orderObject(orderId), async (_o, state) => {
    const row = state.storage.sql.exec<{ state: string }>("SELECT state FROM orders").one();
    return (JSON.parse(row.state) as { charge_id: string }).charge_id;
  });
}

const totalOf = (order: Json): number => order.totals.find((t: Json) => t.type === "total").amount;

function refundObject(fields: Json) {
  return {
    id: `re_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`,
    object: "refund",
    amount: 500,
    balance_transaction: null,
    charge: "ch_3Pgaf",
    created: Math.floor(Date.now() / 1000),
    currency: "usd",
    destination_details: { card: { type: "reversal" }, type: "card" },
    metadata: {},
    payment_intent: null,
    reason: "requested_by_customer",
    receipt_number: null,
    status: "succeeded",
    ...fields,
  };
}

function disputeObject(fields: Json) {
  return {
    id: `dp_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`,
    object: "dispute",
    amount: 1000,
    balance_transactions: [],
    charge: "ch_3Pgaf",
    created: Math.floor(Date.now() / 1000),
    currency: "usd",
    evidence_details: { due_by: 1_900_000_000, has_evidence: false, past_due: false, submission_count: 0 },
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: null,
    reason: "fraudulent",
    status: "needs_response",
    ...fields,
  };
}

/** The webhook's own log lines (JSON), from a console.log spy. */
const logged = (spy: { mock: { calls: unknown[][] } }): Json[] =>
  spy.mock.calls
    .map((c) => String(c[0]))
    .filter((line) => line.includes('"log":"stripe_webhook"'))
    .map((line) => JSON.parse(line));

describe("Stripe webhooks", () => {
  it("is no route while STRIPE_WEBHOOK_SECRET is unset (the suite's own bindings)", async () => {
    const res = await exports.default.fetch(URL_, { method: "POST", body: "{}" });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found" });
  });

  it("a refund made in Stripe's dashboard becomes one adjustment, however often Stripe delivers it", async () => {
    const { orderId, chargeId } = await paidOrder();
    const refund = refundObject({ payment_intent: chargeId, amount: 700 });
    const event = stripeEvent("refund.created", refund);
    expect(await deliver(event)).toEqual({ status: 200, body: { received: true } });

    let order = await merchantOrder(orderId);
    expect(order.order.adjustments).toEqual([
      {
        id: "adj_1",
        type: "refund",
        occurred_at: expect.any(String),
        status: "completed",
        totals: [{ type: "total", amount: -700 }],
        description: "Refunded in the payment processor's dashboard",
      },
    ]);
    expect(order.processor_refunds).toMatchObject([
      { id: refund.id, amount: 700, currency: "USD", status: "succeeded", by_store: false, adjustment_id: "adj_1" },
    ]);

    // Stripe's retry (the same event), a duplicate delivery under another event id, and the
    // charge.refunded summary of older API versions: still one adjustment.
    expect((await deliver(event)).status).toBe(200);
    expect((await deliver(stripeEvent("refund.created", refund))).status).toBe(200);
    const charge = {
      id: "ch_3Pgaf",
      object: "charge",
      metadata: {},
      payment_intent: chargeId,
      refunds: { data: [refund] },
    };
    expect((await deliver(stripeEvent("charge.refunded", charge))).status).toBe(200);
    order = await merchantOrder(orderId);
    expect(order.order.adjustments).toHaveLength(1);
    expect(order.processor_refunds).toHaveLength(1);
  });

  it("a dashboard refund's later outcome updates its adjustment; an older event changes nothing", async () => {
    const { orderId, chargeId } = await paidOrder();
    const pending = refundObject({ payment_intent: chargeId, status: "pending" });
    const created = stripeEvent("refund.created", pending);
    expect((await deliver(stripeEvent("refund.updated", { ...pending, status: "succeeded" }))).status).toBe(200);
    // refund.created arrives last, with an older timestamp: the succeeded refund stays succeeded.
    expect((await deliver({ ...created, created: created.created - 5 })).status).toBe(200);
    const order = await merchantOrder(orderId);
    expect(order.order.adjustments.map((a: Json) => a.status)).toEqual(["completed"]);
    expect(order.processor_refunds[0].status).toBe("succeeded");
  });

  it("the store's own refund, seen again by webhook, is recognised and not doubled; a later failure shows", async () => {
    const { orderId, chargeId } = await paidOrder();
    const made = await admin(orderId, "adjustments", { type: "refund", amount: 300 });
    expect(made.status).toBe(200);
    // As the Stripe processor tags it: the order, and the refund's key (the adjustment's effect).
    const ours = refundObject({
      payment_intent: chargeId,
      amount: 300,
      metadata: { ucp_order_id: orderId, ucp_refund: "adj_1:refund" },
    });
    expect((await deliver(stripeEvent("refund.created", ours))).status).toBe(200);
    let order = await merchantOrder(orderId);
    expect(order.order.adjustments).toHaveLength(1);
    expect(order.order.adjustments[0]).toMatchObject({
      type: "refund",
      status: "completed",
      totals: [{ type: "total", amount: -300 }],
    });
    expect(order.processor_refunds).toMatchObject([{ id: ours.id, by_store: true, adjustment_id: "adj_1" }]);

    // Stripe could not pay it after all (refund.failed): the store's adjustment says so.
    expect((await deliver(stripeEvent("refund.failed", { ...ours, status: "failed" }))).status).toBe(200);
    order = await merchantOrder(orderId);
    expect(order.order.adjustments).toHaveLength(1);
    expect(order.order.adjustments[0].status).toBe("failed");
  });

  it("a void's refund of an abandoned attempt is the store's own and not the order's charge", async () => {
    const { orderId, checkoutId } = await paidOrder();
    intents.set("pi_abandoned_attempt", checkoutId);
    const log = vi.spyOn(console, "log");
    const voided = refundObject({
      payment_intent: "pi_abandoned_attempt",
      metadata: { ucp_attempt: `${checkoutId}:a` },
    });
    expect((await deliver(stripeEvent("refund.created", voided))).status).toBe(200);
    expect((await merchantOrder(orderId)).order.adjustments).toEqual([]);
    expect(logged(log)).toEqual([
      expect.objectContaining({ outcome: "unknown_object", order_id: orderId, reason: "not this order's charge" }),
    ]);
  });

  it("refuses a tampered body, a stale timestamp, another secret and a missing header; nothing changes", async () => {
    const { orderId, chargeId } = await paidOrder();
    const log = vi.spyOn(console, "log");
    const event = stripeEvent("refund.created", refundObject({ payment_intent: chargeId }));
    const tampered = await deliver(event, { tamper: (b) => b.replace('"amount":500', '"amount":50000') });
    const stale = await deliver(event, { at: Math.floor(Date.now() / 1000) - 301 });
    const forged = await deliver(event, { secret: "whsec_someone_else" });
    const unsigned = await deliver(event, { header: null });
    const garbled = await deliver(event, { header: "v1=abc" });
    for (const refused of [tampered, stale, forged, unsigned, garbled]) {
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        error: "invalid_signature",
        message: "The Stripe-Signature header does not verify this event.",
      });
    }
    expect((await merchantOrder(orderId)).order.adjustments).toEqual([]);
    const lines = logged(log);
    expect(lines.map((l) => l.outcome)).toEqual(["refused", "refused", "refused", "refused", "refused"]);
    expect(lines[1].reason).toMatch(/tolerance/);
    // Refusals are logged without the body (no amounts, no ids from it).
    for (const call of log.mock.calls) expect(String(call[0])).not.toContain(event.id);
  });

  it("acknowledges an event for an object the store does not know, and logs it once", async () => {
    const log = vi.spyOn(console, "log");
    const orphan = stripeEvent("refund.created", refundObject({ payment_intent: "pi_not_ours" }));
    expect(await deliver(orphan)).toEqual({ status: 200, body: { received: true } });
    const bare = stripeEvent("charge.dispute.created", disputeObject({ payment_intent: null }));
    expect((await deliver(bare)).status).toBe(200);
    const forged = stripeEvent("refund.created", refundObject({ metadata: { ucp_order_id: "ord_forged" } }));
    expect((await deliver(forged)).status).toBe(200);
    const lines = logged(log);
    expect(lines).toEqual([
      expect.objectContaining({ outcome: "unknown_object", event_id: orphan.id, payment_intent: "pi_not_ours" }),
      expect.objectContaining({ outcome: "unknown_object", event_id: bare.id }),
      expect.objectContaining({ outcome: "unknown_object", event_id: forged.id }),
    ]);
  });

  it("acknowledges an event type it does not handle, logged as ignored", async () => {
    const log = vi.spyOn(console, "log");
    const event = stripeEvent("customer.created", { id: "cus_1", object: "customer" });
    expect((await deliver(event)).status).toBe(200);
    expect(logged(log)).toEqual([expect.objectContaining({ outcome: "ignored", event_type: "customer.created" })]);
  });

  it("a dispute shows on the order (admin JSON and console) and its close updates it, once", async () => {
    const { orderId, chargeId } = await paidOrder();
    const dispute = disputeObject({ payment_intent: chargeId, amount: 1000, reason: "fraudulent" });
    const opened = stripeEvent("charge.dispute.created", dispute);
    expect((await deliver(opened)).status).toBe(200);
    expect((await deliver(opened)).status).toBe(200);
    let order = await merchantOrder(orderId);
    expect(order.order.adjustments).toEqual([
      expect.objectContaining({
        id: "adj_1",
        type: "dispute",
        status: "pending",
        totals: [{ type: "total", amount: -1000 }],
      }),
    ]);
    expect(order.disputes).toEqual([
      expect.objectContaining({
        id: dispute.id,
        status: "needs_response",
        reason: "fraudulent",
        amount: 1000,
        currency: "USD",
        adjustment_id: "adj_1",
        evidence_due_by: new Date(1_900_000_000_000).toISOString(),
      }),
    ]);

    const browser = await signIn({ ip: "203.0.113.124" });
    const page = await openPage(`/admin/orders/${orderId}`, browser);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain("Refunds and disputes at the payment processor");
    expect(page.html).toContain(dispute.id);
    expect(page.html).toContain("Needs your response");
    expect(page.html).toContain("A dispute needs your response");

    const closed = stripeEvent("charge.dispute.closed", { ...dispute, status: "won" });
    expect((await deliver(closed)).status).toBe(200);
    expect((await deliver(closed)).status).toBe(200);
    order = await merchantOrder(orderId);
    expect(order.order.adjustments).toHaveLength(1);
    expect(order.order.adjustments[0].status).toBe("failed");
    expect(order.disputes).toEqual([expect.objectContaining({ id: dispute.id, status: "won" })]);
    const after = await openPage(`/admin/orders/${orderId}`, browser);
    expect(after.html).toContain("Won");
    expect(after.html).not.toContain("A dispute needs your response");
  });

  it("a payment that finished after 3-D Secure answers the checkout's pending verification, once", async () => {
    const escalate = async () => {
      const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
      const reply = await tool(
        "complete_checkout",
        { id: checkout.id, checkout: pay("requires_3ds_token") },
        crypto.randomUUID(),
      );
      expect(reply.body.result.structuredContent.status).toBe("requires_escalation");
      return checkout.id as string;
    };
    const read = async (id: string) => (await tool("get_checkout", { id })).body.result.structuredContent;
    const intent = (checkoutId: string) => ({
      id: `pi_${checkoutId.slice(-12)}`,
      object: "payment_intent",
      metadata: { ucp_checkout_id: checkoutId, ucp_attempt: `${checkoutId}:x` },
      status: "succeeded",
    });

    const passed = await escalate();
    const succeeded = stripeEvent("payment_intent.succeeded", intent(passed));
    expect((await deliver(succeeded)).status).toBe(200);
    let checkout = await read(passed);
    expect(checkout.status).toBe("ready_for_complete");
    expect(checkout.messages.map((m: Json) => m.code)).toContain("payment_verified");
    // Redelivered: the verification is answered already, nothing changes.
    const log = vi.spyOn(console, "log");
    expect((await deliver(succeeded)).status).toBe(200);
    expect(logged(log)).toEqual([expect.objectContaining({ outcome: "no_change", checkout_id: passed })]);

    const failed = await escalate();
    const declined = stripeEvent("payment_intent.payment_failed", {
      ...intent(failed),
      status: "requires_payment_method",
    });
    expect((await deliver(declined)).status).toBe(200);
    checkout = await read(failed);
    expect(checkout.status).toBe("ready_for_complete");
    expect(checkout.messages).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: "error", code: "payment_failed" })]),
    );
  });

  it("escapes what Stripe sends on the console page", async () => {
    const { orderId, chargeId } = await paidOrder();
    const dispute = disputeObject({ payment_intent: chargeId, reason: "<script>alert(1)</script>" });
    expect((await deliver(stripeEvent("charge.dispute.created", dispute))).status).toBe(200);
    const page = await openPage(`/admin/orders/${orderId}`, await signIn({ ip: "203.0.113.125" }));
    expect(page.html).not.toContain("<script>alert(1)");
    expect(page.html).toContain("&lt;script&gt;");
  });

  it("is routed at /payments/stripe/webhook when the secret is set", async () => {
    const event = stripeEvent("customer.created", { id: "cus_2", object: "customer" });
    const body = JSON.stringify(event);
    const request = new Request(URL_, {
      method: "POST",
      headers: { "stripe-signature": await stripeSignature(body, SECRET) },
      body,
    });
    const res = await route(request, storeEnv);
    expect(res.status).toBe(200);
    const get = await route(new Request(URL_), storeEnv);
    expect(get.status).toBe(405);
  });
});
