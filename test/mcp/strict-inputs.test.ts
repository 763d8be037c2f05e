/**
 * Issue 10 finding 10: inputs as strict as the published schemas. Before: create_checkout
 * with no line_items created a checkout, quantity took any integer (the published schema
 * said minimum -9007199254740991), a crypto_wallet instrument was paid through the
 * card-only test handler, deeply nested arguments got "503, retry in 1 s", and one
 * anonymous request could store ~0.9 MB in a checkout's idempotency ledger.
 */
import { describe, expect, it } from "vitest";
import { ADDRESS, type Json, pay, readyCheckout, tool } from "../helpers/checkout";
import { callTool, post, rpc } from "../helpers/mcp";

const inputSchema = async (name: string): Promise<Json> => {
  const listed = await rpc("tools/list", {});
  return listed.body.result.tools.find((t: Json) => t.name === name).inputSchema;
};

describe("line items", () => {
  it("create_checkout without line_items (and no cart_id) is -32602 and creates nothing", async () => {
    for (const checkout of [{}, { line_items: [] }, { buyer: { email: "jane@example.com" } }]) {
      const reply = await callTool("create_checkout", { checkout });
      expect(reply.body.error?.code, JSON.stringify(reply.body)).toBe(-32602);
      expect(reply.body.error.data.issues[0].path).toBe("$.checkout.line_items");
    }
  });

  it("create_checkout from a cart takes cart.md's own body, cart_id with line_items: []", async () => {
    const cart = await callTool("create_cart", { cart: { line_items: [{ item: { id: "item_123" }, quantity: 2 }] } });
    const cartId = cart.body.result.structuredContent.id;
    const reply = await callTool("create_checkout", { checkout: { cart_id: cartId, line_items: [] } });
    expect(reply.body.error, JSON.stringify(reply.body)).toBeUndefined();
    const checkout = reply.body.result.structuredContent;
    expect(checkout.line_items.map((l: { quantity: number }) => l.quantity)).toEqual([2]);
  });

  it("the published create_checkout schema requires line_items unless cart_id is given", async () => {
    const schema = await inputSchema("create_checkout");
    const checkout = schema.properties.checkout;
    expect(checkout.anyOf).toEqual([
      { required: ["line_items"], properties: { line_items: { minItems: 1 } } },
      { required: ["cart_id"] },
    ]);
  });

  it.each([0, -1, 1000, Number.MAX_SAFE_INTEGER])("quantity %d is -32602 naming the line", async (quantity) => {
    for (const name of ["create_checkout", "create_cart"]) {
      const key = name === "create_cart" ? "cart" : "checkout";
      const reply = await callTool(name, { [key]: { line_items: [{ item: { id: "item_123" }, quantity }] } });
      expect(reply.body.error?.code, JSON.stringify(reply.body)).toBe(-32602);
      expect(reply.body.error.data.issues[0].path).toBe(`$.${key}.line_items[0].quantity`);
    }
  });

  it("publishes quantity as 1..999 in every tool that takes lines", async () => {
    for (const [name, key] of [
      ["create_checkout", "checkout"],
      ["update_checkout", "checkout"],
      ["create_cart", "cart"],
      ["update_cart", "cart"],
    ]) {
      const schema = await inputSchema(name as string);
      const quantity = schema.properties[key as string].properties.line_items.items.properties.quantity;
      expect(quantity, name).toMatchObject({ type: "integer", minimum: 1, maximum: 999 });
    }
  });

  it("the seeds' quantities (1 to 100) are still accepted", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 100 }]);
    expect(checkout.line_items[0].quantity).toBeGreaterThan(0);
  });
});

describe("payment instruments", () => {
  const instrument = (type: string) => {
    const card = pay("success_token").payment.instruments[0] as Json;
    return { payment: { instruments: [{ ...card, type }] } };
  };

  it("an instrument type the handler does not accept is -32602 and nothing is charged", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const reply = await tool(
      "complete_checkout",
      { id: checkout.id, checkout: instrument("crypto_wallet") },
      "k-crypto-1",
    );
    expect(reply.body.error?.code, JSON.stringify(reply.body)).toBe(-32602);
    expect(reply.body.error.data.issues[0]).toMatchObject({ path: "$.checkout.payment.instruments[0].type" });
    expect(reply.body.error.message).toContain("card");
    const after = await tool("get_checkout", { id: checkout.id });
    expect(after.body.result.structuredContent.status).toBe("ready_for_complete");
    expect(after.body.result.structuredContent.order).toBeUndefined();
  });

  it("update_checkout refuses one too, and a card still completes", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const update = await tool("update_checkout", {
      id: checkout.id,
      checkout: {
        line_items: [{ item: { id: "item_123" }, quantity: 1 }],
        buyer: { email: "jane@example.com" },
        fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
        ...instrument("crypto_wallet"),
      },
    });
    expect(update.body.error?.code, JSON.stringify(update.body)).toBe(-32602);
    const done = await tool("complete_checkout", { id: checkout.id, checkout: instrument("card") }, "k-card-1");
    expect(done.body.result?.structuredContent.status, JSON.stringify(done.body)).toBe("completed");
  });
});

describe("inputs that can never succeed", () => {
  const nested = (depth: number): Json => {
    let value: Json = "deep";
    for (let i = 0; i < depth; i++) value = { a: value };
    return value;
  };

  it.each([100, 5000])("arguments nested %d deep are -32602 (never a retryable 503)", async (depth) => {
    const reply = await callTool("create_checkout", {
      // In context, 5000 levels used to reach the Checkout object and come back as a 503.
      checkout: { line_items: [{ item: { id: "item_123" }, quantity: 1 }], context: { extra: nested(depth) } },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error?.code, JSON.stringify(reply.body)).toBe(-32602);
    expect(reply.body.error.message).toMatch(/nest/i);
    expect(reply.body.error.data?.retry_after).toBeUndefined();
  });

  it("ordinary nesting (the seeds' deepest documents) still works", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }], { signals: { "dev.example": nested(8) } });
    expect(checkout.status).toBe("ready_for_complete");
  });

  it("one anonymous request cannot store ~0.9 MB in a checkout's ledger", async () => {
    const big = "x".repeat(900_000);
    const reply = await post(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "create_checkout",
          arguments: {
            meta: { "ucp-agent": { profile: "https://agent.test/profiles/full.json" }, "idempotency-key": "big-1" },
            checkout: {
              line_items: [{ item: { id: "item_123" }, quantity: 1 }],
              buyer: { email: "a@b.co", note: big },
            },
          },
        },
      },
      {},
      { anonymous: true },
    );
    expect(reply.body.error?.code, JSON.stringify(reply.body).slice(0, 300)).toBe(-32602);
    expect(reply.body.error.message).toMatch(/too large/i);
    expect(JSON.stringify(reply.body).length).toBeLessThan(2000);
  });
});
