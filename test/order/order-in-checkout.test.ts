/**
 * Since issue 29 the order a completion places lives in its checkout's object: one new
 * Durable Object per purchase. Orders placed before, in an OrderObject of their own, stay
 * where they are and answer as before; an attempt a build before started places its order
 * there too; a session past its retention goes, its order stays.
 */
import { listDurableObjectIds, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CheckoutObject } from "../../durable-objects/checkout-object";
import { CLOSED_RETENTION_MS } from "../../durable-objects/checkout-object";
import type { OrderObject } from "../../durable-objects/order-object";
import { completionFault } from "../../src/checkout/completion-fault";
import { derivedId, orderHome, orderIdIn } from "../../src/lib/ids";
import type { OrderState } from "../../src/order/order-state";
import { type OrderStub, orderStub } from "../../src/tools/order-stub";
import { type Json, pay, readyCheckout, tool } from "../helpers/checkout";
import { FULL_PROFILE, PROFILES } from "../helpers/mcp";
import { sessionClearedByAlarm } from "../helpers/order-home";
import { admin, getOrder, placeOrder } from "./order-helpers";

const SECRET = "test-signing-key";
const checkoutStub = (id: string) => env.CHECKOUT.getByName(id) as DurableObjectStub<CheckoutObject>;

afterEach(() => {
  completionFault.at = undefined;
});

/** The order rows a checkout's object holds. */
const ordersIn = (checkoutId: string) =>
  runInDurableObject(checkoutStub(checkoutId), (_o: CheckoutObject, state) =>
    state.storage.sql.exec<{ id: string; state: string }>("SELECT id, state FROM orders").toArray(),
  );

describe("the order in its checkout's object", () => {
  it("a purchase makes no object of the order's own: the order is in the session's, under an id naming it", async () => {
    const before = (await listDurableObjectIds(env.ORDER)).length;
    const { orderId, checkout } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    expect((await listDurableObjectIds(env.ORDER)).length).toBe(before);
    expect(orderId).toBe(await orderIdIn(SECRET, checkout.id));
    expect(orderId).toMatch(/^ord_[A-Za-z0-9_-]{32}$/);
    expect(await orderHome(SECRET, orderId)).toEqual({ checkout: checkout.id });
    expect((await ordersIn(checkout.id)).map((r) => r.id)).toEqual([orderId]);
    // Read over UCP, changed by the merchant, as any order.
    expect((await getOrder(orderId)).id).toBe(orderId);
    const line = (await getOrder(orderId)).line_items[0].id;
    const shipped = await admin(orderId, "events", { type: "shipped", line_items: [{ id: line, quantity: 1 }] });
    expect(shipped.status, JSON.stringify(shipped.body)).toBe(200);
    // The session is still the session.
    const read = await tool("get_checkout", { id: checkout.id });
    expect(read.body.result.structuredContent).toMatchObject({ id: checkout.id, status: "completed" });
  });

  it("an order placed before, in an OrderObject of its own, is read, changed and refused as before", async () => {
    const { orderId, checkout } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    const [row] = await ordersIn(checkout.id);
    // The order a build before would have made for another session: its id derived from owner and session.
    const earlier = await derivedId("ord", SECRET, FULL_PROFILE, `chk_${crypto.randomUUID()}`);
    const order: OrderState = { ...(JSON.parse(row?.state ?? "{}") as OrderState), id: earlier };
    await (env.ORDER.getByName(earlier) as DurableObjectStub<OrderObject>).create(order);
    expect(await orderHome(SECRET, earlier)).toBe("own");
    expect((await getOrder(earlier)).id).toBe(earlier);
    const view = await admin(earlier, "adjustments", { type: "refund", amount: 100 });
    expect(view.status, JSON.stringify(view.body)).toBe(200);
    expect(view.body.id).toBe(earlier);
    // The new order is untouched by the old one's change.
    expect((await getOrder(orderId)).adjustments ?? []).toEqual([]);
    // Another platform is told the order is not theirs, for either kind.
    for (const id of [earlier, orderId]) {
      const other = await tool("get_order", { id }, undefined, `${PROFILES}/webhooks.json`);
      expect(other.body.result.structuredContent.messages[0].code).toBe("unauthorized");
    }
  });

  it("an id that only looks like an order's is not found, and touches no object", async () => {
    const { orderId } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    // The same id bytes with one character of the tag changed (always a change): not issued.
    const forged = `${orderId.slice(0, -2)}${orderId.at(-2) === "A" ? "B" : "A"}${orderId.at(-1)}`;
    expect(forged).not.toBe(orderId);
    expect(await orderHome(SECRET, forged)).toBeUndefined();
    const before = (await listDurableObjectIds(env.CHECKOUT)).length;
    const reply = await tool("get_order", { id: forged });
    expect(reply.body.result.structuredContent.messages[0].code).toBe("not_found");
    expect((await listDurableObjectIds(env.CHECKOUT)).length).toBe(before);
    // Nor an object named by the forged id itself, in either namespace.
    const named = (ids: DurableObjectId[], id: DurableObjectId) => ids.some((i) => i.equals(id));
    expect(named(await listDurableObjectIds(env.ORDER), env.ORDER.idFromName(forged))).toBe(false);
    expect(named(await listDurableObjectIds(env.CHECKOUT), env.CHECKOUT.idFromName(forged))).toBe(false);
  });

  it("an attempt a build before started places its order where that build would have", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    completionFault.at = "charged";
    const crashed = await tool("complete_checkout", { id: checkout.id, checkout: pay("success_token") }, "k1");
    expect(crashed.body.result?.structuredContent?.status).not.toBe("completed");
    // The stored attempt as the previous build wrote it: no orderHome.
    await runInDurableObject(checkoutStub(checkout.id), (_o: CheckoutObject, state) => {
      const row = state.storage.sql.exec<{ attempt: string }>("SELECT attempt FROM completion_attempt").one();
      const { orderHome: _home, ...before } = JSON.parse(row.attempt) as Json;
      state.storage.sql.exec("UPDATE completion_attempt SET attempt = ?", JSON.stringify(before));
    });
    const done = (await tool("complete_checkout", { id: checkout.id, checkout: pay("success_token") }, "k1")).body
      .result.structuredContent;
    expect(done.status, JSON.stringify(done.messages)).toBe("completed");
    expect(done.order.id).toBe(await derivedId("ord", SECRET, FULL_PROFILE, checkout.id));
    expect(await ordersIn(checkout.id)).toEqual([]);
    expect((await getOrder(done.order.id)).checkout_id).toBe(checkout.id);
  });

  it("a session past its retention goes; the order it placed stays, and so does its alarm's work", async () => {
    const { orderId, checkout } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    await runInDurableObject(checkoutStub(checkout.id), (_o: CheckoutObject, state) => {
      const row = state.storage.sql.exec<{ state: string }>("SELECT state FROM checkout").one();
      const past = Date.now() - CLOSED_RETENTION_MS - 60_000;
      state.storage.sql.exec(
        "UPDATE checkout SET state = ?",
        JSON.stringify({ ...JSON.parse(row.state), expires_at: past }),
      );
    });
    await sessionClearedByAlarm(checkoutStub(checkout.id));
    const read = await tool("get_checkout", { id: checkout.id });
    expect(read.body.result.structuredContent.messages[0].code).toBe("not_found");
    expect((await getOrder(orderId)).id).toBe(orderId);
    // A merchant's change after that still queues and delivers the order's work.
    const refund = await admin(orderId, "adjustments", { type: "refund", amount: 100 });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect(refund.body.adjustments[0].status).toBe("completed");
  });

  it("a webhook that failed is retried on its own schedule, not the session's recovery floor", async () => {
    const profile = `${PROFILES}/webhooks-flaky.json`;
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }], {}, profile);
    const done = (
      await tool("complete_checkout", { id: checkout.id, checkout: pay("success_token") }, crypto.randomUUID(), profile)
    ).body.result.structuredContent;
    expect(done.status).toBe("completed");
    const object = checkoutStub(checkout.id);
    // The webhook's row and the object's alarm, read in one call.
    const row = () =>
      runInDurableObject(object, async (_o: CheckoutObject, state) => ({
        webhook: state.storage.sql
          .exec<{ attempts: number; next_attempt_at: number }>("SELECT attempts, next_attempt_at FROM webhooks")
          .one(),
        alarm: await state.storage.getAlarm(),
      }));
    // Until the order's follow-up has ended: its last step arms the alarm for the retry. Made
    // due before that, the row would be seen by that step, which sets the alarm to now, and
    // workerd would run it itself before the test does (a flake under load, 2026-11-28).
    const retryArmed = async () => {
      const { webhook, alarm } = await row();
      return webhook.attempts >= 1 && alarm === webhook.next_attempt_at;
    };
    await vi.waitUntil(retryArmed, { timeout: 5000, interval: 20 });
    // Due now: the alarm's run makes the second attempt, which the receiver fails too.
    await runInDurableObject(object, (_o: CheckoutObject, state) => {
      state.storage.sql.exec("UPDATE webhooks SET next_attempt_at = 0");
    });
    expect(await runDurableObjectAlarm(object)).toBe(true);
    const { webhook, alarm } = await row();
    expect(webhook.attempts).toBe(2);
    expect(alarm).toBe(webhook.next_attempt_at);
    expect(webhook.next_attempt_at).toBeLessThan(Date.now() + 60_000);
  });

  it("each call on an order's stub gets a new object stub, so a retry never reuses one that threw", async () => {
    const { orderId, checkout } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    const order = (await orderStub(env, SECRET, orderId)) as OrderStub;
    const made = vi.spyOn(env.CHECKOUT, "getByName");
    await order.webhooks();
    await order.outbox();
    expect(made.mock.calls).toEqual([[checkout.id], [checkout.id]]);
    made.mockRestore();
  });
});
