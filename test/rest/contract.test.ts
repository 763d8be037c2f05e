/**
 * One core, two skins: each tool case runs over MCP (tools/call) and over REST, and the
 * payloads must be the same. Reads of one resource compare whole payloads; creates and
 * terminal operations act on a resource of their own per transport, so their ids differ.
 * What may differ, and nothing else (docs/decisions/protocol.md, issue 12):
 *
 * - resource ids (`cart_…`, `chk_…`, `ord_…`) when each transport made its own resource;
 * - an order's short number (`label`, `#1001`): each transport's order takes the next one;
 * - hand-off URLs (`continue_url`, `permalink_url`): sealed tokens minted per response;
 * - `expires_at`: a session's expiry runs from its last change, so two changes differ by ms;
 * - protocol errors: a JSON-RPC `error` over MCP, `{ code, content, ...data }` with the
 *   status over REST (invalid arguments 400, JSONPaths relative to the REST body);
 * - get_product's unknown id: -32602 over MCP (seed 004), a 200 `not_found` envelope over
 *   REST (catalog/rest.md).
 */
import { describe, expect, it } from "vitest";
import { pay } from "../helpers/checkout";
import { FULL_PROFILE, meta, rpc } from "../helpers/mcp";
import { type RestOptions, type RestReply, rest } from "./rest-client";

// biome-ignore lint/suspicious/noExplicitAny: -- payloads are compared structurally
type Json = any;

/** How each tool is reached over REST, written out here rather than taken from src/rest/. */
const ROUTES: Record<string, { method: string; path: (id?: string) => string; body?: string }> = {
  search_catalog: { method: "POST", path: () => "/catalog/search", body: "catalog" },
  lookup_catalog: { method: "POST", path: () => "/catalog/lookup", body: "catalog" },
  get_product: { method: "POST", path: () => "/catalog/product", body: "catalog" },
  create_cart: { method: "POST", path: () => "/carts", body: "cart" },
  get_cart: { method: "GET", path: (id) => `/carts/${id}` },
  update_cart: { method: "PUT", path: (id) => `/carts/${id}`, body: "cart" },
  cancel_cart: { method: "POST", path: (id) => `/carts/${id}/cancel` },
  create_checkout: { method: "POST", path: () => "/checkout-sessions", body: "checkout" },
  get_checkout: { method: "GET", path: (id) => `/checkout-sessions/${id}` },
  update_checkout: { method: "PUT", path: (id) => `/checkout-sessions/${id}`, body: "checkout" },
  complete_checkout: { method: "POST", path: (id) => `/checkout-sessions/${id}/complete`, body: "checkout" },
  cancel_checkout: { method: "POST", path: (id) => `/checkout-sessions/${id}/cancel` },
  get_order: { method: "GET", path: (id) => `/orders/${id}` },
};

interface Both {
  mcp: { status: number; body: Json };
  rest: RestReply;
}

/** The same call over both transports; `key` is sent as meta["idempotency-key"] and as the Idempotency-Key header. */
async function both(
  tool: string,
  shared: Record<string, unknown>,
  ids?: { mcp?: string; rest?: string },
  key?: string,
  /** Arguments that name each transport's own resources (a cart_id). */
  own?: { mcp: Record<string, unknown>; rest: Record<string, unknown> },
  restOptions: Pick<RestOptions, "invalidBody"> = {},
) {
  const route = ROUTES[tool];
  if (!route) throw new Error(`no route for ${tool}`);
  const withId = (id: string | undefined, args: Record<string, unknown>) => (id === undefined ? args : { ...args, id });
  const mcpKey = key === undefined ? undefined : `${key}-mcp`;
  const mcp = await rpc("tools/call", {
    name: tool,
    arguments: {
      meta: meta(FULL_PROFILE, mcpKey ? { "idempotency-key": mcpKey } : {}),
      ...withId(ids?.mcp, own?.mcp ?? shared),
    },
  });
  const restArgs = own?.rest ?? shared;
  const body = route.body ? (restArgs[route.body] as unknown) : undefined;
  const sign = tool === "complete_checkout" || tool === "get_order";
  const restReply = await rest(route.method, route.path(ids?.rest), {
    ...(body === undefined ? {} : { body }),
    ...(key === undefined ? {} : { key: `${key}-rest` }),
    sign,
    ...restOptions,
  });
  return { mcp: { status: mcp.status, body: mcp.body }, rest: restReply } satisfies Both;
}

const RESOURCE_ID = /^(cart|chk|ord)_[A-Za-z0-9_-]+$/;
const HANDOFF_KEYS = new Set(["continue_url", "permalink_url"]);

/** Only the differences the header lists, replaced by placeholders. */
function scrub(value: Json, ids: boolean): Json {
  if (Array.isArray(value)) return value.map((v) => scrub(v, ids));
  if (value === null || typeof value !== "object") {
    return ids && typeof value === "string" && RESOURCE_ID.test(value) ? "<id>" : value;
  }
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      if (HANDOFF_KEYS.has(k)) return [k, "<hand-off url>"];
      if (k === "expires_at") return [k, "<expiry>"];
      if (ids && k === "label" && typeof v === "string" && /^#\d+$/.test(v)) return [k, "<order number>"];
      return [k, scrub(v, ids)];
    }),
  );
}

function payloads(r: Both): { mcp: Json; rest: Json } {
  expect(r.mcp.status, JSON.stringify(r.mcp.body)).toBe(200);
  expect(r.mcp.body.error, JSON.stringify(r.mcp.body)).toBeUndefined();
  expect([200, 201], r.rest.text).toContain(r.rest.status);
  return { mcp: r.mcp.body.result.structuredContent, rest: r.rest.body };
}

function expectSame(r: Both, options: { ids?: boolean } = {}): Json {
  const { mcp, rest: restPayload } = payloads(r);
  expect(scrub(restPayload, options.ids ?? false)).toEqual(scrub(mcp, options.ids ?? false));
  return { mcp, rest: restPayload };
}

/** The MCP error and the REST error carry the same code, text and details. */
function expectSameError(r: Both, restStatus: number, restCode: string) {
  const error = r.mcp.body.error;
  expect(error, JSON.stringify(r.mcp.body)).toBeDefined();
  expect(r.rest.status, r.rest.text).toBe(restStatus);
  const { code: _code, content, ...details } = error.data ?? {};
  const rebase = (s: string) => s.replaceAll(/\$\.(checkout|cart|catalog)\b\.?/g, "$.");
  const rebased = JSON.parse(rebase(JSON.stringify(details)));
  expect(r.rest.body).toEqual({ code: restCode, content: content ?? rebase(error.message), ...rebased });
  return error;
}

const LINES = { line_items: [{ item: { id: "item_123" }, quantity: 2 }] };
const BUYER = { email: "jane@example.com", first_name: "Jane" };
const ADDRESS = {
  street_address: "123 Main St",
  address_locality: "Springfield",
  address_region: "IL",
  postal_code: "62701",
  address_country: "US",
};

// 30 s: a file's first request builds the Worker's isolate, seconds on a loaded machine.
describe("contract: every tool gives the same payload over MCP and REST", { timeout: 30_000 }, () => {
  it("catalog: search, lookup, get_product (byte for byte after parsing)", async () => {
    expectSame(await both("search_catalog", { catalog: { query: "jacket", pagination: { limit: 4 } } }));
    expectSame(await both("lookup_catalog", { catalog: { ids: ["prod_abc123", "var_xyz789", "missing_1"] } }));
    expectSame(
      await both("get_product", { catalog: { id: "prod_abc123", selected: [{ name: "Color", label: "Blue" }] } }),
    );
  });

  it("carts: create, get, update, cancel, and an unknown cart", async () => {
    const created = expectSame(await both("create_cart", { cart: { ...LINES, buyer: BUYER } }), { ids: true });
    const ids = { mcp: created.mcp.id, rest: created.rest.id };
    // Reads of one cart over both transports: the same cart, so the same ids.
    expectSame(await both("get_cart", {}, { mcp: ids.mcp, rest: ids.mcp }));
    // cart.json's update request requires the body's `id` (ucp_request), MCP's cart-mcp.md
    // forbids it there: each transport sends what its binding asks for.
    const lines = { line_items: [{ item: { id: "item_456" }, quantity: 1 }] };
    expectSame(
      await both("update_cart", {}, ids, undefined, {
        mcp: { cart: lines },
        rest: { cart: { id: ids.rest, ...lines } },
      }),
      { ids: true },
    );
    expectSame(await both("cancel_cart", {}, ids, crypto.randomUUID()), { ids: true });
    expectSame(await both("get_cart", {}, { mcp: "cart_nope", rest: "cart_nope" }));
  });

  it("checkouts: create, get, update, complete, cancel; then the order", async () => {
    const create = { checkout: { ...LINES, buyer: BUYER } };
    const first = expectSame(await both("create_checkout", create), { ids: true });
    const ids = { mcp: first.mcp.id, rest: first.rest.id };
    expectSame(await both("get_checkout", {}, { mcp: ids.mcp, rest: ids.mcp }));
    const ship = {
      checkout: { ...LINES, buyer: BUYER, fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] } },
    };
    expectSame(await both("update_checkout", ship, ids), { ids: true });
    const done = expectSame(
      await both("complete_checkout", { checkout: pay("success_token") }, ids, crypto.randomUUID()),
      {
        ids: true,
      },
    );
    expect(done.rest.status).toBe("completed");
    expectSame(await both("get_order", {}, { mcp: done.mcp.order.id, rest: done.mcp.order.id }));

    const other = expectSame(await both("create_checkout", create), { ids: true });
    expectSame(await both("cancel_checkout", {}, { mcp: other.mcp.id, rest: other.rest.id }, crypto.randomUUID()), {
      ids: true,
    });
  });

  it("business outcomes: filters, discounts, cart conversion, a declined payment, unknown items and sessions", async () => {
    expectSame(await both("search_catalog", { catalog: { query: "shoes", filters: { price: { max: 9000 } } } }));
    const cart = expectSame(
      await both("create_cart", { cart: { ...LINES, discounts: { codes: ["SAVE10", "NOPE"] } } }),
      {
        ids: true,
      },
    );
    const converted = expectSame(
      // The create request requires line_items even beside cart_id (the cart's lines win).
      // cart.md's example sends `[]`, which the store still refuses (docs/rest-conformance.md).
      await both("create_checkout", {}, undefined, undefined, {
        mcp: { checkout: { cart_id: cart.mcp.id, ...LINES } },
        rest: { checkout: { cart_id: cart.rest.id, ...LINES } },
      }),
      { ids: true },
    );
    const ship = {
      checkout: { ...LINES, buyer: BUYER, fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] } },
    };
    const ids = { mcp: converted.mcp.id, rest: converted.rest.id };
    expectSame(await both("update_checkout", ship, ids), { ids: true });
    const declined = expectSame(
      await both("complete_checkout", { checkout: pay("fail_token") }, ids, crypto.randomUUID()),
      {
        ids: true,
      },
    );
    expect(declined.rest.messages.map((m: Json) => m.code)).toContain("payment_failed");
    expectSame(
      await both("create_checkout", { checkout: { line_items: [{ item: { id: "no_such_item" }, quantity: 1 }] } }),
      {
        ids: true,
      },
    );
    expectSame(await both("get_checkout", {}, { mcp: "chk_nope", rest: "chk_nope" }));
  });

  it("protocol errors: the same code and details, as a JSON-RPC error and as a REST status", async () => {
    const invalid = await both(
      "create_checkout",
      { checkout: { line_items: [{ item: {}, quantity: 0 }] } },
      undefined,
      undefined,
      undefined,
      { invalidBody: true },
    );
    expect(expectSameError(invalid, 400, "invalid_request").code).toBe(-32602);
    const ids = Array.from({ length: 200 }, (_, i) => `id_${i}`);
    const tooMany = await both("lookup_catalog", { catalog: { ids } });
    expect(expectSameError(tooMany, 400, "request_too_large").code).toBe(-32602);
    const unknown = await both("get_product", { catalog: { id: "prod_invalid" } });
    expect(unknown.mcp.body.error).toEqual({
      code: -32602,
      message: "Product not found",
      data: { id: "prod_invalid" },
    });
    expect(unknown.rest.status).toBe(200);
    expect(unknown.rest.body.messages[0]).toMatchObject({
      code: "not_found",
      content: "Product not found: prod_invalid",
    });
    const unkeyed = await both("cancel_cart", {}, { mcp: "cart_x", rest: "cart_x" });
    // The key's carrier is named in the text: meta["idempotency-key"] over MCP, the header over REST.
    expect(unkeyed.mcp.body.error.message).toBe('cancel_cart requires meta["idempotency-key"]');
    expect(unkeyed.rest.status).toBe(400);
    expect(unkeyed.rest.body).toEqual({
      code: "invalid_request",
      content: "cancel_cart requires the Idempotency-Key header",
    });
  });
});
