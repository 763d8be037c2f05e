/**
 * The benchmark scenarios. A scenario is a name, a target URL, a function giving the next
 * request body, and a cheap response check. Adding carts/checkouts later = one more
 * factory here returning a Scenario (with `baseline` naming what to subtract).
 */
import http from "node:http";
import { MCP_PATH } from "../src/config";
import { DISCOVERY_PATH } from "./discovery-server";
import { mulberry32 } from "./generate-catalog";
import { type Scenario, send } from "./load";
import { BASELINE_PATH, DO_BASELINE_PATH, PROFILE_URL } from "./server";

export { MCP_PATH };

const META = { "ucp-agent": { profile: PROFILE_URL } };

export interface BenchProduct {
  readonly id: string;
  readonly title: string;
  readonly tags?: readonly string[];
}

/** One MCP tools/call request body. */
export function toolCall(id: number, name: string, catalog: Record<string, unknown>): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: { meta: META, catalog } },
  });
}

/** A tools/call whose arguments are given whole (cart tools take `id` and/or `cart`). */
export function cartCall(id: number, name: string, args: Record<string, unknown>): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: { meta: META, ...args } },
  });
}

/** Two lines from the catalog, rotating through the product ids (each means its default variant). */
export function cartLines(productIds: readonly string[], i: number, quantity = 1) {
  const at = (k: number) => productIds[k % productIds.length] as string;
  return [
    { item: { id: at(i) }, quantity },
    { item: { id: at(i + 1) }, quantity: 1 },
  ];
}

export function searchBody(id: number, query: string): string {
  return toolCall(id, "search_catalog", { query, pagination: { limit: 10 } });
}

export function getProductBody(id: number, productId: string): string {
  return toolCall(id, "get_product", { id: productId });
}

/**
 * Agent-style queries made only of words that occur in the catalog's titles and tags
 * ("waterproof jacket", "merino base layer", ...), so every one has hits; queries OR
 * their tokens, so broad words make realistic, large candidate sets.
 */
export function buildQueries(products: readonly BenchProduct[], count: number, seed = 7): string[] {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const queries = new Set<string>();
  for (let attempt = 0; queries.size < count && attempt < count * 50; attempt++) {
    const product = pick(products);
    const words = product.title.toLowerCase().split(/\s+/);
    const noun = words.slice(-1).join(" ");
    const tag = product.tags?.length ? pick(product.tags) : noun;
    const shapes = [
      words.join(" "), // full title
      `${tag} ${noun}`, // feature/activity + noun
      words.slice(1).join(" "), // title without the brand-ish adjective
      `${words[0]} ${noun}`, // adjective + noun
      `${tag} ${words.slice(-2).join(" ")}`,
    ];
    queries.add(pick(shapes));
  }
  return [...queries];
}

/** `count` distinct product ids, chosen at random (seeded). */
export function pickProductIds(products: readonly BenchProduct[], count: number, seed = 11): string[] {
  const random = mulberry32(seed);
  const ids = new Set<string>();
  const wanted = Math.min(count, products.length);
  while (ids.size < wanted) ids.add((products[Math.floor(random() * products.length)] as BenchProduct).id);
  return [...ids];
}

/** Rotates through pre-built bodies: no serialization cost on the client's hot path. */
function rotating(bodies: readonly string[]): () => string {
  let next = 0;
  return () => bodies[next++ % bodies.length] as string;
}

/** 200 + a JSON-RPC result (not an error envelope). Prefix test: no parse under load. */
export function checkRpcResult(status: number, text: string): string | undefined {
  if (status !== 200) return `HTTP ${status}: ${text.slice(0, 300)}`;
  const head = text.slice(0, 80);
  if (!head.includes('"result":')) return `JSON-RPC error: ${text.slice(0, 300)}`;
  return undefined;
}

/** A JSON-RPC result that is also a UCP success (not e.g. capabilities_incompatible). */
export function checkUcpSuccess(status: number, text: string): string | undefined {
  const rpc = checkRpcResult(status, text);
  if (rpc) return rpc;
  // structuredContent is raw JSON; the `content` text copy has escaped quotes and cannot match.
  if (text.includes('"status":"error"')) return `UCP error response: ${text.slice(0, 300)}`;
  return undefined;
}

export interface ScenarioInputs {
  readonly origin: string;
  readonly queries: readonly string[];
  readonly productIds: readonly string[];
}

export function catalogScenarios({ origin, queries, productIds }: ScenarioInputs): Scenario[] {
  const mcp = `${origin}${MCP_PATH}`;
  return [
    {
      name: "baseline",
      url: `${origin}${BASELINE_PATH}`,
      // Same bytes on the wire as search, so request size is not a difference.
      nextBody: rotating(queries.map((q, i) => searchBody(i + 1, q))),
      check: checkRpcResult,
    },
    {
      name: "search_catalog",
      url: mcp,
      baseline: "baseline",
      nextBody: rotating(queries.map((q, i) => searchBody(i + 1, q))),
      check: checkUcpSuccess,
    },
    {
      name: "get_product",
      url: mcp,
      baseline: "baseline",
      nextBody: rotating(productIds.map((id, i) => getProductBody(i + 1, id))),
      check: checkUcpSuccess,
    },
  ];
}

/**
 * What every agent asks before or besides any tool: discovery (GET /.well-known/ucp, a static
 * asset answered before the Worker runs), MCP `ping` and `tools/list` (answered from bytes built once
 * per isolate). Each is compared with `baseline`, the Worker that does nothing.
 */
export interface StaticInputs {
  /** The Worker every other scenario times (MCP). */
  readonly origin: string;
  /** The Miniflare with the asset layer in front (bench/discovery-server.ts). */
  readonly discoveryOrigin: string;
  /** public/.well-known/ucp as the build wrote it. */
  readonly profile: string;
}

export function staticScenarios({ origin, discoveryOrigin, profile }: StaticInputs): Scenario[] {
  const mcp = `${origin}${MCP_PATH}`;
  let pings = 0;
  let lists = 0;
  return [
    discoveryScenario(`${discoveryOrigin}${DISCOVERY_PATH}`, profile),
    {
      name: "ping",
      url: mcp,
      baseline: "baseline",
      nextBody: () => `{"jsonrpc":"2.0","id":${++pings},"method":"ping"}`,
      check: (status, text) =>
        status === 200 && /^\{"jsonrpc":"2\.0","id":\d+,"result":\{\}\}$/.test(text)
          ? undefined
          : `HTTP ${status}: ${text.slice(0, 300)}`,
    },
    {
      name: "tools_list",
      url: mcp,
      baseline: "baseline",
      nextBody: () => `{"jsonrpc":"2.0","id":${++lists},"method":"tools/list"}`,
      // All 13 tools, whole: the name of the last and the closing brackets.
      check: (status, text) =>
        status === 200 &&
        text.includes('"result":{"tools":[{"name":') &&
        text.includes('"name":"get_order"') &&
        text.endsWith("]}}")
          ? undefined
          : `HTTP ${status}: ${text.slice(0, 300)}`,
    },
  ];
}

/**
 * GET, where bench/load.ts only posts: the loop's `journey` hook runs any request, and a
 * one-request journey is timed like a single request. Right = the bytes public/ holds
 * (the profile the build wrote, compared whole: it is 4 KB), served as JSON.
 */
function discoveryScenario(url: string, profile: string): Scenario {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true });
  const get = () => send(agent, target, { method: "GET", timeoutMs: 30_000 });
  return {
    name: "discovery",
    url,
    baseline: "baseline",
    nextBody: () => "",
    check: () => undefined,
    async journey() {
      const { status, headers, text } = await get();
      const type = String(headers["content-type"]);
      if (status === 200 && type === "application/json" && text === profile) return undefined;
      return `HTTP ${status} (${type}): ${text.slice(0, 300)}`;
    },
  };
}

export interface CartInputs {
  readonly origin: string;
  readonly productIds: readonly string[];
  /** Carts made before timing, for get and update. */
  readonly cartIds: readonly string[];
}

/**
 * Cart scenarios, measured against the bare Durable Object round trip. get and update rotate
 * over existing carts; create_cart makes a new cart (a new SQLite database) per request and
 * runs last, so the disk writes it leaves behind do not disturb the others.
 */
export function cartScenarios({ origin, productIds, cartIds }: CartInputs): Scenario[] {
  const mcp = `${origin}${MCP_PATH}`;
  const n = 500;
  return [
    {
      name: "do_roundtrip",
      url: `${origin}${DO_BASELINE_PATH}`,
      nextBody: rotating(cartIds.map((id, i) => cartCall(i + 1, "get_cart", { id }))),
      check: checkRpcResult,
    },
    {
      name: "get_cart",
      url: mcp,
      baseline: "do_roundtrip",
      nextBody: rotating(cartIds.map((id, i) => cartCall(i + 1, "get_cart", { id }))),
      check: checkUcpSuccess,
    },
    {
      name: "update_cart",
      url: mcp,
      baseline: "do_roundtrip",
      nextBody: rotating(
        Array.from({ length: n }, (_, i) => {
          const id = cartIds[i % cartIds.length] as string;
          return cartCall(i + 1, "update_cart", { id, cart: { line_items: cartLines(productIds, i, (i % 3) + 1) } });
        }),
      ),
      check: checkUcpSuccess,
    },
    {
      name: "create_cart",
      url: mcp,
      baseline: "do_roundtrip",
      nextBody: rotating(
        Array.from({ length: n }, (_, i) =>
          cartCall(i + 1, "create_cart", { cart: { line_items: cartLines(productIds, i) } }),
        ),
      ),
      check: checkUcpSuccess,
    },
  ];
}

const ADDRESS = {
  street_address: "1 Market St",
  address_locality: "San Francisco",
  address_region: "CA",
  postal_code: "94105",
  address_country: "US",
};

/**
 * The checkout journey an agent runs to buy: create (lines, buyer, address), update (a
 * discount code and express shipping), complete (test token). One unit = three requests,
 * all with the platform's API key: complete_checkout needs an authenticated platform.
 */
export function journeyScenario(origin: string, productIds: readonly string[], apiKey: string): Scenario {
  let next = 0;
  let keys = 0;
  const ok = (status: number, text: string, want: string) =>
    status === 200 && text.includes(`"status":"${want}"`) ? undefined : `HTTP ${status}: ${problemOf(text)}`;
  return {
    name: "checkout_journey",
    url: `${origin}${MCP_PATH}`,
    headers: { authorization: `Bearer ${apiKey}` },
    baseline: "do_roundtrip",
    nextBody: () => "",
    check: () => undefined,
    async journey(send) {
      const i = next++;
      // Two products no other journey buys: stock is finite, and the store never oversells.
      const lines = cartLines(productIds, 2 * i);
      const buyer = { email: `buyer${i}@example.com` };
      const create = await send(
        cartCall(1, "create_checkout", {
          checkout: {
            line_items: lines,
            buyer,
            fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
          },
        }),
      );
      const created = ok(create.status, create.text, "ready_for_complete");
      if (created) return `create: ${created}`;
      const id = (JSON.parse(create.text) as { result: { structuredContent: { id: string } } }).result.structuredContent
        .id;
      const update = await send(
        cartCall(2, "update_checkout", {
          id,
          checkout: {
            line_items: lines,
            buyer,
            discounts: { codes: ["SAVE10"] },
            fulfillment: { methods: [{ groups: [{ selected_option_id: "express" }] }] },
          },
        }),
      );
      const updated = ok(update.status, update.text, "ready_for_complete");
      if (updated) return `update: ${updated}`;
      const instrument = {
        id: "i1",
        handler_id: "mock_payment_handler",
        type: "card",
        credential: { type: "token", token: "success_token" },
      };
      const complete = await send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 3,
          method: "tools/call",
          params: {
            name: "complete_checkout",
            arguments: {
              meta: { ...META, "idempotency-key": `bench-${keys++}` },
              id,
              checkout: { payment: { instruments: [instrument] } },
            },
          },
        }),
      );
      const completed = ok(complete.status, complete.text, "completed");
      return completed ? `complete: ${completed}` : undefined;
    },
  };
}

/** The messages of a UCP answer (what went wrong), else the start of the text. */
function problemOf(text: string): string {
  try {
    const reply = JSON.parse(text) as { result?: { structuredContent?: { status?: string; messages?: unknown } } };
    const content = reply.result?.structuredContent;
    if (content?.messages) return `status ${content.status}: ${JSON.stringify(content.messages).slice(0, 400)}`;
  } catch {
    // not JSON: fall through
  }
  return text.slice(0, 300);
}
