import { describe, expect, it } from "vitest";
import demo from "../../data/demo-catalog.json";
import { callTool, FULL_PROFILE, meta, rpc } from "../helpers/mcp";
import { OFFICIAL, validateOfficial } from "../helpers/official-schema";

type Variant = {
  id: string;
  stock: number;
  price: { amount: number };
  availability?: { available?: boolean; status?: string };
};
const variants: Variant[] = demo.products.flatMap((p) => p.variants as Variant[]);
const lowStock = variants.find((v) => v.availability?.status === "in_stock" && v.stock > 1 && v.stock <= 5) as Variant;
const backorder = variants.find((v) => v.availability?.status === "backorder") as Variant;
const outOfStock = variants.find((v) => v.availability?.available === false) as Variant;

async function cartCall(tool: string, args: Record<string, unknown>, extraMeta: Record<string, unknown> = {}) {
  const reply = await rpc("tools/call", { name: tool, arguments: { meta: meta(FULL_PROFILE, extraMeta), ...args } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.result.structuredContent;
}

async function createCart(cart: Record<string, unknown>) {
  const payload = await cartCall("create_cart", { cart });
  expect(validateOfficial(OFFICIAL.cart, payload).errors).toEqual([]);
  return payload;
}

describe("create_cart", () => {
  it("prices from the catalog, ignoring any title or price the client sends", async () => {
    const cart = await createCart({
      line_items: [{ item: { id: "item_456", title: "Free jeans", price: 1 }, quantity: 2 }],
    });
    expect(cart.line_items[0].item).toEqual(
      expect.objectContaining({ id: "item_456", title: "Blue Jeans", price: 7500 }),
    );
    expect(cart.line_items[0].totals).toEqual([
      { type: "subtotal", amount: 15000 },
      { type: "total", amount: 15000 },
    ]);
    expect(cart.currency).toBe("USD");
    // the cart and the extensions of it that were negotiated (discount extends carts too), nothing else
    expect(cart.ucp.capabilities).toEqual({
      "dev.ucp.shopping.cart": [{ version: "2026-04-08" }],
      "dev.ucp.shopping.discount": [{ version: "2026-04-08" }],
    });
  });

  it("adds up lines into exactly one subtotal and one total in integer minor units", async () => {
    const cart = await createCart({
      line_items: [
        { item: { id: "var_abc123_blue_12" }, quantity: 1 },
        { item: { id: "item_123" }, quantity: 3 },
      ],
    });
    const sum = cart.line_items.reduce(
      (s: number, l: { item: { price: number }; quantity: number }) => s + l.item.price * l.quantity,
      0,
    );
    expect(sum).toBe(15000 + 3 * 2500);
    expect(cart.totals).toEqual([
      { type: "subtotal", amount: sum },
      { type: "total", amount: sum },
    ]);
  });

  it("takes a product id as its default (first) variant", async () => {
    const cart = await createCart({ line_items: [{ item: { id: "prod_abc123" }, quantity: 1 }] });
    expect(cart.line_items[0].item.id).toBe("var_abc123_blue_10");
    expect(cart.line_items[0].item.title).toBe("Runner Pro - Blue / Size 10");
  });

  // A quantity outside 1..999 is -32602 before any pricing (test/mcp/strict-inputs.test.ts).
  it("reports unknown and unavailable items as messages with JSONPaths, and still returns the cart", async () => {
    const cart = await createCart({
      line_items: [
        { item: { id: "item_123" }, quantity: 1 },
        { item: { id: "nope_999" }, quantity: 1 },
        { item: { id: outOfStock.id }, quantity: 1 },
      ],
    });
    expect(cart.line_items.map((l: { item: { id: string } }) => l.item.id)).toEqual(["item_123"]);
    expect(cart.messages).toEqual([
      expect.objectContaining({
        type: "error",
        code: "not_found",
        path: "$.line_items[1].item.id",
        severity: "recoverable",
      }),
      expect.objectContaining({ type: "error", code: "out_of_stock", path: "$.line_items[2]" }),
    ]);
  });

  it("holds no more than what is in stock, saying so with quantity_adjusted", async () => {
    const cart = await createCart({
      line_items: [
        { item: { id: "item_123" }, quantity: 1 },
        { item: { id: lowStock.id }, quantity: lowStock.stock + 10 },
      ],
    });
    expect(cart.line_items[1].quantity).toBe(lowStock.stock);
    expect(cart.messages).toEqual([
      expect.objectContaining({ type: "warning", code: "quantity_adjusted", path: "$.line_items[1].quantity" }),
    ]);
    expect(cart.messages[0].content).toContain(String(lowStock.stock));
  });

  it("counts stock across lines of the same item", async () => {
    const cart = await createCart({
      line_items: [
        { item: { id: lowStock.id }, quantity: lowStock.stock - 1 },
        { item: { id: lowStock.id }, quantity: 5 },
      ],
    });
    expect(cart.line_items.map((l: { quantity: number }) => l.quantity)).toEqual([lowStock.stock - 1, 1]);
  });

  it("does not limit backorder items by stock, only by the per-line maximum (over it is -32602: test/mcp/strict-inputs)", async () => {
    const cart = await createCart({ line_items: [{ item: { id: backorder.id }, quantity: 999 }] });
    expect(cart.line_items[0].quantity).toBe(999);
    expect(cart.messages).toBeUndefined();
  });

  it("creates no cart when nothing requested can be bought: an error response", async () => {
    const payload = await cartCall("create_cart", {
      cart: { line_items: [{ item: { id: outOfStock.id }, quantity: 1 }] },
    });
    expect(validateOfficial(OFFICIAL.errorResponse, payload).errors).toEqual([]);
    expect(payload.ucp.status).toBe("error");
    expect(payload.id).toBeUndefined();
    expect(payload.messages[0]).toMatchObject({ code: "out_of_stock", severity: "unrecoverable" });
  });

  it("allows an empty cart", async () => {
    const cart = await createCart({ line_items: [] });
    expect(cart.totals).toEqual([
      { type: "subtotal", amount: 0 },
      { type: "total", amount: 0 },
    ]);
  });

  it("issues unguessable cart_ ids, a continue_url on the store's origin, and an expiry days away", async () => {
    const before = Date.now();
    const a = await createCart({ line_items: [{ item: { id: "item_123" }, quantity: 1 }] });
    const b = await createCart({ line_items: [{ item: { id: "item_123" }, quantity: 1 }] });
    expect(a.id).toMatch(/^cart_[A-Za-z0-9_-]{32}$/);
    expect(a.id).not.toBe(b.id);
    // A hand-off token, never the API id (src/lib/handoff-token.ts).
    expect(a.continue_url).toMatch(/^https:\/\/shop\.example\.com\/cart\/[A-Za-z0-9_-]+$/);
    expect(a.continue_url).not.toContain(a.id.slice(5));
    const expires = Date.parse(a.expires_at);
    expect(expires - before).toBeGreaterThanOrEqual(72 * 3600_000 - 5_000);
    expect(expires - before).toBeLessThanOrEqual(72 * 3600_000 + 60_000);
  });

  it("keeps context and buyer, and notes a currency it does not offer", async () => {
    const cart = await createCart({
      line_items: [{ item: { id: "item_123" }, quantity: 1 }],
      context: { address_country: "DE", currency: "EUR" },
      buyer: { email: "ada@example.com" },
    });
    expect(cart.context).toEqual({ address_country: "DE", currency: "EUR" });
    expect(cart.buyer).toEqual({ email: "ada@example.com" });
    expect(cart.currency).toBe("USD");
    expect(cart.messages).toEqual([expect.objectContaining({ type: "info", code: "currency_unavailable" })]);
  });

  it.each([
    ["a fractional quantity", { line_items: [{ item: { id: "item_123" }, quantity: 1.5 }] }],
    ["a string quantity", { line_items: [{ item: { id: "item_123" }, quantity: "2" }] }],
    ["an item without id", { line_items: [{ item: {}, quantity: 1 }] }],
    ["line_items that is not an array", { line_items: { item: "x" } }],
    ["over 100 lines", { line_items: Array.from({ length: 101 }, () => ({ item: { id: "item_123" }, quantity: 1 })) }],
  ])("refuses %s with -32602", async (_, cart) => {
    const reply = await callTool("create_cart", { cart });
    expect(reply.body.error.code).toBe(-32602);
    expect(reply.body.error.data.issues[0].path).toMatch(/^\$\.cart/);
  });
});

describe("update_cart, get_cart, cancel_cart", () => {
  it("replaces the whole cart, keeping the ids of lines it keeps", async () => {
    const cart = await createCart({
      line_items: [
        { item: { id: "item_123" }, quantity: 1 },
        { item: { id: "item_456" }, quantity: 1 },
      ],
      buyer: { email: "a@example.com" },
    });
    const updated = await cartCall("update_cart", {
      id: cart.id,
      cart: {
        line_items: [
          { id: "li_2", item: { id: "item_456" }, quantity: 4 },
          { item: { id: "var_abc123_red_9" }, quantity: 1 },
        ],
      },
    });
    expect(validateOfficial(OFFICIAL.cart, updated).errors).toEqual([]);
    expect(
      updated.line_items.map((l: { id: string; item: { id: string }; quantity: number }) => [
        l.id,
        l.item.id,
        l.quantity,
      ]),
    ).toEqual([
      ["li_2", "item_456", 4],
      ["li_3", "var_abc123_red_9", 1],
    ]);
    expect(updated.buyer).toBeUndefined();
    expect(updated.totals[1].amount).toBe(4 * 7500 + 12000);
    const read = await cartCall("get_cart", { id: cart.id });
    expect(read).toEqual({ ...updated });
  });

  it("refuses a cart.id that contradicts the top-level id", async () => {
    const cart = await createCart({ line_items: [] });
    const reply = await callTool("update_cart", { id: cart.id, cart: { id: "cart_other", line_items: [] } });
    expect(reply.body.error).toMatchObject({ code: -32602, data: { path: "$.cart.id" } });
  });

  it("requires an idempotency key to cancel", async () => {
    const cart = await createCart({ line_items: [] });
    const reply = await callTool("cancel_cart", { id: cart.id });
    expect(reply.body.error.code).toBe(-32602);
    expect(reply.body.error.message).toMatch(/idempotency-key/);
  });

  it("returns the cart as it was on cancel; afterwards every operation is not_found", async () => {
    const cart = await createCart({ line_items: [{ item: { id: "item_123" }, quantity: 2 }] });
    const canceled = await cartCall("cancel_cart", { id: cart.id }, { "idempotency-key": crypto.randomUUID() });
    expect(canceled.id).toBe(cart.id);
    expect(canceled.line_items).toEqual(cart.line_items);
    for (const [tool, args, extra] of [
      ["get_cart", { id: cart.id }, {}],
      ["update_cart", { id: cart.id, cart: { line_items: [] } }, {}],
      ["cancel_cart", { id: cart.id }, { "idempotency-key": crypto.randomUUID() }],
    ] as const) {
      const payload = await cartCall(tool, args, extra);
      expect(payload.ucp.status).toBe("error");
      expect(payload.messages[0].code).toBe("not_found");
      expect(validateOfficial(OFFICIAL.errorResponse, payload).errors).toEqual([]);
    }
  });
});

describe("discount codes on carts", () => {
  it("applies a code as an items_discount, echoes the codes and warns about rejected ones", async () => {
    const cart = await createCart({
      line_items: [{ item: { id: "item_456" }, quantity: 2 }],
      discounts: { codes: ["SAVE10", "nope"] },
    });
    expect(cart.discounts.codes).toEqual(["SAVE10", "nope"]);
    expect(cart.discounts.applied[0]).toMatchObject({ code: "SAVE10", amount: 1500 });
    expect(cart.line_items[0].totals).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: "items_discount", amount: -1500 })]),
    );
    expect(cart.totals.find((t: { type: string }) => t.type === "total").amount).toBe(15000 - 1500);
    expect(cart.messages).toEqual([
      expect.objectContaining({ code: "discount_code_invalid", path: "$.discounts.codes[1]" }),
    ]);
  });

  it("carries the cart's codes into a checkout made from it", async () => {
    const cart = await createCart({
      line_items: [{ item: { id: "item_456" }, quantity: 1 }],
      discounts: { codes: ["SAVE10"] },
    });
    const checkout = await cartCall("create_checkout", { checkout: { cart_id: cart.id } });
    expect(checkout.discounts.codes).toEqual(["SAVE10"]);
    expect(checkout.totals.find((t: { type: string }) => t.type === "items_discount").amount).toBe(-750);
  });
});
