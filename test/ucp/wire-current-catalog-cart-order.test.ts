/**
 * Issue 23: the catalog, cart and order tools in both protocol versions, on one store, over
 * MCP and REST. The same flow runs with a 2026-08-25 platform profile, every answer checked
 * against the 2026-08-25 response schemas composed with the extensions it says are active,
 * and with a 2026-04-08 profile, checked against the 2026-04-08 schemas and for the absence
 * of every 2026-08-25-only field. Each version sends its own request shapes: 2026-08-25
 * updates a cart without `cart.id` and may assert a line's `quantity_unit`.
 */

import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { currentSchemas } from "virtual:ucp-material";
import { type OutputUnit, Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import type { OrderObject } from "../../durable-objects/order-object";
import { signRequest } from "../../src/auth/http-signature";
import type { OrderState } from "../../src/order/order-state";
import { ADDRESS, type Json, pay, tool } from "../helpers/checkout";
import { CLIENT_IP, FULL_PROFILE, PROFILES, platformKey } from "../helpers/mcp";
import { OFFICIAL, validateOfficial } from "../helpers/official-schema";
import { CURRENT, validateComposed, validateCurrent } from "../helpers/official-schema-current";
import { orderObject } from "../helpers/order-home";
import { RequestSchemas } from "../helpers/request-schema";

const CURRENT_PROFILE = `${PROFILES}/v2026-08-25/full.json`;
const WEBHOOK_PROFILE_V2 = `${PROFILES}/v2026-08-25/webhooks.json`;
const S = "https://ucp.dev/schemas";

type Version = "2026-08-25" | "2026-04-08";
type Binding = "mcp" | "rest";
const PROFILE: Record<Version, string> = { "2026-08-25": CURRENT_PROFILE, "2026-04-08": FULL_PROFILE };

/** Members 2026-08-25 added to these answers; a 2026-04-08 answer carries none of them anywhere. */
const CURRENT_ONLY = ["policies", "actions", "quantity_unit", "unit_price", "request_constraints", "map_order"];

function keysIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysIn(v, found);
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      found.add(k);
      keysIn(v, found);
    }
  }
  return found;
}

function expectNoCurrentOnlyField(payload: Json) {
  const keys = keysIn(payload);
  expect(CURRENT_ONLY.filter((k) => keys.has(k))).toEqual([]);
  for (const product of [...(payload.products ?? []), ...(payload.product ? [payload.product] : [])]) {
    for (const variant of product.variants) expect(variant).not.toHaveProperty("fulfillment");
  }
}

// --- The two bindings, one call shape: MCP tools/call, or the REST operation. ---------------

const REST: Record<string, { method: string; path: (id?: string) => string; body?: string }> = {
  search_catalog: { method: "POST", path: () => "/catalog/search", body: "catalog" },
  lookup_catalog: { method: "POST", path: () => "/catalog/lookup", body: "catalog" },
  get_product: { method: "POST", path: () => "/catalog/product", body: "catalog" },
  create_cart: { method: "POST", path: () => "/carts", body: "cart" },
  get_cart: { method: "GET", path: (id) => `/carts/${id}` },
  update_cart: { method: "PUT", path: (id) => `/carts/${id}`, body: "cart" },
  cancel_cart: { method: "POST", path: (id) => `/carts/${id}/cancel` },
  get_order: { method: "GET", path: (id) => `/orders/${id}` },
};
/** get_order is closed to anonymous callers by default: signed as the test platform, as on MCP. */
const SIGNED = new Set(["get_order"]);

interface Answer {
  status: number;
  body: Json;
}

async function call(binding: Binding, version: Version, name: string, args: Json, key?: string): Promise<Answer> {
  const profile = PROFILE[version];
  if (binding === "mcp") {
    const reply = await tool(name, args, key, profile);
    return { status: reply.status, body: reply.body.result?.structuredContent ?? reply.body };
  }
  const operation = REST[name];
  if (!operation) throw new Error(`no REST operation for ${name}`);
  const url = `https://shop.example.com/ucp${operation.path(args.id as string | undefined)}`;
  const text = operation.body ? JSON.stringify(args[operation.body]) : undefined;
  const headers = new Headers({ "cf-connecting-ip": CLIENT_IP, accept: "application/json" });
  headers.set("ucp-agent", `profile="${profile}"`);
  if (text !== undefined) headers.set("content-type", "application/json");
  if (key) headers.set("idempotency-key", key);
  if (SIGNED.has(name)) {
    await signRequest({ method: operation.method, url, headers, body: text ?? null }, await platformKey());
  }
  const res = await exports.default.fetch(url, { method: operation.method, headers, body: text });
  return { status: res.status, body: JSON.parse(await res.text()) };
}

/** A success answer (200, or 201 for a REST create), checked against its version's schemas. */
async function ok(binding: Binding, version: Version, name: string, args: Json, key?: string): Promise<Json> {
  const answer = await call(binding, version, name, args, key);
  const created = binding === "rest" && name === "create_cart";
  expect(answer.status, JSON.stringify(answer.body)).toBe(created ? 201 : 200);
  expect(answer.body.ucp?.version, JSON.stringify(answer.body)).toBe(version);
  expect(schemaErrors(version, name, answer.body)).toEqual([]);
  if (version === "2026-04-08") expectNoCurrentOnlyField(answer.body);
  return answer.body;
}

const ROOT: Record<string, [current: string, capability: string, legacy: string, fulfillment?: string]> = {
  search_catalog: [CURRENT.search, "dev.ucp.shopping.catalog.search", OFFICIAL.search, "fulfillment_search_response"],
  lookup_catalog: [CURRENT.lookup, "dev.ucp.shopping.catalog.lookup", OFFICIAL.lookup, "fulfillment_lookup_response"],
  get_product: [
    CURRENT.getProduct,
    "dev.ucp.shopping.catalog.lookup",
    OFFICIAL.getProduct,
    "fulfillment_get_product_response",
  ],
  create_cart: [CURRENT.cart, "dev.ucp.shopping.cart", OFFICIAL.cart],
  get_cart: [CURRENT.cart, "dev.ucp.shopping.cart", OFFICIAL.cart],
  update_cart: [CURRENT.cart, "dev.ucp.shopping.cart", OFFICIAL.cart],
  cancel_cart: [CURRENT.cart, "dev.ucp.shopping.cart", OFFICIAL.cart],
  get_order: [CURRENT.order, "dev.ucp.shopping.order", OFFICIAL.order],
};

function schemaErrors(version: Version, name: string, payload: Json): string[] {
  const [current, capability, legacy, fulfillment] = ROOT[name] ?? [];
  if (!current || !capability || !legacy) throw new Error(`no schema for ${name}`);
  if (version === "2026-04-08") {
    const extensions =
      capability === "dev.ucp.shopping.cart" ? [`${S}/shopping/discount.json#/$defs/dev.ucp.shopping.cart`] : [];
    return [legacy, ...extensions].flatMap((ref) => validateOfficial(ref, payload).errors);
  }
  const errors = validateComposed(current, capability, payload);
  // The fulfillment extension's catalog $defs hold their shapes one level down: check them by name.
  if (fulfillment && payload.ucp.capabilities["dev.ucp.shopping.fulfillment"]) {
    errors.push(...validateCurrent(`${S}/shopping/fulfillment.json#/$defs/${fulfillment}`, payload).errors);
  }
  return errors;
}

// --- 2026-08-25 request bodies are held to that version's request schemas. -----------------

let requests: { schemas: RequestSchemas; validators: Map<string, Validator> } | undefined;

function currentRequestErrors(ref: string, op: "create" | "update", body: unknown): string[] {
  if (currentSchemas.length === 0) return [];
  requests ??= { schemas: new RequestSchemas(currentSchemas as Json[]), validators: new Map() };
  const target = requests.schemas.ref(ref, op);
  let validator = requests.validators.get(target);
  if (!validator) {
    validator = new Validator(
      { $id: `https://test-req.invalid/${requests.validators.size}`, $ref: target },
      "2020-12",
      false,
    );
    for (const schema of requests.schemas.schemas) validator.addSchema(schema as never);
    requests.validators.set(target, validator);
  }
  return validator
    .validate(body)
    .errors.slice(0, 8)
    .map((u: OutputUnit) => `${u.instanceLocation} ${u.keywordLocation}: ${u.error}`);
}

// --- The flow. --------------------------------------------------------------------------------

/** An order placed by `profile` (checkout is another file's subject: here only its outcome matters). */
async function placeOrder(profile: string): Promise<string> {
  const created = await tool(
    "create_checkout",
    {
      checkout: {
        line_items: [{ item: { id: "item_123" }, quantity: 1 }],
        buyer: { email: "jane@example.com", first_name: "Jane" },
        fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
      },
    },
    undefined,
    profile,
  );
  const checkout = created.body.result.structuredContent;
  expect(checkout.id, JSON.stringify(created.body)).toBeDefined();
  const done = await tool(
    "complete_checkout",
    { id: checkout.id, checkout: pay("success_token") },
    crypto.randomUUID(),
    profile,
  );
  const completed = done.body.result.structuredContent;
  expect(completed.status, JSON.stringify(completed)).toBe("completed");
  return completed.order.id;
}

const FLOWS: Array<[Version, Binding]> = [
  ["2026-08-25", "mcp"],
  ["2026-08-25", "rest"],
  ["2026-04-08", "mcp"],
  ["2026-04-08", "rest"],
];

describe.each(FLOWS)("%s over %s", { timeout: 60_000 }, (version, binding) => {
  const current = version === "2026-08-25";

  it("catalog: search, lookup and get_product answer in the version's shapes", async () => {
    const context = current ? { address_country: "US", location: "store_1" } : { address_country: "US" };
    const search = await ok(binding, version, "search_catalog", { catalog: { query: "shoes", context } });
    expect(search.products.length).toBeGreaterThan(0);
    const lookup = await ok(binding, version, "lookup_catalog", { catalog: { ids: ["prod_abc123", "nope_1"] } });
    expect(lookup.products.map((p: Json) => p.id)).toEqual(["prod_abc123"]);
    expect(lookup.messages).toContainEqual(expect.objectContaining({ code: "not_found", content: "nope_1" }));
    const product = await ok(binding, version, "get_product", { catalog: { id: "prod_abc123", context } });
    expect(product.product.id).toBe("prod_abc123");
    if (!current) return;
    // Fulfillment on catalog (negotiated: it extends catalog at 2026-08-25): the US zone's options.
    expect(search.ucp.capabilities["dev.ucp.shopping.fulfillment"]).toEqual([{ version }]);
    const method = search.products[0].variants[0].fulfillment.methods[0];
    expect(method).toMatchObject({ type: "shipping", availability: { available: true } });
    expect(method.options).toEqual([
      { id: "standard", title: "Standard Shipping", description: { plain: "Arrives in 5-7 business days via USPS" } },
      { id: "express", title: "Express Shipping", description: { plain: "Arrives in 2-3 business days via UPS" } },
    ]);
    // No destination: the method without options (zones differ), on every variant of the lookup.
    for (const variant of lookup.products[0].variants) {
      expect(variant.fulfillment.methods).toEqual([
        expect.objectContaining({ type: "shipping", availability: expect.any(Object) }),
      ]);
      expect(variant.fulfillment.methods[0]).not.toHaveProperty("options");
    }
  });

  it("get_product's unknown id: a not_found envelope in the request's version (MCP at 2026-04-08: seed 004's -32602)", async () => {
    const answer = await call(binding, version, "get_product", { catalog: { id: "prod_invalid" } });
    if (binding === "mcp" && !current) {
      expect(answer.body.error).toMatchObject({
        code: -32602,
        message: "Product not found",
        data: { id: "prod_invalid" },
      });
      return;
    }
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ucp: {
        version,
        status: "error",
        capabilities: {
          "dev.ucp.shopping.catalog.lookup": [{ version }],
          ...(current ? { "dev.ucp.shopping.fulfillment": [{ version }] } : {}),
        },
      },
      messages: [
        { type: "error", code: "not_found", content: "Product not found: prod_invalid", severity: "unrecoverable" },
      ],
    });
    const errors = current
      ? validateCurrent(CURRENT.errorResponse, answer.body).errors
      : validateOfficial(OFFICIAL.errorResponse, answer.body).errors;
    expect(errors).toEqual([]);
  });

  it("cart: create, update (2026-08-25: without cart.id, asserting quantity_unit), get, cancel", async () => {
    const context = current
      ? { address_country: "US", location: "store_1", payment: [{ handler: "com.example.unknown_wallet" }] }
      : { address_country: "US" };
    const createBody = { line_items: [{ item: { id: "item_123" }, quantity: 2 }], context };
    if (current) expect(currentRequestErrors(CURRENT.cart, "create", createBody)).toEqual([]);
    const cart = await ok(binding, version, "create_cart", { cart: createBody });
    expect(cart.line_items).toEqual([
      expect.objectContaining({ quantity: 2, item: expect.objectContaining({ id: "item_123" }) }),
    ]);
    // context.location and context.payment are taken without error (nothing here acts on them).
    expect(cart.messages ?? []).toEqual([]);

    const updateBody = current
      ? {
          line_items: [
            {
              id: cart.line_items[0].id,
              item: { id: "item_123", quantity_unit: { unit: "C62", display_text: "each" } },
              quantity: 3,
            },
            { item: { id: "item_456", quantity_unit: { unit: "KGM", scale: 3, display_text: "kg" } }, quantity: 500 },
          ],
        }
      : { id: cart.id, line_items: [{ id: cart.line_items[0].id, item: { id: "item_123" }, quantity: 3 }] };
    if (current) {
      expect(updateBody).not.toHaveProperty("id");
      expect(currentRequestErrors(CURRENT.cart, "update", updateBody)).toEqual([]);
    }
    const updated = await ok(binding, version, "update_cart", { id: cart.id, cart: updateBody });
    expect(updated.id).toBe(cart.id);
    // each asserted as C62 at scale 0 matches; another basis is refused on its line, recoverably.
    expect(updated.line_items.map((l: Json) => [l.item.id, l.quantity])).toEqual([["item_123", 3]]);
    if (current) {
      expect(updated.messages).toEqual([
        expect.objectContaining({
          type: "error",
          code: "quantity_unit_mismatch",
          path: "$.line_items[1].item.quantity_unit",
          severity: "recoverable",
        }),
      ]);
      expect(updated.messages[0].content).toContain("C62");
    } else expect(updated.messages ?? []).toEqual([]);

    const read = await ok(binding, version, "get_cart", { id: cart.id });
    expect(read.line_items[0].quantity).toBe(3);
    const canceled = await ok(binding, version, "cancel_cart", { id: cart.id }, crypto.randomUUID());
    expect(canceled.id).toBe(cart.id);
  });

  it("order: get_order answers the placing platform in its version", async () => {
    const orderId = await placeOrder(PROFILE[version]);
    const order = await ok(binding, version, "get_order", { id: orderId });
    expect(order.id).toBe(orderId);
    expect(order.ucp.capabilities["dev.ucp.shopping.order"]).toEqual([{ version }]);
  });
});

describe("fulfillment on catalog (2026-08-25)", { timeout: 30_000 }, () => {
  it("filters.fulfills_to decides the destination over context", async () => {
    const search = await ok("mcp", "2026-08-25", "search_catalog", {
      catalog: {
        query: "shoes",
        context: { address_country: "US" },
        filters: { fulfills_to: { address_country: "CA" } },
      },
    });
    const options = search.products[0].variants[0].fulfillment.methods[0].options;
    expect(options.map((o: Json) => o.description.plain)).toEqual([
      "Arrives in 7-10 business days via Canada Post",
      "Arrives in 3-5 business days via UPS",
    ]);
  });

  it("filters.methods without shipping leaves no result (this store only ships), saying why", async () => {
    const search = await ok("mcp", "2026-08-25", "search_catalog", {
      catalog: { query: "shoes", filters: { methods: ["pickup"] } },
    });
    expect(search.products).toEqual([]);
    expect(search.pagination).toEqual({ has_next_page: false, total_count: 0 });
    expect(search.messages).toEqual([expect.objectContaining({ type: "info", code: "fulfillment_unavailable" })]);
  });

  it("a 2026-04-08 platform sending the same filters gets no fulfillment and no filtering", async () => {
    const search = await ok("mcp", "2026-04-08", "search_catalog", {
      catalog: { query: "shoes", filters: { methods: ["pickup"], fulfills_to: { address_country: "CA" } } },
    });
    expect(search.products.length).toBeGreaterThan(0);
  });
});

describe("order webhooks in the receiving platform's version", { timeout: 30_000 }, () => {
  async function deliveries(orderId: string): Promise<Array<{ headers: Record<string, string>; body: string }>> {
    const stub = env.ORDER.getByName(orderId) as DurableObjectStub<OrderObject>;
    for (let round = 0; round < 10; round++) {
      const res = await fetch(`https://fixtures.test/webhooks?order=${orderId}`);
      const got = ((await res.json()) as { deliveries: Array<{ headers: Record<string, string>; body: string }> })
        .deliveries;
      if (got.length > 0) return got;
      await runDurableObjectAlarm(stub);
    }
    return [];
  }

  it("an order whose webhook came from a 2026-08-25 profile is announced in 2026-08-25, naming our root profile", async () => {
    // The order as completion stores it, with the version of the profile that gave the URL.
    const placed = await placeOrder(WEBHOOK_PROFILE_V2);
    const stored: OrderState = await runInDurableObject(await orderObject(placed), (_o: OrderObject, state) =>
      JSON.parse(state.storage.sql.exec<{ state: string }>("SELECT state FROM orders").one().state),
    );
    expect(stored.webhook_url).toBe("https://platform.example/webhooks/orders");
    const id = `ord_v2${crypto.randomUUID().slice(0, 8)}`;
    const order: OrderState = { ...stored, id, webhook_version: "2026-08-25" };
    await (env.ORDER.getByName(id) as DurableObjectStub<OrderObject>).create(order);
    const [created] = await deliveries(id);
    expect(created?.headers["ucp-agent"]).toBe('profile="https://shop.example.com/.well-known/ucp"');
    const body = JSON.parse(created?.body ?? "{}");
    expect(body.ucp).toEqual({
      version: "2026-08-25",
      status: "success",
      capabilities: { "dev.ucp.shopping.order": [{ version: "2026-08-25" }] },
    });
    expect(validateComposed(CURRENT.order, "dev.ucp.shopping.order", body)).toEqual([]);
  });

  it("an order without a recorded version is announced as it always was, in 2026-04-08, naming that profile", async () => {
    const placed = await placeOrder(`${PROFILES}/webhooks.json`);
    const [created] = await deliveries(placed);
    expect(created?.headers["ucp-agent"]).toBe(
      'profile="https://shop.example.com/.well-known/ucp-profiles/2026-04-08"',
    );
    const body = JSON.parse(created?.body ?? "{}");
    expect(body.ucp.version).toBe("2026-04-08");
    expect(validateOfficial(OFFICIAL.order, body).errors).toEqual([]);
    expectNoCurrentOnlyField(body);
  });
});
