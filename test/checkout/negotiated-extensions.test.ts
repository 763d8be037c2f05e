/**
 * Issue 10 finding 9: negotiation binds. A platform whose profile lists checkout but not the
 * fulfillment, discount or buyer_consent extensions got fulfillment and discounts applied and
 * echoed, buyer.consent kept, and a checkout stuck incomplete until it sent `$.fulfillment`.
 */
import { describe, expect, it } from "vitest";
import { ADDRESS, checkoutCall, type Json, pay, tool } from "../helpers/checkout";
import { PROFILES } from "../helpers/mcp";

const CHECKOUT_ONLY = `${PROFILES}/checkout-only.json`;

const everything = {
  line_items: [{ item: { id: "item_123" }, quantity: 2 }],
  buyer: { email: "jane@example.com", first_name: "Jane", consent: { marketing: true } },
  fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
  discounts: { codes: ["SAVE10"] },
};

const create = (profile: string) => checkoutCall("create_checkout", { checkout: everything }, undefined, profile);
const paths = (checkout: Json): string[] => (checkout.messages ?? []).map((m: Json) => m.path ?? "");

describe("extensions the platform did not negotiate neither act nor appear", () => {
  it("a checkout-only platform gets no fulfillment, discounts or consent, and no message asking for them", async () => {
    const checkout = await create(CHECKOUT_ONLY);
    expect(Object.keys(checkout.ucp.capabilities)).toEqual(["dev.ucp.shopping.checkout"]);
    expect(checkout).not.toHaveProperty("fulfillment");
    expect(checkout).not.toHaveProperty("discounts");
    expect(checkout.buyer).toEqual({ email: "jane@example.com", first_name: "Jane" });
    expect(checkout.totals.map((t: Json) => t.type)).not.toContain("items_discount");
    expect(checkout.totals.map((t: Json) => t.type)).not.toContain("fulfillment");
    expect(paths(checkout).filter((p) => p.startsWith("$.fulfillment") || p.startsWith("$.discounts"))).toEqual([]);
    expect(checkout.messages.filter((m: Json) => m.severity === "recoverable")).toEqual([]);
  });

  it("where the store needs a shipping address it cannot be sent, the checkout escalates to the buyer", async () => {
    const checkout = await create(CHECKOUT_ONLY);
    expect(checkout.status).toBe("requires_escalation");
    expect(checkout.continue_url).toMatch(/^https:\/\//);
    expect(checkout.messages).toContainEqual(
      expect.objectContaining({ type: "error", code: "fulfillment_required", severity: "requires_buyer_input" }),
    );
    const updated = await checkoutCall(
      "update_checkout",
      { id: checkout.id, checkout: everything },
      undefined,
      CHECKOUT_ONLY,
    );
    expect(updated.status).toBe("requires_escalation");
    expect(updated).not.toHaveProperty("fulfillment");
    expect(updated).not.toHaveProperty("discounts");
    const read = await checkoutCall("get_checkout", { id: checkout.id }, undefined, CHECKOUT_ONLY);
    expect(read).not.toHaveProperty("fulfillment");
    expect(read.buyer).not.toHaveProperty("consent");
  });

  it("completing the escalated checkout through the API places no order", async () => {
    const checkout = await create(CHECKOUT_ONLY);
    const done = await checkoutCall(
      "complete_checkout",
      { id: checkout.id, checkout: pay("success_token") },
      `neg-${crypto.randomUUID()}`,
      CHECKOUT_ONLY,
    );
    expect(done).not.toHaveProperty("order");
    expect(done.status).not.toBe("completed");
  });

  it("a platform that negotiated them still gets all three (the control)", async () => {
    const checkout = await create(`${PROFILES}/full.json`);
    expect(checkout.status).toBe("ready_for_complete");
    expect(checkout.fulfillment.methods[0].destinations[0].address_country).toBe("US");
    expect(checkout.discounts.codes).toEqual(["SAVE10"]);
    expect(checkout.discounts.applied.length).toBeGreaterThan(0);
    expect(checkout.buyer.consent).toEqual({ marketing: true });
  });

  it("a cart for a platform without the discount extension ignores codes and never shows them", async () => {
    const cart = { line_items: everything.line_items, discounts: { codes: ["SAVE10"] } };
    const [bare, full] = await Promise.all(
      [CHECKOUT_ONLY, `${PROFILES}/full.json`].map(async (profile) => {
        const reply = await tool("create_cart", { cart }, undefined, profile);
        return reply.body.result.structuredContent;
      }),
    );
    expect(bare.ucp.status, JSON.stringify(bare)).toBe("success");
    expect(bare).not.toHaveProperty("discounts");
    expect(bare.totals.map((t: Json) => t.type)).not.toContain("items_discount");
    expect(full.discounts.codes).toEqual(["SAVE10"]);
    expect(full.totals.map((t: Json) => t.type)).toContain("items_discount");
  });
});
