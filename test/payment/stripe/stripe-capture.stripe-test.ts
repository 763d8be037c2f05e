/**
 * Capture at shipment against the stand-in (issue 24 item 1, STRIPE_CAPTURE=manual), and the
 * console's Payment card for a Stripe order (item 6).
 *
 * This project's store captures at completion (STRIPE_CAPTURE unset): Durable Objects read
 * their bindings, so a manual store would need a third workerd project. Instead the order
 * records at creation whether its charge was only an authorization (OrderState.capture,
 * docs/decisions/orders.md), and these tests make such an order the way completion does: the
 * store's own Stripe processor with capture "manual" authorizes through the real SDK, and
 * orderFromCheckout builds the order with captureAtShipment. From there everything is the
 * store's: the admin API ships and cancels, the order object captures or releases through
 * the processor, the stand-in shows what Stripe would hold.
 */
import { env, exports } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { CheckoutState } from "../../../src/checkout/checkout-state";
import { merchantConfig } from "../../../src/config";
import { derivedId } from "../../../src/lib/ids";
import { orderFromCheckout } from "../../../src/order/order-state";
import { stripeProcessor } from "../../../src/payment/stripe-processor";
import type { Json } from "../../helpers/checkout";
import { openPage, signIn } from "../../helpers/console";
import { ADMIN_TOKEN, admin, orderObject } from "../../order/order-helpers";

const STAND_IN = "https://stripe.test/__stand-in";

beforeEach(async () => {
  await fetch(`${STAND_IN}/reset`, { method: "POST" });
});

/** A two-unit order whose 5000 was only authorized at Stripe, as completion makes it with STRIPE_CAPTURE=manual. */
async function authorizedOrder(): Promise<{ orderId: string; intentId: string }> {
  const config = merchantConfig(env);
  if (!config.stripe) throw new Error("this project binds Stripe");
  const checkoutId = `chk_${crypto.randomUUID()}`;
  const attempt = `${checkoutId}:${crypto.randomUUID()}`;
  const processor = stripeProcessor({ ...config.stripe, capture: "manual" });
  const charge = await processor.charge({
    idempotencyKey: attempt,
    checkoutId,
    amount: 5000,
    currency: "USD",
    handlerId: "google_pay",
    credential: { type: "PAYMENT_GATEWAY", token: JSON.stringify({ id: "tok_visa", object: "token" }) },
  });
  if (charge.kind !== "captured") throw new Error(JSON.stringify(charge));
  const checkout = {
    id: checkoutId,
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
    totals: [
      { type: "subtotal", amount: 5000 },
      { type: "total", amount: 5000 },
    ],
    messages: [],
    buyer: { email: "jane@example.com" },
    payment: {
      instruments: [
        {
          id: "i_1",
          handler_id: "google_pay",
          type: "card",
          selected: true,
          display: { brand: "visa", last_digits: "4242" },
        },
      ],
    },
    next_line: 2,
    created_at: Date.now(),
    expires_at: Date.now() + 3600_000,
  } as unknown as CheckoutState;
  const owner = "https://agent.test/profile.json";
  const orderId = await derivedId("ord", config.idSecret, owner, checkoutId);
  const ids = {
    orderId,
    permalink: `https://shop.example.com/o/${orderId}`,
    chargeId: charge.chargeId,
    captureAtShipment: true,
  };
  const order = orderFromCheckout(checkout, ids, owner, Date.now());
  expect((await (await orderObject(orderId)).create(order)).created).toBe(true);
  return { orderId, intentId: charge.chargeId };
}

async function intent(intentId: string): Promise<Json> {
  const res = await fetch(`${STAND_IN}/payment_intents`);
  const all = ((await res.json()) as Json).data as Json[];
  const found = all.find((pi) => pi.id === intentId);
  expect(found).toBeDefined();
  return found;
}

async function merchantOrder(orderId: string): Promise<Json> {
  const res = await exports.default.fetch(`https://shop.example.com/admin/orders/${orderId}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(res.status).toBe(200);
  return res.json();
}

const captureCalls = (pi: Json, orderId: string) =>
  (pi.stand_in.idempotency_keys as string[]).filter((k) => k === `${orderId}:capture`);

describe("capture at shipment (STRIPE_CAPTURE=manual)", () => {
  it("the first shipment captures once, keyed by the order; another shipment captures nothing more", async () => {
    const { orderId, intentId } = await authorizedOrder();
    expect((await intent(intentId)).status).toBe("requires_capture");
    expect((await merchantOrder(orderId)).capture).toEqual({ status: "authorized" });

    const ship = { type: "shipped", line_items: [{ id: "li_1", quantity: 1 }] };
    const key = crypto.randomUUID();
    const first = await admin(orderId, "events", ship, { key });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    let pi = await intent(intentId);
    expect(pi.status).toBe("succeeded");
    expect(pi.amount_received).toBe(5000);
    expect(captureCalls(pi, orderId)).toHaveLength(1);
    const view = await merchantOrder(orderId);
    expect(view.capture).toMatchObject({ status: "captured", amount: 5000 });

    // The first shipment's request is replayed, the rest of the order ships: no second capture.
    const replayed = await admin(orderId, "events", ship, { key });
    expect(replayed.status).toBe(200);
    expect(replayed.body).toEqual(first.body);
    const second = await admin(orderId, "events", { type: "shipped" });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    const again = await admin(orderId, "events", { type: "shipped" });
    expect(again.status).toBe(400);
    pi = await intent(intentId);
    expect(pi.status).toBe("succeeded");
    expect(captureCalls(pi, orderId)).toHaveLength(1);
    const keys = (await (await fetch(`${STAND_IN}/idempotency`)).json()) as Json;
    expect(JSON.stringify(keys).split(`${orderId}:capture`).length - 1).toBeLessThanOrEqual(1);
    expect((await merchantOrder(orderId)).capture).toMatchObject({ status: "captured", amount: 5000 });
  });

  it("a part canceled before shipment is not captured; the capture takes the rest", async () => {
    const { orderId, intentId } = await authorizedOrder();
    const cancel = await admin(orderId, "adjustments", {
      type: "cancellation",
      line_items: [{ id: "li_1", quantity: -1 }],
    });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body.adjustments.at(-1).status).toBe("completed");
    expect((await intent(intentId)).status).toBe("requires_capture");
    const refunds = ((await (await fetch(`${STAND_IN}/refunds`)).json()) as Json).data;
    expect(refunds).toHaveLength(0);

    expect((await admin(orderId, "events", { type: "shipped" })).status).toBe(200);
    const pi = await intent(intentId);
    expect(pi.status).toBe("succeeded");
    expect(pi.amount_received).toBe(2500);
    expect(captureCalls(pi, orderId)).toHaveLength(1);
  });

  it("canceling before shipment cancels the authorization; nothing is ever captured", async () => {
    const { orderId, intentId } = await authorizedOrder();
    const cancel = await admin(orderId, "adjustments", { type: "cancellation" });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body.adjustments.at(-1).status).toBe("completed");
    const pi = await intent(intentId);
    expect(pi.status).toBe("canceled");
    expect(captureCalls(pi, orderId)).toHaveLength(0);
    expect((await merchantOrder(orderId)).capture).toEqual({ status: "released" });
    // Nothing is left to ship.
    expect((await admin(orderId, "events", { type: "shipped" })).status).toBe(400);
  });
});

describe("the console's Payment card for a Stripe order", () => {
  it("shows brand, last four, the status and a link to the PaymentIntent in Stripe's test dashboard", async () => {
    const { orderId, intentId } = await authorizedOrder();
    const browser = await signIn({ ip: "198.51.100.240" });
    let page = await openPage(`/admin/orders/${orderId}`, browser);
    expect(page.res.status).toBe(200);
    const card = () => /<section class="card" aria-labelledby="payment">[\s\S]*?<\/section>/.exec(page.html)?.[0] ?? "";
    expect(card()).toContain("Visa ending in 4242");
    expect(card()).toContain("Google Pay");
    expect(card()).toContain("Authorized: $50.00 will be captured at the first shipment");
    expect(card()).toContain(`href="https://dashboard.stripe.com/test/payments/${intentId}"`);
    expect(card()).not.toContain("tok_visa");

    expect((await admin(orderId, "events", { type: "shipped" })).status).toBe(200);
    page = await openPage(`/admin/orders/${orderId}`, browser);
    expect(card()).toMatch(/Captured \$50\.00 at shipment/);
    expect((await admin(orderId, "adjustments", { type: "refund", amount: 1000 })).status).toBe(200);
    page = await openPage(`/admin/orders/${orderId}`, browser);
    expect(card()).toContain("Refunded in part: $10.00 of $50.00 captured");
  });
});
