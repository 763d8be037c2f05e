import { describe, expect, it } from "vitest";
import { ADDRESS, checkoutCall, expectTotalsAddUp, type Json, pay, readyCheckout, tool } from "../helpers/checkout";
import { PROFILES } from "../helpers/mcp";
import { OFFICIAL, validateOfficial } from "../helpers/official-schema";

describe("create and update", () => {
  it("starts incomplete, saying what is missing, with payment handlers in the envelope", async () => {
    const checkout = await checkoutCall("create_checkout", {
      checkout: { line_items: [{ item: { id: "item_123" }, quantity: 2 }] },
    });
    expect(checkout.status).toBe("incomplete");
    expect(checkout.id).toMatch(/^chk_/);
    expect(Object.keys(checkout.ucp.payment_handlers).length).toBeGreaterThan(0);
    expect(checkout.ucp.capabilities["dev.ucp.shopping.checkout"]).toBeDefined();
    const paths = checkout.messages.map((m: Json) => m.path);
    expect(paths).toEqual(expect.arrayContaining(["$.buyer.email", "$.fulfillment"]));
    // A hand-off token, never the API id (src/lib/handoff-token.ts).
    expect(checkout.continue_url).toMatch(/^https:\/\/shop\.example\.com\/checkout\/[A-Za-z0-9_-]+$/);
    expect(checkout.continue_url).not.toContain(checkout.id.slice(4));
    expectTotalsAddUp(checkout);
  });

  it("becomes ready with an email and a shipping address; shipping joins the totals", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    expect(checkout.status).toBe("ready_for_complete");
    expect(checkout.messages).toBeUndefined();
    const method = checkout.fulfillment.methods[0];
    expect(method.selected_destination_id).toBe(method.destinations[0].id);
    expect(method.groups[0].selected_option_id).toBe("standard");
    expect(checkout.totals.map((t: Json) => t.type)).toEqual(["subtotal", "fulfillment", "total"]);
    expect(checkout.totals.find((t: Json) => t.type === "fulfillment").amount).toBe(500);
    expectTotalsAddUp(checkout);
  });

  it("keeps the destination when an update only picks the option (seed 002's partial update)", async () => {
    const created = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const updated = await checkoutCall("update_checkout", {
      id: created.id,
      checkout: {
        line_items: [{ item: { id: "item_123" }, quantity: 1 }],
        buyer: { email: "jane@example.com" },
        fulfillment: {
          methods: [
            {
              id: "shipping_1",
              line_item_ids: ["item_123"],
              groups: [{ id: "package_1", selected_option_id: "express" }],
            },
          ],
        },
      },
    });
    const method = updated.fulfillment.methods[0];
    expect(method.destinations).toEqual(created.fulfillment.methods[0].destinations);
    expect(method.groups[0].selected_option_id).toBe("express");
    expect(updated.totals.find((t: Json) => t.type === "fulfillment").amount).toBe(1500);
    expectTotalsAddUp(updated);
  });

  it("applies discount codes as negative totals with allocations, and warns about rejected ones", async () => {
    const checkout = await readyCheckout([{ id: "item_456", quantity: 2 }], {
      discounts: { codes: ["save10", "BOGUS"] },
    });
    expect(checkout.discounts.codes).toEqual(["save10", "BOGUS"]);
    expect(checkout.discounts.applied[0]).toMatchObject({ code: "SAVE10", amount: 1500 });
    expect(checkout.totals.find((t: Json) => t.type === "items_discount").amount).toBe(-1500);
    expect(checkout.messages).toEqual([
      expect.objectContaining({ type: "warning", code: "discount_code_invalid", path: "$.discounts.codes[1]" }),
    ]);
    expect(checkout.status).toBe("ready_for_complete");
    expectTotalsAddUp(checkout);
  });

  it("ships free at the threshold, and charges tax by destination region", async () => {
    const checkout = await checkoutCall("create_checkout", {
      checkout: {
        line_items: [{ item: { id: "item_456" }, quantity: 1 }],
        buyer: { email: "a@example.com" },
        fulfillment: {
          methods: [{ type: "shipping", destinations: [{ ...ADDRESS, address_region: "CA", postal_code: "94105" }] }],
        },
      },
    });
    expect(checkout.totals.find((t: Json) => t.type === "fulfillment").amount).toBe(0);
    expect(checkout.totals.find((t: Json) => t.type === "tax")).toMatchObject({ amount: Math.round(7500 * 0.0725) });
    expectTotalsAddUp(checkout);
  });

  it("stores and returns buyer consent", async () => {
    const consent = { analytics: true, marketing: false };
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const updated = await checkoutCall("update_checkout", {
      id: checkout.id,
      checkout: {
        line_items: [{ item: { id: "item_123" }, quantity: 1 }],
        buyer: { email: "jane@example.com", consent },
      },
    });
    expect(updated.buyer.consent).toEqual(consent);
    expect((await checkoutCall("get_checkout", { id: checkout.id })).buyer.consent).toEqual(consent);
  });

  it("creates from a cart: the cart's lines win, and the same cart gives the same checkout", async () => {
    const cart = (
      await tool("create_cart", {
        cart: { line_items: [{ item: { id: "item_456" }, quantity: 3 }], buyer: { email: "c@example.com" } },
      })
    ).body.result.structuredContent;
    const first = await checkoutCall("create_checkout", {
      checkout: { cart_id: cart.id, line_items: [{ item: { id: "item_123" }, quantity: 1 }] },
    });
    expect(first.line_items.map((l: Json) => [l.item.id, l.quantity])).toEqual([["item_456", 3]]);
    expect(first.buyer.email).toBe("c@example.com");
    const again = await checkoutCall("create_checkout", { checkout: { cart_id: cart.id } });
    expect(again.id).toBe(first.id);
  });
});

describe("complete and get_order", () => {
  it("completes with the success token, then the order reads back for its platform only", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 2 }]);
    const done = await checkoutCall(
      "complete_checkout",
      { id: checkout.id, checkout: pay("success_token") },
      crypto.randomUUID(),
    );
    expect(done.status).toBe("completed");
    expect(done.order.id).toMatch(/^ord_/);
    expect(done.order.permalink_url).toMatch(/^https:\/\/shop\.example\.com\/orders\/[A-Za-z0-9_-]+$/);
    expect(done.order.permalink_url).not.toContain(done.order.id.slice(4));
    expect(done).not.toHaveProperty("continue_url");
    expect(JSON.stringify(done)).not.toContain("success_token");
    const order = (await tool("get_order", { id: done.order.id })).body.result.structuredContent;
    expect(validateOfficial(OFFICIAL.order, order).errors).toEqual([]);
    expect(order).toMatchObject({
      id: done.order.id,
      checkout_id: checkout.id,
      currency: "USD",
      totals: checkout.totals,
    });
    expect(order.line_items[0]).toMatchObject({
      quantity: { original: 2, total: 2, fulfilled: 0 },
      status: "processing",
    });
    expect(order.fulfillment.expectations[0].destination.postal_code).toBe("62701");
    const stranger = (await tool("get_order", { id: done.order.id }, undefined, `${PROFILES}/unique-stranger.json`))
      .body.result.structuredContent;
    expect(stranger.messages[0]).toMatchObject({ code: "unauthorized", severity: "unrecoverable" });
    const unknown = (await tool("get_order", { id: "ord_nope" })).body.result.structuredContent;
    expect(unknown.messages[0].code).toBe("not_found");
  });

  it("keeps the checkout open after a decline, and completes with another instrument", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const declined = await checkoutCall(
      "complete_checkout",
      { id: checkout.id, checkout: pay("fail_token") },
      crypto.randomUUID(),
    );
    expect(declined.status).toBe("ready_for_complete");
    expect(declined.messages[0]).toMatchObject({ code: "payment_failed", severity: "recoverable" });
    expect(declined.order).toBeUndefined();
    const done = await checkoutCall(
      "complete_checkout",
      { id: checkout.id, checkout: pay("success_token") },
      crypto.randomUUID(),
    );
    expect(done.status).toBe("completed");
  });

  it("escalates to the buyer when the payment needs them", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const escalated = await checkoutCall(
      "complete_checkout",
      { id: checkout.id, checkout: pay("requires_3ds_token") },
      crypto.randomUUID(),
    );
    expect(escalated.status).toBe("requires_escalation");
    expect(escalated.continue_url).toMatch(/^https:\/\//);
    expect(escalated.messages[0]).toMatchObject({ code: "requires_3ds", severity: "requires_buyer_input" });
  });

  it("refuses a handler it does not advertise, and an incomplete checkout", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const wrong = await checkoutCall(
      "complete_checkout",
      { id: checkout.id, checkout: pay("success_token", "other_handler") },
      crypto.randomUUID(),
    );
    expect(wrong.status).toBe("ready_for_complete");
    expect(wrong.messages.at(-1)).toMatchObject({
      code: "invalid_handler",
      path: "$.payment.instruments[0].handler_id",
    });
    const open = await checkoutCall("create_checkout", {
      checkout: { line_items: [{ item: { id: "item_123" }, quantity: 1 }] },
    });
    const notReady = await checkoutCall(
      "complete_checkout",
      { id: open.id, checkout: pay("success_token") },
      crypto.randomUUID(),
    );
    expect(notReady.status).toBe("incomplete");
    expect(notReady.messages.at(-1).code).toBe("not_ready");
  });

  it("requires an idempotency key to complete", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const reply = await tool("complete_checkout", { id: checkout.id, checkout: pay("success_token") });
    expect(reply.body.error.code).toBe(-32602);
  });

  it("replays a retried complete byte for byte: one order, one charge", async () => {
    const checkout = await readyCheckout([{ id: "item_456", quantity: 1 }]);
    const key = crypto.randomUUID();
    const replies = await Promise.all(
      [0, 1].map(() => tool("complete_checkout", { id: checkout.id, checkout: pay("success_token") }, key)),
    );
    const statuses = replies.map((r) => r.body.result.structuredContent.status).sort();
    expect(statuses).toContain("completed");
    const retried = await tool("complete_checkout", { id: checkout.id, checkout: pay("success_token") }, key);
    const completed = replies.find((r) => r.body.result.structuredContent.status === "completed");
    expect(retried.body.result.content[0].text).toBe(completed?.body.result.content[0].text);
    const other = await tool(
      "complete_checkout",
      { id: checkout.id, checkout: pay("success_token") },
      crypto.randomUUID(),
    );
    const again = other.body.result.structuredContent;
    expect(again.status).toBe("completed");
    expect(again.order.id).toBe(completed?.body.result.structuredContent.order.id);
  });
});

describe("closed checkouts change nothing", () => {
  it("complete after cancel, cancel after complete, update after either: a clear error, state unchanged", async () => {
    const a = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const canceled = await checkoutCall("cancel_checkout", { id: a.id }, crypto.randomUUID());
    expect(canceled.status).toBe("canceled");
    const late = await checkoutCall(
      "complete_checkout",
      { id: a.id, checkout: pay("success_token") },
      crypto.randomUUID(),
    );
    expect(late.status).toBe("canceled");
    expect(late.messages.at(-1)).toMatchObject({ code: "invalid_status", severity: "unrecoverable" });
    expect(late.order).toBeUndefined();

    const b = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const done = await checkoutCall(
      "complete_checkout",
      { id: b.id, checkout: pay("success_token") },
      crypto.randomUUID(),
    );
    const cancel = await checkoutCall("cancel_checkout", { id: b.id }, crypto.randomUUID());
    expect(cancel.status).toBe("completed");
    expect(cancel.messages.at(-1).code).toBe("invalid_status");
    const update = await checkoutCall("update_checkout", {
      id: b.id,
      checkout: { line_items: [{ item: { id: "item_456" }, quantity: 9 }] },
    });
    expect(update.line_items).toEqual(done.line_items);
    expect((await checkoutCall("get_checkout", { id: b.id })).order).toEqual(done.order);
  });
});
