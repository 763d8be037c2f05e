/**
 * Platform trust end to end, against the real local server (`npm start`): a platform that
 * signs its requests (RFC 9421, key in its own profile) places an order with the official
 * MCP SDK client; the merchant marks it shipped; the platform's webhook receiver, which
 * fails the first three attempts, gets both events, each signed by the merchant key
 * published at /.well-known/ucp, each delivered once by Webhook-Id.
 *
 * The platform (profile + receiver) is a local HTTP server on 127.0.0.1, which .dev.vars
 * allows (OUTBOUND_ALLOW) for local development only.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signRequest, verifyRequest, verifyResponse } from "../../src/auth/http-signature";
import { importSigningKey } from "../../src/auth/signing-keys";
import { PLATFORM_KEY, publicJwk } from "../fixtures/platform-keys";
import { type LocalServer, startServer } from "./server";

// biome-ignore lint/suspicious/noExplicitAny: -- payloads are inspected structurally
type Json = any;

interface Delivery {
  readonly id: string;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

let shop: LocalServer | undefined;
let platform: Server | undefined;
let platformOrigin = "";
const deliveries: Delivery[] = [];
let failuresLeft = 3;

function platformProfile() {
  const V = "2026-04-08";
  // The platform profile schema requires spec and schema on every capability entry.
  const docs = (c: string) => ({
    spec: `https://ucp.dev/${V}/specification/${c}`,
    schema: `https://ucp.dev/${V}/schemas/shopping/${c}.json`,
  });
  const caps = ["catalog.search", "catalog.lookup", "cart", "checkout", "fulfillment", "discount", "buyer_consent"].map(
    (c) => [`dev.ucp.shopping.${c}`, [{ version: V, ...docs(c) }]],
  );
  return {
    ucp: {
      version: V,
      services: {},
      capabilities: {
        ...Object.fromEntries(caps),
        "dev.ucp.shopping.order": [
          { version: V, ...docs("order"), config: { webhook_url: `${platformOrigin}/webhooks/orders` } },
        ],
      },
      payment_handlers: {},
    },
    signing_keys: [publicJwk(PLATFORM_KEY)],
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

beforeAll(async () => {
  platform = createServer(async (req, res) => {
    if (req.method === "GET" && req.url === "/profile.json") {
      res.writeHead(200, { "content-type": "application/json", "cache-control": "public, max-age=300" });
      res.end(JSON.stringify(platformProfile()));
      return;
    }
    if (req.method === "POST" && req.url === "/webhooks/orders") {
      const body = await readBody(req);
      const status = failuresLeft-- > 0 ? 503 : 200;
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      deliveries.push({ id: headers["webhook-id"] ?? "", status, headers, body });
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify({ ucp: { version: "2026-04-08", status: status === 200 ? "success" : "error" } }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => platform?.listen(0, "127.0.0.1", resolve));
  platformOrigin = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
  shop = await startServer();
});

afterAll(async () => {
  await shop?.stop();
  await new Promise<void>((resolve) => (platform ? platform.close(() => resolve()) : resolve()));
});

const profileUrl = () => `${platformOrigin}/profile.json`;
const base = () => shop?.baseUrl ?? "";

/** The platform's fetch: every MCP POST signed with its key, naming its profile in UCP-Agent. */
async function signingFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const key = await importSigningKey(JSON.stringify(PLATFORM_KEY));
  if (!key.ok) throw new Error(key.error.content);
  const url = String(input instanceof Request ? input.url : input);
  const headers = new Headers(init?.headers);
  const body = typeof init?.body === "string" ? init.body : null;
  if (init?.method === "POST") {
    headers.set("ucp-agent", `profile="${profileUrl()}"`);
    // A signing platform sends its key as the signed Idempotency-Key header too (required
    // for complete_checkout and cancel_checkout, src/pipeline/idempotency-key.ts).
    const idempotencyKey = idempotencyKeyOf(body);
    if (idempotencyKey) headers.set("idempotency-key", idempotencyKey);
    await signRequest({ method: "POST", url, headers, body }, key.value);
  }
  return fetch(url, { ...init, headers });
}

function idempotencyKeyOf(body: string | null): string | undefined {
  try {
    const key = JSON.parse(body ?? "null")?.params?.arguments?.meta?.["idempotency-key"];
    return typeof key === "string" ? key : undefined;
  } catch {
    return undefined;
  }
}

async function merchantKeys(): Promise<JsonWebKey[]> {
  return ((await (await fetch(`${base()}/.well-known/ucp`)).json()) as Json).signing_keys;
}

async function verifiesAsMerchant(d: Delivery, keys: JsonWebKey[]): Promise<boolean> {
  const verified = await verifyRequest(
    {
      method: "POST",
      url: `${platformOrigin}/webhooks/orders`,
      headers: new Headers(d.headers),
      body: new TextEncoder().encode(d.body),
    },
    async (kid) => keys.find((k) => (k as { kid?: string }).kid === kid),
    { now: Date.now(), maxAgeSeconds: 300 },
  );
  return verified.ok;
}

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; deliveries: ${deliveries.length}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe("a signing platform, order webhooks and signed responses", () => {
  it("signed agent completes; order created and shipped arrive signed, once each, despite 3 failures", async () => {
    const client = new Client({ name: "signing-platform", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base()}/ucp/mcp`), { fetch: signingFetch }));
    const meta = (extra: Record<string, unknown> = {}) => ({ "ucp-agent": { profile: profileUrl() }, ...extra });
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({
        name,
        arguments: { meta: meta({ "idempotency-key": crypto.randomUUID() }), ...args },
      });
      expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
      return result.structuredContent as Json;
    };

    const checkout = await call("create_checkout", {
      checkout: {
        line_items: [{ item: { id: "item_123" }, quantity: 1 }],
        buyer: { email: "sam@example.com" },
        fulfillment: {
          methods: [
            {
              type: "shipping",
              destinations: [
                {
                  street_address: "1 Main St",
                  address_locality: "Austin",
                  address_region: "TX",
                  postal_code: "78701",
                  address_country: "US",
                },
              ],
            },
          ],
        },
      },
    });
    expect(checkout.status).toBe("ready_for_complete");
    const payment = {
      instruments: [
        {
          id: "instr_1",
          handler_id: "mock_payment_handler",
          type: "card",
          selected: true,
          credential: { type: "token", token: "success_token" },
        },
      ],
    };
    const done = await call("complete_checkout", { id: checkout.id, checkout: { payment } });
    expect(done.status).toBe("completed");
    const orderId: string = done.order.id;
    await client.close();

    // The merchant ships it (admin route, development token from .dev.vars).
    const line = done.line_items[0].id;
    const shipped = await fetch(`${base()}/admin/orders/${orderId}/events`, {
      method: "POST",
      headers: { authorization: "Bearer dev-admin-token", "content-type": "application/json" },
      body: JSON.stringify({ type: "shipped", line_items: [{ id: line, quantity: 1 }], carrier: "UPS" }),
    });
    expect(shipped.status).toBe(200);

    const ok = await waitFor("two delivered webhooks", () => {
      const delivered = deliveries.filter((d) => d.status === 200);
      return delivered.length >= 2 ? delivered : undefined;
    });
    const keys = await merchantKeys();
    expect(deliveries.slice(0, 3).map((d) => d.status)).toEqual([503, 503, 503]);
    // The failed attempts were of the first event: the same Webhook-Id until it got through.
    expect(new Set(deliveries.slice(0, 4).map((d) => d.id)).size).toBe(1);
    for (const d of deliveries) expect(await verifiesAsMerchant(d, keys)).toBe(true);
    const [created, update] = ok.map((d) => JSON.parse(d.body));
    expect(created.id).toBe(orderId);
    expect(created.fulfillment.events).toEqual([]);
    expect(update.fulfillment.events).toMatchObject([{ type: "shipped", carrier: "UPS" }]);
    // The origin actually served (npm start on a free port), not wrangler.toml's localhost:8787;
    // and our profile of the platform's version (2026-04-08: the leaf, which carries signing_keys).
    expect(ok[0]?.headers["ucp-agent"]).toBe(`profile="${base()}/.well-known/ucp-profiles/2026-04-08"`);
    // At-least-once, deduplicated by the receiver: every Webhook-Id succeeded exactly once.
    const successes = new Map<string, number>();
    for (const d of ok) successes.set(d.id, (successes.get(d.id) ?? 0) + 1);
    expect([...successes.values()]).toEqual([1, 1]);

    // The merchant's delivery log shows the same story.
    const log = await fetch(`${base()}/admin/orders/${orderId}/webhooks`, {
      headers: { authorization: "Bearer dev-admin-token" },
    });
    expect(log.status).toBe(200);
    const entries = ((await log.json()) as Json).webhooks;
    expect(entries.map((e: Json) => [e.event, e.attempts, e.delivered_at !== null])).toEqual([
      ["order.created", 4, true],
      ["order.updated", 1, true],
    ]);
  });

  it("complete_checkout answers carry the merchant's signature", async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "complete_checkout",
        arguments: {
          meta: { "ucp-agent": { profile: profileUrl() }, "idempotency-key": crypto.randomUUID() },
          id: "chk_unknown",
          checkout: { payment: {} },
        },
      },
    });
    const res = await signingFetch(`${base()}/ucp/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body,
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    const kid = /keyid="([^"]+)"/.exec(res.headers.get("signature-input") ?? "")?.[1];
    const key = (await merchantKeys()).find((k) => (k as { kid?: string }).kid === kid);
    expect(key, "the response names a key discovery publishes").toBeDefined();
    const verified = await verifyResponse({ status: res.status, headers: res.headers, body: bytes }, key as JsonWebKey);
    expect(verified.ok, JSON.stringify(verified)).toBe(true);
  });

  it("an anonymous agent is refused complete_checkout with a clear message and the hand-off URL", async () => {
    const res = await fetch(`${base()}/ucp/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: {
          name: "complete_checkout",
          arguments: {
            meta: { "ucp-agent": { profile: profileUrl() }, "idempotency-key": crypto.randomUUID() },
            id: "chk_x",
            checkout: { payment: {} },
          },
        },
      }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("ucp-trust-tier")).toBe("anonymous");
    const reply = (await res.json()) as Json;
    expect(reply.error).toMatchObject({ code: -32000, data: { code: "authentication_required", tier: "anonymous" } });
    // The store's origin: a session's own hand-off URL goes only to its owner.
    expect(reply.error.data.continue_url).toMatch(/^https?:\/\/[^/]+$/);
  });
});
