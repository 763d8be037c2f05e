/**
 * Local development on any port: `npm start -- --port N` (startServer picks a free one, and
 * sets PORT to another, which the flag overrides)
 * serves a discovery document, continue_urls and order permalinks that name the origin
 * actually served, never wrangler.toml's MERCHANT_ORIGIN (http://localhost:8787). The
 * webhook UCP-Agent is checked in trust-webhooks.e2e.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, startServer } from "./server";

const PROFILE = "https://platform.example/profiles/v2026-01/shopping-agent.json";

// biome-ignore lint/suspicious/noExplicitAny: -- payloads are inspected structurally
type Json = any;

let server: LocalServer | undefined;
let apiKey = "";

beforeAll(async () => {
  server = await startServer({ portFlag: true });
  const res = await fetch(`${origin()}/admin/api-keys`, {
    method: "POST",
    headers: { authorization: "Bearer dev-admin-token", "content-type": "application/json" },
    body: JSON.stringify({ profile: PROFILE, label: "dev-origin e2e" }),
  });
  expect(res.status).toBe(201);
  apiKey = ((await res.json()) as { api_key: string }).api_key;
});

afterAll(async () => {
  await server?.stop();
});

function origin(): string {
  if (!server) throw new Error("the local server did not start");
  return server.baseUrl;
}

async function tool(name: string, args: Record<string, unknown>, key?: string): Promise<Json> {
  const meta = { "ucp-agent": { profile: PROFILE }, ...(key ? { "idempotency-key": key } : {}) };
  const res = await fetch(`${origin()}/ucp/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${apiKey}`,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: { meta, ...args } },
    }),
  });
  const body = (await res.json()) as Json;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.result.structuredContent;
}

describe("npm start on a port other than wrangler.toml's", () => {
  it("really serves another port than 8787", () => {
    expect(new URL(origin()).port).not.toBe("8787");
  });

  it("discovery names the served origin, and the local test mode shows in its handler", async () => {
    const res = await fetch(`${origin()}/.well-known/ucp`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    const text = await res.text();
    const profile = JSON.parse(text);
    expect(profile.ucp.services["dev.ucp.shopping"][0].endpoint).toBe(`${origin()}/ucp/mcp`);
    expect(text).not.toContain("localhost:8787");
    const handlers = Object.values<Json[]>(profile.ucp.payment_handlers).flat();
    expect(handlers.map((h) => [h.id, h.config])).toEqual([["mock_payment_handler", { test_mode: true }]]);
    for (const h of handlers) expect(h.spec.startsWith(`${origin()}/`)).toBe(true);
  });

  it("a checkout's continue_url and its order's permalink name the served origin", async () => {
    const created = await tool("create_checkout", {
      checkout: {
        line_items: [{ item: { id: "item_123" }, quantity: 1 }],
        buyer: { email: "jane@example.com" },
        fulfillment: {
          methods: [
            {
              type: "shipping",
              destinations: [
                {
                  street_address: "123 Main St",
                  address_locality: "Springfield",
                  address_region: "IL",
                  postal_code: "62701",
                  address_country: "US",
                },
              ],
            },
          ],
        },
      },
    });
    expect(created.status).toBe("ready_for_complete");
    // Hand-off URLs carry a sealed token, never the API id (src/lib/handoff-token.ts).
    expect(created.continue_url).toMatch(new RegExp(`^${escaped(origin())}/checkout/[A-Za-z0-9_-]+$`));
    expect(created.messages.map((m: Json) => m.code)).toContain("test_mode");

    const instrument = {
      id: "instr_1",
      handler_id: "mock_payment_handler",
      type: "card",
      selected: true,
      credential: { type: "token", token: "success_token" },
    };
    const done = await tool(
      "complete_checkout",
      { id: created.id, checkout: { payment: { instruments: [instrument] } } },
      crypto.randomUUID(),
    );
    expect(done.status, JSON.stringify(done.messages)).toBe("completed");
    expect(done.order.permalink_url).toMatch(new RegExp(`^${escaped(origin())}/orders/[A-Za-z0-9_-]+$`));
    const order = await tool("get_order", { id: done.order.id });
    expect(order.permalink_url).toBe(done.order.permalink_url);
  });
});

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
