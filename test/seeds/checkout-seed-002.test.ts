/**
 * Seed 002 (checkout MCP binding): every parseable request example, replayed in order, is
 * answered with the example's shape, validates against the official 2026-04-08 checkout
 * schemas (with fulfillment, discount and buyer_consent), and its totals add up. The seed's
 * complete_checkout examples elide the payment (`{...}`), so a real one is sent in their shape.
 */
import { describe, expect, it } from "vitest";
import { payloadOf, toolName } from "../helpers/cart-seed";
import { expectTotalsAddUp, type Json, readyCheckout } from "../helpers/checkout";
import { alignIds, unwrap } from "../helpers/checkout-seed";
import { post } from "../helpers/mcp";
import { validateCheckout } from "../helpers/official-schema";
import { jsonBlocks, missingKeys, requestExamples } from "../helpers/seed-examples";
import { seedDocument } from "../helpers/seeds";

// Absent seed documents skip every suite that reads them (see test/helpers/ucp-material.plugin.ts).
const seed = seedDocument("002") ?? "";

const SEED_PROFILE = "https://platform.example/profiles/v2026-01/shopping-agent.json";
const examples = requestExamples(seed);

/** A real payment in the shape of the seed's `checkout: { "payment": {...} }`. */
const payment = {
  payment: {
    instruments: [
      {
        id: "instr_1",
        handler_id: "mock_payment_handler",
        type: "card",
        credential: { type: "token", token: "success_token" },
      },
    ],
  },
};

/** A successful checkout reply: HTTP 200, same JSON-RPC id, official schemas, totals add up. */
function expectCheckout(reply: { status: number; body: Json }, id: unknown): Json {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(reply.body.id).toBe(id);
  const payload = payloadOf(reply.body.result);
  expect(payload?.ucp, JSON.stringify(reply.body)).toMatchObject({ version: "2026-04-08", status: "success" });
  expect(validateCheckout(payload)).toEqual([]);
  expectTotalsAddUp(payload);
  return payload;
}

describe.skipIf(!seed)("seed 002 checkout examples", () => {
  it("extracts exactly the parseable requests: create and update (the rest elide JSON with {...})", () => {
    expect(examples.map((e) => toolName(e.request))).toEqual(["create_checkout", "update_checkout"]);
    expect(examples.every((e) => e.response !== undefined)).toBe(true);
    // Not JSON, so not extracted: the metadata-only create fragment (`"checkout": { ... }`)
    // and both complete_checkout examples (`"payment": {...}`), tools/call and OpenRPC form.
    expect(seed).toMatch(/"name": "create_checkout",\s*"arguments": \{[\s\S]*?"checkout": \{ \.\.\. \}/);
    expect(seed.match(/"name": "complete_checkout"/g)).toHaveLength(1);
    expect(seed.match(/"method": "complete_checkout"/g)).toHaveLength(1);
    const requests = (jsonBlocks(seed) as Json[]).filter((b) => typeof b.method === "string");
    expect(requests).toHaveLength(2);
  });

  it("replays create then update (on the created id) with the example's shape", async () => {
    let checkoutId: string | undefined;
    const payloads: Json[] = [];
    for (const example of examples) {
      const text = JSON.stringify(example.request);
      // The seed's `checkout_abc123` stands for the checkout the create made.
      const request = JSON.parse(checkoutId ? text.replaceAll("checkout_abc123", checkoutId) : text);
      const tool = toolName(request);
      const payload = expectCheckout(await post(request), request.id);
      // Keys only (values are the example merchant's data); ids aligned, see alignIds().
      const expected = unwrap(example.response?.result, "checkout");
      expect(missingKeys(alignIds(expected, payload), payload), tool).toEqual([]);
      if (tool === "create_checkout") checkoutId = payload.id;
      payloads.push(payload);
    }
    const [created, updated] = payloads;
    // The seed's buyer and address make the checkout complete here (the example merchant
    // still said incomplete: a data-dependent status, not a shape difference).
    expect(created.status).toBe("ready_for_complete");
    expect(created.buyer).toEqual({ email: "jane.doe@example.com", first_name: "Jane", last_name: "Doe" });
    expect(created.line_items).toEqual([
      expect.objectContaining({ item: expect.objectContaining({ id: "item_123" }), quantity: 1 }),
    ]);
    expect(created.fulfillment.methods[0].groups[0].selected_option_id).toBe("standard");
    expect(updated.id).toBe(created.id);
    expect(updated.fulfillment.methods[0].groups[0].selected_option_id).toBe("express");
    expect(updated.fulfillment.methods[0].destinations).toEqual(created.fulfillment.methods[0].destinations);
    const shipping = (c: Json) => c.totals.find((t: Json) => t.type === "fulfillment").amount;
    expect(shipping(updated)).toBeGreaterThan(shipping(created));
  });

  it("answers the seed's business outcome (more than in stock) with its shape: quantity adjusted, a warning", async () => {
    const outcome = (jsonBlocks(seed) as Json[]).find(
      (b) => unwrap(b.result, "checkout")?.messages?.[0]?.code === "quantity_adjusted",
    );
    expect(outcome).toBeDefined();
    const expected = unwrap(outcome?.result, "checkout");
    const stock = 25; // item_456 in data/demo-catalog.json
    const reply = await post({
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: {
        name: "create_checkout",
        arguments: {
          meta: { "ucp-agent": { profile: SEED_PROFILE } },
          checkout: { line_items: [{ item: { id: "item_456" }, quantity: 100 }] },
        },
      },
    });
    const payload = expectCheckout(reply, 5);
    // `available_quantity` predates 2026-04-08 (no official schema has it): the adjusted
    // `quantity` and the warning's content carry what is available.
    const missing = missingKeys(alignIds(expected, payload), payload);
    expect(missing).toEqual(["$.line_items[0].available_quantity"]);
    expect(payload.status).toBe("incomplete");
    expect(payload.line_items[0]).toMatchObject({ item: { id: "item_456" }, quantity: stock });
    expect(payload.messages[0]).toMatchObject({
      type: "warning",
      code: "quantity_adjusted",
      path: "$.line_items[0].quantity",
    });
  });

  it("answers the direct-method form (method create_checkout, _meta.ucp.profile) with the payload itself", async () => {
    const create = examples[0]?.request as Json;
    const request = {
      jsonrpc: "2.0",
      id: 41,
      method: "create_checkout",
      params: { _meta: { ucp: { profile: SEED_PROFILE } }, checkout: create.params.arguments.checkout },
    };
    const reply = await post(request);
    const payload = expectCheckout(reply, 41);
    expect(reply.body.result).not.toHaveProperty("structuredContent");
    expect(reply.body.result.id).toMatch(/^chk_/);
    const expected = unwrap(examples[0]?.response?.result, "checkout");
    expect(missingKeys(alignIds(expected, payload), payload)).toEqual([]);
  });

  it("completes in the seed's tools/call shape: completed, with a partial order of id and permalink_url", async () => {
    const created = await readyCheckout([{ id: "item_123", quantity: 1 }], {}, SEED_PROFILE);
    const request = {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: {
        name: "complete_checkout",
        arguments: {
          meta: { "ucp-agent": { profile: SEED_PROFILE }, "idempotency-key": crypto.randomUUID() },
          id: created.id,
          checkout: payment,
        },
      },
    };
    const reply = await post(request);
    const done = expectCheckout(reply, 3);
    expect(done.status).toBe("completed");
    // The seed's id and permalink_url, and the short order number as order_confirmation's `label`.
    expect(Object.keys(done.order).sort()).toEqual(["id", "label", "permalink_url"]);
    expect(done.order.id).toMatch(/^ord_/);
    expect(reply.body.result.content[0].text).toBe(JSON.stringify(done));
    // The seed's (signed) complete_checkout reply: `{ checkout: { id, status: "completed" } }`.
    const signed = (jsonBlocks(seed) as Json[]).find((b) => unwrap(b.result, "checkout")?.status === "completed");
    expect(signed).toBeDefined();
    expect(missingKeys(unwrap(signed?.result, "checkout"), done)).toEqual([]);
    expect(JSON.stringify(done)).not.toContain("success_token");
  });

  it("completes in the seed's OpenRPC shape (method complete_checkout, params.meta) with the payload as result", async () => {
    const created = await readyCheckout([{ id: "item_456", quantity: 1 }], {}, SEED_PROFILE);
    const reply = await post({
      jsonrpc: "2.0",
      id: 4,
      method: "complete_checkout",
      params: {
        meta: { "ucp-agent": { profile: SEED_PROFILE }, "idempotency-key": crypto.randomUUID() },
        id: created.id,
        checkout: payment,
      },
    });
    const done = expectCheckout(reply, 4);
    expect(done.status).toBe("completed");
    // The seed's id and permalink_url, and the short order number as order_confirmation's `label`.
    expect(Object.keys(done.order).sort()).toEqual(["id", "label", "permalink_url"]);
  });
});
