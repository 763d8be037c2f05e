/**
 * The completion's guarantees (test/checkout/completion-crash.test.ts) hold for the retry
 * after 3-D Secure: the verified charge dies right after it is captured, and the retry (any
 * key) or the object's alarm finishes the same attempt: one capture, one held reservation,
 * one order; the verification is used up.
 */
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CheckoutObject } from "../../durable-objects/checkout-object";
import type { InventoryObject } from "../../durable-objects/inventory-object";
import { stockShardName } from "../../src/catalog/stock-keys";
import { completionFault } from "../../src/checkout/completion-fault";
import { testProcessor } from "../../src/payment/processor";
import { type Json, pay, readyCheckout, tool } from "../helpers/checkout";
import { orderStub } from "../helpers/order-home";
import { getPage, pathOf, submit } from "../helpers/pages";

afterEach(() => {
  vi.restoreAllMocks();
  completionFault.at = undefined;
});

const checkoutStub = (id: string) => env.CHECKOUT.getByName(id) as DurableObjectStub<CheckoutObject>;

async function complete(id: string): Promise<Json> {
  const reply = await tool("complete_checkout", { id, checkout: pay("requires_3ds_token") }, crypto.randomUUID());
  return reply.body.result?.structuredContent;
}

/** A checkout whose 3-D Secure the buyer passed on the challenge page. */
async function verified(): Promise<Json> {
  const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
  const escalated = await complete(checkout.id);
  expect(escalated.status).toBe("requires_escalation");
  const path = pathOf(escalated.continue_url);
  const browser = {};
  const page = await getPage(path, browser);
  const form = /<form\b[\s\S]*?<\/form>/.exec(page.html)?.[0] ?? "";
  expect((await submit(path, form, { outcome: "pass" }, browser)).status).toBe(303);
  return checkout;
}

async function captures(spy: { mock: { results: Array<{ value: unknown }> } }): Promise<number> {
  const kinds = await Promise.all(
    spy.mock.results.map(async (r) => (await (r.value as Promise<{ kind: string }>)).kind),
  );
  return kinds.filter((k) => k === "captured").length;
}

async function reservations(checkoutId: string): Promise<string[]> {
  // The stock object of item_123, the variant these checkouts buy (issue 14: one per variant).
  const inventory = env.INVENTORY.getByName(stockShardName("item_123")) as DurableObjectStub<InventoryObject>;
  return runInDurableObject(inventory, (_i: InventoryObject, state) =>
    state.storage.sql
      .exec<{ state: string }>("SELECT state FROM reservations WHERE id LIKE ? ORDER BY created_at", `${checkoutId}:%`)
      .toArray()
      .map((r) => r.state),
  );
}

async function verificationStatus(checkoutId: string): Promise<string> {
  return runInDurableObject(
    checkoutStub(checkoutId),
    (_c: CheckoutObject, state) =>
      JSON.parse(
        state.storage.sql.exec<{ verification: string }>("SELECT verification FROM payment_verification").one()
          .verification,
      ).status,
  );
}

describe("the verified retry dies right after its charge was captured", () => {
  it("a retry under another key finishes it: one capture, one held reservation, one order", async () => {
    const checkout = await verified();
    const charge = vi.spyOn(testProcessor, "charge");
    completionFault.at = "charged";
    expect((await complete(checkout.id))?.status, "the crashed call placed nothing").not.toBe("completed");
    const done = await complete(checkout.id);
    expect(done.status, JSON.stringify(done.messages)).toBe("completed");
    expect(await captures(charge)).toBe(1);
    // The first attempt's stock went back when the bank asked for verification; the retry's is held.
    expect(await reservations(checkout.id)).toEqual(["released", "held"]);
    expect(await orderStub(done.order.id).outbox()).toHaveLength(1);
    expect(await verificationStatus(checkout.id)).toBe("used");
  });

  it("left alone, the object's alarm places the order at the recovery deadline", async () => {
    const checkout = await verified();
    const charge = vi.spyOn(testProcessor, "charge");
    completionFault.at = "charged";
    expect((await complete(checkout.id))?.status, "the crashed call placed nothing").not.toBe("completed");
    await runInDurableObject(checkoutStub(checkout.id), (_c: CheckoutObject, state) => {
      state.storage.sql.exec("UPDATE completion_attempt SET deadline = ?", Date.now() - 1000);
    });
    expect(await runDurableObjectAlarm(checkoutStub(checkout.id))).toBe(true);
    const read = (await tool("get_checkout", { id: checkout.id })).body.result.structuredContent;
    expect(read.status).toBe("completed");
    expect(await captures(charge)).toBe(1);
    expect(await reservations(checkout.id)).toEqual(["released", "held"]);
    expect(await verificationStatus(checkout.id)).toBe("used");
  });
});
