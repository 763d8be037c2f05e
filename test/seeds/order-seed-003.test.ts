/**
 * Seed 003 (order MCP binding, bare JSON without fences): get_order on a real order placed
 * through checkout answers with the example's shape and validates against the official
 * 2026-04-08 order schema; an unknown id and another platform get the seed's not_found and
 * unauthorized outcomes.
 *
 * The seed's profile, https://platform.example/.well-known/ucp, is not served by the test
 * fixture (test/fixtures/profile-server.ts): it is a 404, so every call naming it is a -32001
 * profile_unreachable discovery error. The order is therefore placed and read with a profile
 * on the same host that the fixture serves, substituted into the seed's request.
 */
import { describe, expect, it } from "vitest";
import { toolName } from "../helpers/cart-seed";
import { ADDRESS, type Json, pay, tool } from "../helpers/checkout";
import { alignIds, unwrap } from "../helpers/checkout-seed";
import { PROFILES, post } from "../helpers/mcp";
import { OFFICIAL, validateOfficial } from "../helpers/official-schema";
import { jsonBlocks, missingKeys, requestExamples } from "../helpers/seed-examples";
import { seedDocument } from "../helpers/seeds";

// Absent seed documents skip every suite that reads them (see test/helpers/ucp-material.plugin.ts).
const seed = seedDocument("003") ?? "";

const SEED_PROFILE = "https://platform.example/.well-known/ucp";
const SERVED_PROFILE = "https://platform.example/profiles/v2026-01/shopping-agent.json";
const examples = requestExamples(seed);
/** A taxed destination, so the order's totals have the seed's four kinds. */
const NEW_YORK = { ...ADDRESS, address_locality: "New York", address_region: "NY", postal_code: "10001" };

/** The seed's three replies: the order, then not_found, then unauthorized. */
const replies = (jsonBlocks(seed) as Json[]).filter((b) => "result" in b);
const outcomeReply = (code: string) => replies.find((r) => unwrap(r.result, "order").messages?.[0]?.code === code);

/** A completed checkout's order: created and placed by `profile` (only it may read the order). */
async function placeOrder(profile: string): Promise<{ orderId: string; checkout: Json }> {
  const create = await tool(
    "create_checkout",
    {
      checkout: {
        line_items: [{ item: { id: "item_123" }, quantity: 2 }],
        buyer: { email: "jane@example.com" },
        fulfillment: { methods: [{ type: "shipping", destinations: [NEW_YORK] }] },
      },
    },
    undefined,
    profile,
  );
  const created = create.body.result?.structuredContent;
  expect(created?.status, JSON.stringify(create.body)).toBe("ready_for_complete");
  const reply = await tool(
    "complete_checkout",
    { id: created.id, checkout: pay("success_token") },
    crypto.randomUUID(),
    profile,
  );
  const done = reply.body.result?.structuredContent;
  expect(done?.status, JSON.stringify(reply.body)).toBe("completed");
  return { orderId: done.order.id, checkout: done };
}

/** The seed's get_order request for `id`, sent as `profile`. */
function seedRequest(id: string, profile: string): Json {
  const text = JSON.stringify(examples[0]?.request);
  return JSON.parse(text.replaceAll("order_abc123", id).replaceAll(SEED_PROFILE, profile));
}

describe.skipIf(!seed)("seed 003 order examples", () => {
  it("extracts the one get_order request, paired with the order reply, and two outcome replies", () => {
    expect(examples.map((e) => toolName(e.request))).toEqual(["get_order"]);
    expect(unwrap(examples[0]?.response?.result, "order").id).toBe("order_abc123");
    expect(replies).toHaveLength(3);
    expect(outcomeReply("not_found")).toBeDefined();
    expect(outcomeReply("unauthorized")).toBeDefined();
  });

  it("replays get_order on a real order with the example's shape", async () => {
    const { orderId, checkout } = await placeOrder(SERVED_PROFILE);
    const request = seedRequest(orderId, SERVED_PROFILE);
    const reply = await post(request);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.id).toBe(request.id);
    const order = reply.body.result.structuredContent;
    expect(reply.body.result.content[0].text).toBe(JSON.stringify(order));
    expect(validateOfficial(OFFICIAL.order, order).errors).toEqual([]);
    expect(order.ucp).toMatchObject({ version: "2026-04-08", status: "success" });
    expect(order.ucp.capabilities["dev.ucp.shopping.order"]).toBeDefined();
    // Keys only; the seed wraps the order in `order` (pre-2026-04-08), and its ids are the
    // example merchant's (aligned, see alignIds()). Its fulfillment `events` is a delivered
    // order's: a new order has none, and missingKeys() does not compare an empty array.
    const expected = unwrap(examples[0]?.response?.result, "order");
    expect(missingKeys(alignIds(expected, order), order)).toEqual([]);
    expect(order).toMatchObject({
      id: orderId,
      checkout_id: checkout.id,
      permalink_url: checkout.order.permalink_url,
      currency: "USD",
      totals: checkout.totals,
    });
    expect(order.totals.map((t: Json) => t.type)).toEqual(expected.totals.map((t: Json) => t.type));
    expect(order.fulfillment.expectations[0].destination).toMatchObject({ address_region: "NY", postal_code: "10001" });
    expect(order.line_items[0]).toMatchObject({ quantity: { total: 2, fulfilled: 0 }, status: "processing" });
    expect(order.fulfillment.events).toEqual([]);
  });

  it("answers an unknown order id with the seed's not_found outcome", async () => {
    const reply = await post(seedRequest("ord_doesnotexist", SERVED_PROFILE));
    expect(reply.status).toBe(200);
    const payload = reply.body.result.structuredContent;
    expect(validateOfficial(OFFICIAL.errorResponse, payload).errors).toEqual([]);
    const expected = unwrap(outcomeReply("not_found")?.result, "order");
    expect(missingKeys(expected, payload)).toEqual([]);
    expect(payload.ucp).toMatchObject({ status: "error" });
    expect(payload.messages).toEqual([
      { type: "error", code: "not_found", severity: "unrecoverable", content: "Order not found." },
    ]);
  });

  it("answers another platform with the seed's unauthorized outcome, and the owner still reads it", async () => {
    const { orderId } = await placeOrder(SERVED_PROFILE);
    const reply = await post(seedRequest(orderId, `${PROFILES}/unique-order-seed-stranger.json`));
    expect(reply.status).toBe(200);
    const payload = reply.body.result.structuredContent;
    expect(validateOfficial(OFFICIAL.errorResponse, payload).errors).toEqual([]);
    const expected = unwrap(outcomeReply("unauthorized")?.result, "order");
    expect(missingKeys(expected, payload)).toEqual([]);
    expect(payload.messages).toEqual([
      {
        type: "error",
        code: "unauthorized",
        severity: "unrecoverable",
        content: "Not authorized to access this order.",
      },
    ]);
    expect(JSON.stringify(payload)).not.toContain(orderId);
    const owner = (await post(seedRequest(orderId, SERVED_PROFILE))).body.result.structuredContent;
    expect(owner.id).toBe(orderId);
  });

  it("the seed's own request, as written, reaches a negotiated get_order: its id is unknown here", async () => {
    const reply = await post(examples[0]?.request);
    expect(reply.status).toBe(200);
    const payload = reply.body.result.structuredContent;
    expect(payload.ucp.capabilities).toEqual({ "dev.ucp.shopping.order": [{ version: "2026-04-08" }] });
    expect(payload.messages[0]).toMatchObject({ code: "not_found", severity: "unrecoverable" });
  });
});
