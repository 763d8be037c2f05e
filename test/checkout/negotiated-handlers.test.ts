/**
 * Issue 10 finding 9 (payment): a checkout's `ucp.payment_handlers` is what the store offers
 * narrowed to the handlers and instrument types the platform's profile declares
 * (spec-digest §2.6), and completion pays only through a handler that survived.
 */
import { describe, expect, it } from "vitest";
import { checkoutCall, type Json, pay, readyCheckout } from "../helpers/checkout";
import { PROFILES } from "../helpers/mcp";

const TEST_HANDLER = "com.example.shop.test_payment";

async function placeWith(profile: string): Promise<{ created: Json; done: Json }> {
  const created = await readyCheckout([{ id: "item_123", quantity: 1 }], {}, profile);
  const done = await checkoutCall(
    "complete_checkout",
    { id: created.id, checkout: pay("success_token") },
    `handlers-${crypto.randomUUID()}`,
    profile,
  );
  return { created, done };
}

describe("payment handlers are filtered by what the platform declares", () => {
  it("a platform declaring only another provider's handler is offered none and cannot pay through ours", async () => {
    const { created, done } = await placeWith(`${PROFILES}/wallet-only.json`);
    expect(created.ucp.payment_handlers).toEqual({});
    expect(done).not.toHaveProperty("order");
    expect(done.status).not.toBe("completed");
    expect(done.messages).toContainEqual(
      expect.objectContaining({ code: "invalid_handler", path: "$.payment.instruments[0].handler_id" }),
    );
  });

  it("a platform declaring our handler for an instrument type it does not take is offered none", async () => {
    const { created, done } = await placeWith(`${PROFILES}/test-handler-wallet.json`);
    expect(created.ucp.payment_handlers).toEqual({});
    expect(done).not.toHaveProperty("order");
  });

  it("a platform declaring our handler for cards is offered it and can pay (control)", async () => {
    const { created, done } = await placeWith(`${PROFILES}/test-handler-card.json`);
    expect(Object.keys(created.ucp.payment_handlers)).toEqual([TEST_HANDLER]);
    expect(created.ucp.payment_handlers[TEST_HANDLER][0].available_instruments).toEqual([{ type: "card" }]);
    expect(done.status).toBe("completed");
  });

  it("a platform declaring no handlers at all is offered the store's (control: the official samples declare {})", async () => {
    const { created } = await placeWith(`${PROFILES}/full.json`);
    expect(Object.keys(created.ucp.payment_handlers)).toEqual([TEST_HANDLER]);
  });
});
