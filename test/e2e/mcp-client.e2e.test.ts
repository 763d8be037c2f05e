/**
 * The official MCP TypeScript SDK client against the real local server (`npm start`):
 * initialize handshake, tools/list, tools/call of every catalog tool, and a cart's life. The SDK checks
 * each structuredContent against the tool's published outputSchema (cached by listTools),
 * so a response that does not match its own schema fails here.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, startServer } from "./server";

const PROFILE = "https://platform.example/profiles/v2026-01/shopping-agent.json";
const META = { "ucp-agent": { profile: PROFILE } };
const CATALOG_TOOLS = ["get_product", "lookup_catalog", "search_catalog"];
const CART_TOOLS = ["cancel_cart", "create_cart", "get_cart", "update_cart"];
const CHECKOUT_TOOLS = [
  "cancel_checkout",
  "complete_checkout",
  "create_checkout",
  "get_checkout",
  "get_order",
  "update_checkout",
];
const ALL_TOOLS = [...CART_TOOLS, ...CATALOG_TOOLS, ...CHECKOUT_TOOLS].sort();

// biome-ignore lint/suspicious/noExplicitAny: -- payloads are inspected structurally
type Json = any;

let server: LocalServer | undefined;
let client: Client | undefined;
let ready: Promise<Client> | undefined;
const transportErrors: Error[] = [];

let apiKey = "";

beforeAll(async () => {
  server = await startServer();
  // The agent is an authenticated platform: the merchant issued it an API key for its profile.
  const res = await fetch(`${server.baseUrl}/admin/api-keys`, {
    method: "POST",
    headers: { authorization: "Bearer dev-admin-token", "content-type": "application/json" },
    body: JSON.stringify({ profile: PROFILE, label: "e2e agent" }),
  });
  expect(res.status).toBe(201);
  apiKey = ((await res.json()) as { api_key: string }).api_key;
});

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await server?.stop();
});

function baseUrl(): string {
  if (!server) throw new Error("the local server did not start");
  return server.baseUrl;
}

/** One client for the file: initialize, then tools/list so callTool validates outputs. */
function connected(): Promise<Client> {
  ready ??= (async () => {
    const c = new Client({ name: "ucp-worker-e2e", version: "0.0.0" });
    c.onerror = (e) => transportErrors.push(e);
    const auth = { headers: { authorization: `Bearer ${apiKey}` } };
    await c.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl()}/ucp/mcp`), { requestInit: auth }));
    client = c;
    await c.listTools();
    return c;
  })();
  return ready;
}

async function call(name: string, catalog: Record<string, unknown>): Promise<Json> {
  const c = await connected();
  const result = await c.callTool({ name, arguments: { meta: META, catalog } });
  expect(result.isError ?? false).toBe(false);
  expect(result.structuredContent).toBeTypeOf("object");
  // The text block mirrors structuredContent for clients without structured output.
  const content = result.content as Array<{ type: string; text?: string }>;
  const text = content.find((block) => block.type === "text")?.text;
  expect(text === undefined ? undefined : JSON.parse(text)).toEqual(result.structuredContent);
  return result.structuredContent;
}

describe("MCP SDK client against npm start", () => {
  it("connects: initialize handshake", async () => {
    const c = await connected();
    expect(c.getServerVersion()?.name).toBe("ucp-worker");
    expect(c.getServerCapabilities()?.tools).toBeDefined();
    await expect(c.ping()).resolves.toBeDefined();
  });

  it("lists exactly the catalog, cart, checkout and order tools, with described schemas", async () => {
    const c = await connected();
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(ALL_TOOLS);
    for (const tool of tools.filter((t) => CATALOG_TOOLS.includes(t.name))) {
      expect(tool.description, tool.name).toMatch(/\S/);
      const input = tool.inputSchema as Json;
      expect(input.type, tool.name).toBe("object");
      expect(input.required, tool.name).toEqual(expect.arrayContaining(["meta", "catalog"]));
      for (const key of ["meta", "catalog"]) expect(input.properties?.[key], `${tool.name}.${key}`).toBeDefined();
      for (const [key, property] of Object.entries<Json>(input.properties ?? {})) {
        expect(property.description, `${tool.name} inputSchema.properties.${key}.description`).toMatch(/\S/);
      }
      expect((tool.outputSchema as Json | undefined)?.type, tool.name).toBe("object");
    }
  });

  it("search_catalog: running shoes", async () => {
    const body = await call("search_catalog", { query: "running shoes" });
    expect(body.ucp.version).toBe("2026-04-08");
    expect(body.ucp.status).toBe("success");
    expect(body.products.length).toBeGreaterThan(0);
    for (const product of body.products) {
      expect(product.price_range, product.id).toBeDefined();
      expect(product.variants, product.id).toHaveLength(1);
      expect(Number.isInteger(product.variants[0].price.amount), product.id).toBe(true);
    }
    expect(body.pagination).toBeDefined();
    expect(body.pagination.has_next_page).toBeTypeOf("boolean");
  });

  it("lookup_catalog: duplicates merged, inputs correlated, unknown id reported", async () => {
    const body = await call("lookup_catalog", { ids: ["prod_abc123", "var_xyz789", "prod_abc123", "nope"] });
    expect(body.ucp.status).toBe("success");
    expect(body.products).toHaveLength(2);
    expect(body.products.map((p: Json) => p.id).sort()).toEqual(["prod_abc123", "prod_def456"]);
    for (const product of body.products) {
      for (const variant of product.variants) expect(variant.inputs?.length, variant.id).toBeGreaterThan(0);
    }
    const byId = Object.fromEntries(body.products.map((p: Json) => [p.id, p]));
    expect(byId.prod_abc123.variants.flatMap((v: Json) => v.inputs)).toEqual([
      { id: "prod_abc123", match: "featured" },
    ]);
    expect(byId.prod_def456.variants.map((v: Json) => v.id)).toEqual(["var_xyz789"]);
    expect(byId.prod_def456.variants[0].inputs).toEqual([{ id: "var_xyz789", match: "exact" }]);
    expect(body.messages).toContainEqual(expect.objectContaining({ type: "info", code: "not_found", content: "nope" }));
  });

  it("get_product: Color=Blue selection with option signals", async () => {
    const body = await call("get_product", { id: "prod_abc123", selected: [{ name: "Color", label: "Blue" }] });
    const { product } = body;
    expect(product.id).toBe("prod_abc123");
    expect(product.selected).toContainEqual(expect.objectContaining({ name: "Color", label: "Blue" }));
    expect(product.options.length).toBeGreaterThan(0);
    for (const option of product.options) {
      for (const value of option.values) {
        expect(typeof value.available, `${option.name}=${value.label}`).toBe("boolean");
        expect(typeof value.exists, `${option.name}=${value.label}`).toBe("boolean");
      }
    }
    const first = product.variants[0];
    expect(first.options).toContainEqual(expect.objectContaining({ name: "Color", label: "Blue" }));
  });

  it("get_product: unknown id is a JSON-RPC -32602 error", async () => {
    const c = await connected();
    const failure = await c
      .callTool({ name: "get_product", arguments: { meta: META, catalog: { id: "prod_does_not_exist" } } })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as McpError).code).toBe(-32602);
  });

  it("the transport reported no errors", () => {
    expect(transportErrors.map((e) => e.message)).toEqual([]);
  });
});

describe("Streamable HTTP over raw fetch", () => {
  it("answers a POST accepting only text/event-stream with one SSE message event", async () => {
    const res = await fetch(`${baseUrl()}/ucp/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: "sse-1", method: "tools/list" }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream\b/);
    const text = await res.text();
    const events = text.split(/\r?\n\r?\n/).filter((block) => block.trim() !== "");
    expect(events).toHaveLength(1);
    const lines = (events[0] ?? "").split(/\r?\n/);
    expect(lines.filter((line) => line.startsWith("event:")).map((line) => line.slice(6).trim())).toEqual(["message"]);
    const data = lines
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, ""))
      .join("\n");
    const message = JSON.parse(data);
    expect(message).toMatchObject({ jsonrpc: "2.0", id: "sse-1" });
    expect(message.result.tools.map((t: Json) => t.name).sort()).toEqual(ALL_TOOLS);
  });

  it("rejects GET on the MCP endpoint with 405", async () => {
    const res = await fetch(`${baseUrl()}/ucp/mcp`, { headers: { accept: "text/event-stream" } });
    await res.body?.cancel();
    expect(res.status).toBe(405);
  });
});

describe("discovery as served", () => {
  it("serves /.well-known/ucp as public, cacheable JSON without redirects", async () => {
    const res = await fetch(`${baseUrl()}/.well-known/ucp`, { redirect: "manual" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const cacheControl = res.headers.get("cache-control") ?? "";
    expect(cacheControl).toMatch(/\bpublic\b/);
    expect(Number(/max-age=(\d+)/.exec(cacheControl)?.[1])).toBeGreaterThanOrEqual(60);
    expect(cacheControl).not.toMatch(/private|no-store|no-cache/);
    const profile = (await res.json()) as { ucp: { version: string; services: Record<string, unknown> } };
    expect(profile.ucp.version).toBe("2026-08-25");
    expect(profile.ucp.services["dev.ucp.shopping"]).toBeDefined();
  });
});

describe("a cart's life through the MCP SDK client", () => {
  async function cartCall(name: string, args: Record<string, unknown>, key?: string): Promise<Json> {
    const c = await connected();
    const meta = key ? { ...META, "idempotency-key": key } : META;
    const result = await c.callTool({ name, arguments: { meta, ...args } });
    expect(result.isError ?? false).toBe(false);
    return result.structuredContent;
  }
  const sum = (cart: Json) => cart.line_items.reduce((s: number, l: Json) => s + l.item.price * l.quantity, 0);

  it("creates, updates, reads and cancels a cart, with totals that add up", async () => {
    const key = crypto.randomUUID();
    const created = await cartCall(
      "create_cart",
      { cart: { line_items: [{ item: { id: "item_123" }, quantity: 2 }] } },
      key,
    );
    expect(created.id).toMatch(/^cart_/);
    expect(created.totals).toEqual([
      { type: "subtotal", amount: 5000 },
      { type: "total", amount: 5000 },
    ]);
    const retried = await cartCall(
      "create_cart",
      { cart: { line_items: [{ item: { id: "item_123" }, quantity: 2 }] } },
      key,
    );
    expect(retried).toEqual(created);

    const updated = await cartCall("update_cart", {
      id: created.id,
      cart: {
        line_items: [
          { id: "li_1", item: { id: "item_123" }, quantity: 3 },
          { item: { id: "var_abc123_blue_12" }, quantity: 1 },
        ],
      },
    });
    expect(updated.line_items.map((l: Json) => l.id)).toEqual(["li_1", "li_2"]);
    expect(sum(updated)).toBe(3 * 2500 + 15000);
    expect(updated.totals).toEqual([
      { type: "subtotal", amount: sum(updated) },
      { type: "total", amount: sum(updated) },
    ]);

    const read = await cartCall("get_cart", { id: created.id });
    expect(read.line_items).toEqual(updated.line_items);
    // The served origin, and a sealed hand-off token rather than the cart's id.
    expect(read.continue_url.startsWith(`${baseUrl()}/cart/`)).toBe(true);
    expect(read.continue_url).not.toContain(created.id);

    const canceled = await cartCall("cancel_cart", { id: created.id }, crypto.randomUUID());
    expect(canceled.line_items).toEqual(updated.line_items);
    const gone = await cartCall("get_cart", { id: created.id });
    expect(gone.ucp.status).toBe("error");
    expect(gone.messages[0].code).toBe("not_found");
  });
});

describe("the whole journey through the MCP SDK client", () => {
  async function step(name: string, args: Record<string, unknown>, key?: string): Promise<Json> {
    const c = await connected();
    const meta = key ? { ...META, "idempotency-key": key } : META;
    const result = await c.callTool({ name, arguments: { meta, ...args } });
    expect(result.isError ?? false).toBe(false);
    return result.structuredContent;
  }
  /** Totals add up: the lines make the subtotal, and every other entry sums to the total. */
  function expectArithmetic(resource: Json) {
    const amount = (type: string) => resource.totals.find((t: Json) => t.type === type)?.amount;
    const lines = resource.line_items.reduce((s: number, l: Json) => s + l.item.price * l.quantity, 0);
    expect(amount("subtotal")).toBe(lines);
    const others = resource.totals
      .filter((t: Json) => t.type !== "total")
      .reduce((s: number, t: Json) => s + t.amount, 0);
    expect(amount("total")).toBe(others);
    for (const line of resource.line_items) {
      const lineTotal = line.totals.find((t: Json) => t.type === "total").amount;
      const lineRest = line.totals
        .filter((t: Json) => t.type !== "total")
        .reduce((s: number, t: Json) => s + t.amount, 0);
      expect(lineTotal).toBe(lineRest);
    }
  }

  it("search → cart → checkout from the cart → buyer and shipping → discount → complete → get_order", async () => {
    const found = await step("search_catalog", { catalog: { query: "runner pro" } });
    const product = found.products.find((p: Json) => p.id === "prod_abc123");
    const variant = product.variants[0];

    const cart = await step(
      "create_cart",
      { cart: { line_items: [{ item: { id: variant.id }, quantity: 2 }] } },
      crypto.randomUUID(),
    );
    expect(cart.line_items[0].item.price).toBe(variant.price.amount);
    expectArithmetic(cart);

    const started = await step("create_checkout", { checkout: { cart_id: cart.id } });
    expect(started.status).toBe("incomplete");
    expect(started.line_items.map((l: Json) => [l.item.id, l.quantity])).toEqual([[variant.id, 2]]);
    expectArithmetic(started);

    const lines = started.line_items.map((l: Json) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));
    const shipped = await step("update_checkout", {
      id: started.id,
      checkout: {
        line_items: lines,
        buyer: { email: "jane@example.com", first_name: "Jane" },
        fulfillment: {
          methods: [
            {
              type: "shipping",
              destinations: [
                {
                  street_address: "1 Market St",
                  address_locality: "San Francisco",
                  address_region: "CA",
                  postal_code: "94105",
                  address_country: "US",
                },
              ],
            },
          ],
        },
      },
    });
    expect(shipped.status).toBe("ready_for_complete");
    expect(shipped.totals.some((t: Json) => t.type === "tax")).toBe(true);
    expectArithmetic(shipped);

    const discounted = await step("update_checkout", {
      id: started.id,
      checkout: { line_items: lines, buyer: { email: "jane@example.com" }, discounts: { codes: ["SAVE10"] } },
    });
    const itemsDiscount = discounted.totals.find((t: Json) => t.type === "items_discount").amount;
    expect(itemsDiscount).toBe(-Math.round((2 * variant.price.amount) / 10));
    expect(discounted.fulfillment.methods[0].destinations).toEqual(shipped.fulfillment.methods[0].destinations);
    expectArithmetic(discounted);

    const instrument = {
      id: "instr_1",
      handler_id: "mock_payment_handler",
      type: "card",
      selected: true,
      credential: { type: "token", token: "success_token" },
    };
    const done = await step(
      "complete_checkout",
      { id: started.id, checkout: { payment: { instruments: [instrument] } } },
      crypto.randomUUID(),
    );
    expect(done.status).toBe("completed");
    expect(done.totals).toEqual(discounted.totals);

    // An anonymous client (no credential) may not read it, nor complete checkouts.
    const anonymous = new Client({ name: "anonymous-agent", version: "0.0.0" });
    await anonymous.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl()}/ucp/mcp`)));
    await expect(
      anonymous.callTool({ name: "get_order", arguments: { meta: META, id: done.order.id } }),
    ).rejects.toThrow(/401|Unauthorized|authentication/i);
    await anonymous.close();

    const order = await step("get_order", { id: done.order.id });
    expect(order.checkout_id).toBe(started.id);
    expect(order.totals).toEqual(done.totals);
    expect(order.line_items[0].quantity.total).toBe(2);
    expectArithmetic({
      ...order,
      line_items: order.line_items.map((l: Json) => ({ ...l, quantity: l.quantity.total })),
    });
  });
});
