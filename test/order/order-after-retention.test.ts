/**
 * Review of issue 29: a completed session past its retention clears only the session's rows;
 * its object keeps the order and the owner. A create_checkout that derives the same id again
 * (the same platform's idempotency key, its ledger entry long pruned) starts a new session in
 * that object, and its completion charges and then "places" the order already there: a second
 * payment answered with the first order (order ids are fixed per checkout id). This was so
 * before issue 29 too (the order id was derived from owner and session), but now the object
 * itself knows it holds an order, and a create at that id is answered `taken` (a new session
 * in the platform's other id space).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CheckoutObject } from "../../durable-objects/checkout-object";
import { CLOSED_RETENTION_MS } from "../../durable-objects/checkout-object";
import { ADDRESS, checkoutCall, pay, tool } from "../helpers/checkout";
import { sessionClearedByAlarm } from "../helpers/order-home";

const checkoutStub = (id: string) => env.CHECKOUT.getByName(id) as DurableObjectStub<CheckoutObject>;

describe("a checkout id used again after its session's retention", () => {
  // Failed before the create refused such an id (review R29): a second payment answered with the first order.
  it("never takes a second payment for the order the first session placed", async () => {
    const key = crypto.randomUUID();
    const create = () =>
      checkoutCall(
        "create_checkout",
        {
          checkout: {
            line_items: [{ item: { id: "item_123" }, quantity: 1 }],
            buyer: { email: "jane@example.com", first_name: "Jane" },
            fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
          },
        },
        key,
      );
    const first = await create();
    const paid = (await tool("complete_checkout", { id: first.id, checkout: pay("success_token") }, "c-1")).body.result
      .structuredContent;
    expect(paid.status).toBe("completed");
    // 30 days on: the session is past its retention, the create's ledger entry long pruned.
    await runInDurableObject(checkoutStub(first.id), (_o: CheckoutObject, state) => {
      const row = state.storage.sql.exec<{ state: string }>("SELECT state FROM checkout").one();
      const past = Date.now() - CLOSED_RETENTION_MS - 60_000;
      const aged = JSON.stringify({ ...JSON.parse(row.state), expires_at: past });
      state.storage.sql.exec("UPDATE checkout SET state = ?", aged);
      state.storage.sql.exec("DELETE FROM ledger");
    });
    await sessionClearedByAlarm(checkoutStub(first.id));
    const again = await create();
    // A new session, in the platform's other id space: the old id holds the order.
    expect(again.id).not.toBe(first.id);
    expect(again.status).toBe("ready_for_complete");
    const second = (await tool("complete_checkout", { id: again.id, checkout: pay("success_token") }, "c-2")).body
      .result.structuredContent;
    // Its own order, not the first one's; the first is still there.
    expect(second.status).toBe("completed");
    expect(second.order.id).not.toBe(paid.order.id);
    const old = (await tool("get_order", { id: paid.order.id })).body.result.structuredContent;
    expect(old.id).toBe(paid.order.id);
  });
});
