/**
 * Checkout expiry: a session is open for 6 hours (checkout.json: "Default TTL is 6 hours from
 * creation"); past expires_at it reads as canceled at once, nothing can change or complete it,
 * and the alarm makes the cancellation stored state, safely when delivered twice.
 */
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { CheckoutObject } from "../../durable-objects/checkout-object";
import { orderIdIn } from "../../src/lib/ids";
import { ADDRESS, checkoutCall, type Json, pay, readyCheckout, tool } from "../helpers/checkout";

const TTL_MS = 6 * 3600_000;
const stubOf = (id: string) => env.CHECKOUT.getByName(id) as DurableObjectStub<CheckoutObject>;

/** The session as stored (table `checkout`, column `state`, JSON). */
const stored = (id: string): Promise<Json> =>
  runInDurableObject(stubOf(id), (_i: CheckoutObject, state) =>
    JSON.parse(state.storage.sql.exec<{ state: string }>("SELECT state FROM checkout").one().state),
  );

/** Moves the stored expiry (what time passing would do). */
async function setExpiresAt(id: string, expiresAt: number) {
  await runInDurableObject(stubOf(id), (_i: CheckoutObject, state) => {
    const row = state.storage.sql.exec<{ state: string }>("SELECT state FROM checkout").one();
    state.storage.sql.exec(
      "UPDATE checkout SET state = ?",
      JSON.stringify({ ...JSON.parse(row.state), expires_at: expiresAt }),
    );
  });
}

const alarmOf = (id: string) => runInDurableObject(stubOf(id), (_i: CheckoutObject, state) => state.storage.getAlarm());

/** The order a completion of this checkout would have made (its id names the checkout, issue 29). */
const orderIdFor = (checkoutId: string) => orderIdIn("test-signing-key", checkoutId);

const expiredInfo = expect.objectContaining({ type: "info", code: "expired" });

/** A ready checkout whose expires_at has just passed. */
async function expiredCheckout(): Promise<Json> {
  const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
  await setExpiresAt(checkout.id, Date.now() - 1000);
  return checkout;
}

describe("lifetime", () => {
  it("expires about 6 hours after creation, with the alarm armed for then", async () => {
    const before = Date.now();
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const after = Date.now();
    const expiresAt = Date.parse(checkout.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(before + TTL_MS);
    expect(expiresAt).toBeLessThanOrEqual(after + TTL_MS);
    const state = await stored(checkout.id);
    expect(state.expires_at - state.created_at).toBe(TTL_MS);
    expect(await alarmOf(checkout.id)).toBe(expiresAt);
  });
});

describe("past expires_at", () => {
  it("an open checkout reads as canceled, saying it expired", async () => {
    const checkout = await expiredCheckout();
    const read = await checkoutCall("get_checkout", { id: checkout.id });
    expect(read.status).toBe("canceled");
    expect(read.messages).toEqual([expiredInfo]);
    expect(read.line_items).toEqual(checkout.line_items);
    expect(read.totals).toEqual(checkout.totals);
    // A closed session has no continue_url (and no expiry to show).
    expect(read).not.toHaveProperty("continue_url");
  });

  it("update_checkout changes nothing and says why", async () => {
    const checkout = await expiredCheckout();
    const before = await checkoutCall("get_checkout", { id: checkout.id });
    const update = await checkoutCall("update_checkout", {
      id: checkout.id,
      checkout: {
        line_items: [{ item: { id: "item_456" }, quantity: 3 }],
        buyer: { email: "someone.else@example.com" },
      },
    });
    expect(update.status).toBe("canceled");
    expect(update.line_items).toEqual(checkout.line_items);
    expect(update.messages).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: "error", severity: "unrecoverable" })]),
    );
    expect(update.messages.find((m: Json) => m.type === "error").content).toMatch(/canceled/);
    expect(await checkoutCall("get_checkout", { id: checkout.id })).toEqual(before);
  });

  it("complete_checkout places no order, takes no payment, and says why", async () => {
    const checkout = await expiredCheckout();
    const before = await checkoutCall("get_checkout", { id: checkout.id });
    const done = await checkoutCall(
      "complete_checkout",
      { id: checkout.id, checkout: pay("success_token") },
      crypto.randomUUID(),
    );
    expect(done.status).toBe("canceled");
    expect(done.order).toBeUndefined();
    expect(done.messages.at(-1)).toMatchObject({ type: "error", severity: "unrecoverable" });
    expect(done.messages.at(-1).content).toMatch(/canceled/);
    expect(await checkoutCall("get_checkout", { id: checkout.id })).toEqual(before);
    const order = (await tool("get_order", { id: await orderIdFor(checkout.id) })).body.result.structuredContent;
    expect(order.messages[0].code).toBe("not_found");
  });
});

describe("the expiry alarm", () => {
  it("stores the cancellation, and running it twice changes nothing more", async () => {
    const checkout = await expiredCheckout();
    expect((await stored(checkout.id)).status).toBe("ready_for_complete");
    expect(await runDurableObjectAlarm(stubOf(checkout.id))).toBe(true);
    const first = await stored(checkout.id);
    expect(first).toMatchObject({ status: "canceled", messages: [expiredInfo] });
    const read = await checkoutCall("get_checkout", { id: checkout.id });
    expect(read.status).toBe("canceled");
    expect(read.messages).toEqual([expiredInfo]);

    // At-least-once delivery: a second run (scheduled or direct) finds nothing to do.
    await runDurableObjectAlarm(stubOf(checkout.id));
    await runInDurableObject(stubOf(checkout.id), (instance: CheckoutObject) => instance.alarm());
    expect(await stored(checkout.id)).toEqual(first);
    expect(await checkoutCall("get_checkout", { id: checkout.id })).toEqual(read);
    // The closed session is kept for a while: the next alarm is in the future, not a loop.
    expect(await alarmOf(checkout.id)).toBeGreaterThan(Date.now());

    const late = await checkoutCall(
      "complete_checkout",
      { id: checkout.id, checkout: pay("success_token") },
      crypto.randomUUID(),
    );
    expect(late.status).toBe("canceled");
    expect(late.order).toBeUndefined();
    expect(await stored(checkout.id)).toEqual(first);
  });

  it("leaves an unexpired checkout open when it fires early", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    await runInDurableObject(stubOf(checkout.id), (instance: CheckoutObject) => instance.alarm());
    const read = await checkoutCall("get_checkout", { id: checkout.id });
    expect(read.status).toBe("ready_for_complete");
    expect(await alarmOf(checkout.id)).toBe(Date.parse(checkout.expires_at));
  });
});

describe("a cart outlives its checkout", () => {
  // spec-digest §5.4: only an open checkout is returned for its cart; a closed one gives way
  // to a new session (the cart lives 72 h, a checkout 6 h).
  it("create_checkout from the cart after its checkout expired starts a new, open checkout", async () => {
    const cart = (
      await tool("create_cart", {
        cart: { line_items: [{ item: { id: "item_456" }, quantity: 1 }], buyer: { email: "c@example.com" } },
      })
    ).body.result.structuredContent;
    const first = await checkoutCall("create_checkout", {
      checkout: { cart_id: cart.id, fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] } },
    });
    await setExpiresAt(first.id, Date.now() - 1000);
    expect((await checkoutCall("get_checkout", { id: first.id })).status).toBe("canceled");

    const again = await checkoutCall("create_checkout", { checkout: { cart_id: cart.id } });
    expect(again.status).not.toBe("canceled");
    expect(again.id).not.toBe(first.id);
    expect(again.line_items.map((l: Json) => [l.item.id, l.quantity])).toEqual([["item_456", 1]]);
  });
});
