/**
 * Order webhooks (spec-digest §7.5): the placing platform's profile names the URL; the
 * order object posts the full order, signed by the merchant key, on creation and on every
 * change, retrying failures from its durable outbox with the same Webhook-Id.
 */
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { OrderObject } from "../../durable-objects/order-object";
import signingKeys from "../../signing-keys.json";
import { verifyRequest } from "../../src/auth/http-signature";
import { type Json, pay, readyCheckout, tool } from "../helpers/checkout";
import { PROFILES } from "../helpers/mcp";
import { admin, expectOrder, orderObject, orderStub } from "./order-helpers";

async function placeOrderFor(profile: string): Promise<string> {
  const checkout = await readyCheckout([{ id: "item_456", quantity: 1 }], {}, profile);
  const done = await tool(
    "complete_checkout",
    { id: checkout.id, checkout: pay("success_token") },
    crypto.randomUUID(),
    profile,
  );
  const payload = done.body.result.structuredContent;
  expect(payload.status, JSON.stringify(payload)).toBe("completed");
  return payload.order.id;
}

interface Delivery {
  path: string;
  headers: Record<string, string>;
  body: string;
  status: number;
}

async function received(orderId: string): Promise<Delivery[]> {
  const res = await fetch(`https://fixtures.test/webhooks?order=${orderId}`);
  return ((await res.json()) as { deliveries: Delivery[] }).deliveries;
}

/** Runs the order's alarm until `done` holds, making every pending retry due at once. */
async function deliverUntil(orderId: string, done: (d: Delivery[]) => boolean): Promise<Delivery[]> {
  const _stub = orderStub(orderId);
  const object = await orderObject(orderId);
  for (let round = 0; round < 20; round++) {
    const got = await received(orderId);
    if (done(got)) return got;
    await runInDurableObject(object, (_o: unknown, state: DurableObjectState) => {
      state.storage.sql.exec("UPDATE webhooks SET next_attempt_at = 0 WHERE next_attempt_at IS NOT NULL");
    });
    await runDurableObjectAlarm(object);
  }
  return received(orderId);
}

async function verifies(d: Delivery): Promise<boolean> {
  const result = await verifyRequest(
    {
      method: "POST",
      url: `https://platform.example${d.path}`,
      headers: new Headers(d.headers),
      body: new TextEncoder().encode(d.body),
    },
    async (kid) => signingKeys.find((k) => k.kid === kid),
    { now: Date.now(), maxAgeSeconds: 300 },
  );
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.value.components.includes("webhook-id") && result.value.components.includes("content-digest");
}

const delivered = (ds: Delivery[]) => ds.filter((d) => d.status === 200);

describe("order webhooks", () => {
  it("order created and shipped: two signed webhooks with the full order", async () => {
    const orderId = await placeOrderFor(`${PROFILES}/webhooks.json`);
    const [created] = await deliverUntil(orderId, (d) => delivered(d).length >= 1);
    expect(created?.status).toBe(200);
    // A 2026-04-08 platform's webhook names our 2026-04-08 profile (digest-2026-08-25 §6.9).
    expect(created?.headers["ucp-agent"]).toBe(
      'profile="https://shop.example.com/.well-known/ucp-profiles/2026-04-08"',
    );
    expect(created?.headers["content-type"]).toBe("application/json");
    expect(created?.headers["webhook-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(created?.headers["webhook-timestamp"])).toBeGreaterThan(Date.now() / 1000 - 120);
    expect(await verifies(created as Delivery)).toBe(true);
    const order = JSON.parse(created?.body ?? "{}");
    expectOrder(order);
    expect(order.ucp.capabilities).toEqual({ "dev.ucp.shopping.order": [{ version: "2026-04-08" }] });
    expect(order.fulfillment.events).toEqual([]);

    const shipped = await admin(orderId, "events", {
      type: "shipped",
      line_items: [{ id: order.line_items[0].id, quantity: 1 }],
      tracking_number: "1Z999",
      carrier: "UPS",
    });
    expect(shipped.status, JSON.stringify(shipped.body)).toBe(200);
    const all = delivered(await deliverUntil(orderId, (d) => delivered(d).length >= 2));
    expect(all).toHaveLength(2);
    const second = all[1] as Delivery;
    expect(second.headers["webhook-id"]).not.toBe(created?.headers["webhook-id"]);
    expect(await verifies(second)).toBe(true);
    const update = JSON.parse(second.body);
    expectOrder(update);
    expect(update.fulfillment.events).toMatchObject([{ type: "shipped", tracking_number: "1Z999" }]);
  });

  it("a receiver failing the first three attempts still gets each event, once, in order", async () => {
    const orderId = await placeOrderFor(`${PROFILES}/webhooks-flaky.json`);
    const stub = orderStub(orderId);
    const object = await orderObject(orderId);
    const all = await deliverUntil(orderId, (d) => delivered(d).length >= 1);
    expect(all.slice(0, 4).map((d) => d.status)).toEqual([503, 503, 503, 200]);
    const ids = new Set(all.slice(0, 4).map((d) => d.headers["webhook-id"]));
    expect(ids.size).toBe(1); // every retry of one event carries its Webhook-Id
    for (const d of all) expect(await verifies(d)).toBe(true);
    const log = await stub.webhooks();
    expect(log[0]).toMatchObject({ event: "order.created", attempts: 4, delivered_at: expect.any(Number) });
    expect(log[0]?.deliveries.map((a) => a.status)).toEqual([503, 503, 503, 200]);
    expect(log[0]?.deliveries[0]?.error).toBe("HTTP 503");
    // Once delivered, nothing is sent again however often the alarm runs.
    await runInDurableObject(object, (o: OrderObject) => o.alarm());
    const after = await received(orderId);
    const byId = new Map<string, number>();
    for (const d of delivered(after))
      byId.set(d.headers["webhook-id"] ?? "", (byId.get(d.headers["webhook-id"] ?? "") ?? 0) + 1);
    expect([...byId.values()].every((n) => n === 1)).toBe(true);
  });

  it("a webhook URL on a private address is never fetched; the log says why", async () => {
    const orderId = await placeOrderFor(`${PROFILES}/webhooks-private.json`);
    const stub = orderStub(orderId);
    const object = await orderObject(orderId);
    await runDurableObjectAlarm(object);
    const [entry] = await stub.webhooks();
    expect(entry?.deliveries[0]?.error).toMatch(/webhook URL refused/);
    const hits = (await (
      await fetch(`https://fixtures.test/hits?url=${encodeURIComponent("https://10.0.0.8/webhooks")}`)
    ).json()) as Json;
    expect(hits.hits).toBe(0);
  });

  it("orders placed by platforms without a webhook URL queue nothing", async () => {
    const orderId = await placeOrderFor(`${PROFILES}/full.json`);
    expect(await orderStub(orderId).webhooks()).toEqual([]);
    expect(env.ORDER).toBeDefined();
  });
});
