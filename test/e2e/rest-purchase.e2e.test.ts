/**
 * A purchase over the REST binding against the real local server (`npm start`), as a platform
 * makes it: the endpoint from /.well-known/ucp's `rest` binding, an API key the merchant issued
 * (X-API-Key) and every request signed with the key in the platform's own profile (RFC 9421),
 * search → cart → checkout from the cart → shipping → complete → GET the order. The
 * completion's answer is verified with the merchant key discovery publishes.
 *
 * The platform profile is served from 127.0.0.1, which .dev.vars allows for local development.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signRequest, verifyResponse } from "../../src/auth/http-signature";
import { importSigningKey } from "../../src/auth/signing-keys";
import { PLATFORM_KEY, publicJwk } from "../fixtures/platform-keys";
import { type LocalServer, startServer } from "./server";

// biome-ignore lint/suspicious/noExplicitAny: -- payloads are inspected structurally
type Json = any;

/** This suite's own port (9800-9819 are the REST suites'). */
const PORT = 9801;
const V = "2026-04-08";

let shop: LocalServer | undefined;
let platform: Server | undefined;
let profileUrl = "";

function platformProfile() {
  const docs = (c: string) => ({
    spec: `https://ucp.dev/${V}/specification/${c}`,
    schema: `https://ucp.dev/${V}/schemas/shopping/${c}.json`,
  });
  const caps = ["catalog.search", "catalog.lookup", "cart", "checkout", "fulfillment", "order"].map((c) => [
    `dev.ucp.shopping.${c}`,
    [{ version: V, ...docs(c) }],
  ]);
  return {
    ucp: { version: V, services: {}, capabilities: Object.fromEntries(caps), payment_handlers: {} },
    signing_keys: [publicJwk(PLATFORM_KEY)],
  };
}

beforeAll(async () => {
  platform = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/profile.json") {
      res.writeHead(200, { "content-type": "application/json", "cache-control": "public, max-age=300" });
      res.end(JSON.stringify(platformProfile()));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => platform?.listen(0, "127.0.0.1", resolve));
  profileUrl = `http://127.0.0.1:${(platform.address() as AddressInfo).port}/profile.json`;
  shop = await startServer({ port: PORT });
});

afterAll(async () => {
  await shop?.stop();
  await new Promise<void>((resolve) => (platform ? platform.close(() => resolve()) : resolve()));
});

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: Json;
}

describe("a purchase over REST", () => {
  it("search, cart, checkout, complete and the order: signed, with an API key, the answer signed back", async () => {
    const base = shop?.baseUrl ?? "";
    // A 2026-04-08 platform: the root profile is 2026-08-25, so it takes the leaf the root names.
    const root: Json = await (await fetch(`${base}/.well-known/ucp`)).json();
    const discovery: Json = await (await fetch(root.ucp.supported_versions[V])).json();
    const binding = discovery.ucp.services["dev.ucp.shopping"].find((b: Json) => b.transport === "rest");
    expect(binding.schema).toBe(`https://ucp.dev/${V}/services/shopping/rest.openapi.json`);
    // The binding names the store's origin; the calls go to this server under that path.
    const endpoint = `${base}${new URL(binding.endpoint).pathname}`;

    const issued = await fetch(`${base}/admin/api-keys`, {
      method: "POST",
      headers: { authorization: "Bearer dev-admin-token", "content-type": "application/json" },
      body: JSON.stringify({ profile: profileUrl, label: "rest e2e" }),
    });
    expect(issued.status).toBe(201);
    const apiKey: string = ((await issued.json()) as Json).api_key;
    const key = await importSigningKey(JSON.stringify(PLATFORM_KEY));
    if (!key.ok) throw new Error(key.error.content);

    const call = async (method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<Reply> => {
      const url = `${endpoint}${path}`;
      const text = body === undefined ? null : JSON.stringify(body);
      const headers = new Headers({
        "ucp-agent": `profile="${profileUrl}"`,
        "x-api-key": apiKey,
        "request-id": crypto.randomUUID(),
        accept: "application/json",
      });
      if (text !== null) headers.set("content-type", "application/json");
      if (idempotencyKey) headers.set("idempotency-key", idempotencyKey);
      await signRequest({ method, url, headers, body: text }, key.value);
      const res = await fetch(url, { method, headers, ...(text === null ? {} : { body: text }) });
      const answer = await res.text();
      expect(res.headers.get("request-id")).toBe(headers.get("request-id"));
      return { status: res.status, headers: res.headers, text: answer, body: JSON.parse(answer) };
    };

    const found = await call("POST", "/catalog/search", { query: "jacket", pagination: { limit: 1 } });
    expect(found.status, found.text).toBe(200);
    const variant = found.body.products[0].variants[0];

    const cart = await call("POST", "/carts", { line_items: [{ item: { id: variant.id }, quantity: 1 }] });
    expect(cart.status, cart.text).toBe(201);
    expect(cart.headers.get("ucp-trust-tier")).toBe("authenticated");

    const checkout = await call("POST", "/checkout-sessions", { cart_id: cart.body.id }, crypto.randomUUID());
    expect(checkout.status, checkout.text).toBe(201);
    expect(checkout.body.line_items[0].item.id).toBe(variant.id);
    const id = checkout.body.id;

    const shipping = await call("PUT", `/checkout-sessions/${id}`, {
      line_items: checkout.body.line_items.map((l: Json) => ({
        id: l.id,
        item: { id: l.item.id },
        quantity: l.quantity,
      })),
      buyer: { email: "rest-buyer@example.com", first_name: "Rest" },
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
    });
    expect(shipping.status, shipping.text).toBe(200);
    expect(shipping.body.status).toBe("ready_for_complete");

    const instrument = {
      id: "instr_1",
      handler_id: "mock_payment_handler",
      type: "card",
      selected: true,
      display: { brand: "visa", last_digits: "4242" },
      credential: { type: "token", token: "success_token" },
    };
    const done = await call(
      "POST",
      `/checkout-sessions/${id}/complete`,
      { payment: { instruments: [instrument] } },
      crypto.randomUUID(),
    );
    expect(done.status, done.text).toBe(200);
    expect(done.body.status).toBe("completed");
    const kid = /keyid="([^"]+)"/.exec(done.headers.get("signature-input") ?? "")?.[1];
    const merchantKey = discovery.signing_keys.find((k: Json) => k.kid === kid);
    expect(merchantKey, "complete_checkout's answer is signed with a published key").toBeDefined();
    const verified = await verifyResponse(
      { status: done.status, headers: done.headers, body: new TextEncoder().encode(done.text) },
      merchantKey,
    );
    expect(verified.ok, JSON.stringify(verified)).toBe(true);

    const order = await call("GET", `/orders/${done.body.order.id}`);
    expect(order.status, order.text).toBe(200);
    expect(order.body.id).toBe(done.body.order.id);
    expect(order.body.line_items[0].item.id).toBe(variant.id);
  });
});
