/**
 * The REST binding's eleven operations over the real fetch handler, each answer checked
 * against the official OpenAPI document (its schema for the operation and status) and the
 * binding's headers: 201 on create, Request-Id echoed, CORS, a signed complete_checkout.
 */

import { describe, expect, it } from "vitest";
import committed from "../../public/.well-known/ucp?raw";
import { verifyResponse } from "../../src/auth/http-signature";
import { ADDRESS, pay } from "../helpers/checkout";
import { OFFICIAL, validateCheckout, validateOfficial } from "../helpers/official-schema";
import { requestErrors, requiredHeaders, responseErrors } from "./openapi";
import { type RestReply, rest } from "./rest-client";

const discoveryKeys: JsonWebKey[] = JSON.parse(committed).signing_keys;

function expectOperation(reply: RestReply, method: string, path: string, status: number) {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers.get("content-type")).toBe("application/json");
  expect(reply.headers.get("access-control-allow-origin")).toBe("*");
  expect(responseErrors(method, path, status, reply.body)).toEqual([]);
}

// 30 s: a file's first request builds the Worker's isolate, seconds on a loaded machine.
describe("catalog over REST", { timeout: 30_000 }, () => {
  it("POST /catalog/search, /catalog/lookup and /catalog/product answer 200 with their OpenAPI response shapes", async () => {
    const search = { query: "shoes", pagination: { limit: 3 } };
    expect(requestErrors("POST", "/catalog/search", search)).toEqual([]);
    const found = await rest("POST", "/catalog/search", { body: search });
    expectOperation(found, "POST", "/catalog/search", 200);
    expect(found.body.products.length).toBeGreaterThan(0);

    const lookup = { ids: ["prod_abc123", "nope_1"] };
    expect(requestErrors("POST", "/catalog/lookup", lookup)).toEqual([]);
    const looked = await rest("POST", "/catalog/lookup", { body: lookup });
    expectOperation(looked, "POST", "/catalog/lookup", 200);
    expect(looked.body.products.map((p: { id: string }) => p.id)).toEqual(["prod_abc123"]);
    expect(looked.body.messages).toContainEqual(expect.objectContaining({ code: "not_found", content: "nope_1" }));

    const product = { id: "prod_abc123" };
    expect(requestErrors("POST", "/catalog/product", product)).toEqual([]);
    const detail = await rest("POST", "/catalog/product", { body: product });
    expectOperation(detail, "POST", "/catalog/product", 200);
    expect(detail.body.product.id).toBe("prod_abc123");
  });

  it("an unknown product is a 200 error envelope, not_found and unrecoverable (catalog/rest.md Product Not Found)", async () => {
    const reply = await rest("POST", "/catalog/product", { body: { id: "prod_invalid" } });
    expectOperation(reply, "POST", "/catalog/product", 200);
    expect(reply.body).toEqual({
      ucp: {
        version: "2026-04-08",
        status: "error",
        capabilities: { "dev.ucp.shopping.catalog.lookup": [{ version: "2026-04-08" }] },
      },
      messages: [
        { type: "error", code: "not_found", content: "Product not found: prod_invalid", severity: "unrecoverable" },
      ],
    });
  });

  it("a lookup over the batch limit is 400 request_too_large (catalog/rest.md conformance 5)", async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `id_${i}`);
    const reply = await rest("POST", "/catalog/lookup", { body: { ids } });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body).toMatchObject({ code: "request_too_large", path: "$.ids" });
  });
});

describe("carts over REST", { timeout: 30_000 }, () => {
  it("create is 201, get/update/cancel 200, and each echoes Request-Id", async () => {
    const requestId = crypto.randomUUID();
    const created = await rest("POST", "/carts", {
      body: { line_items: [{ item: { id: "item_123" }, quantity: 2 }] },
      headers: { "request-id": requestId },
    });
    expectOperation(created, "POST", "/carts", 201);
    expect(created.headers.get("request-id")).toBe(requestId);
    const { id } = created.body;

    const got = await rest("GET", `/carts/${id}`);
    expectOperation(got, "GET", "/carts/{id}", 200);
    expect(got.body.line_items[0].quantity).toBe(2);
    // Absent Request-Id: the answer still names one for tracing.
    expect(got.headers.get("request-id")).toMatch(/^[0-9a-f-]{36}$/);

    // The body names the cart too: cart.json's update request requires `id` (ucp_request).
    const updated = await rest("PUT", `/carts/${id}`, {
      body: { id, line_items: [{ item: { id: "item_123" }, quantity: 3 }] },
    });
    expectOperation(updated, "PUT", "/carts/{id}", 200);
    expect(updated.body.line_items[0].quantity).toBe(3);

    const unkeyed = await rest("POST", `/carts/${id}/cancel`, { body: {} });
    expect(unkeyed.status, unkeyed.text).toBe(400);
    expect(unkeyed.body).toEqual({
      code: "invalid_request",
      content: "cancel_cart requires the Idempotency-Key header",
    });

    const canceled = await rest("POST", `/carts/${id}/cancel`, { body: {}, key: crypto.randomUUID() });
    expectOperation(canceled, "POST", "/carts/{id}/cancel", 200);
  });

  it("an unknown cart is a 200 error envelope (cart-rest.md: not found is a business outcome)", async () => {
    const reply = await rest("GET", "/carts/cart_doesnotexist");
    expectOperation(reply, "GET", "/carts/{id}", 200);
    expect(reply.body.ucp.status).toBe("error");
    expect(reply.body.messages[0].code).toBe("not_found");
  });
});

describe("checkouts and orders over REST", { timeout: 30_000 }, () => {
  it("create 201, update, complete (signed, keyed, answer signed by the merchant), then GET /orders/{id}", async () => {
    const create = {
      line_items: [{ item: { id: "item_123" }, quantity: 1 }],
      buyer: { email: "jane@example.com", first_name: "Jane" },
    };
    const created = await rest("POST", "/checkout-sessions", { body: create });
    expectOperation(created, "POST", "/checkout-sessions", 201);
    expect(validateCheckout(created.body)).toEqual([]);
    const { id } = created.body;

    const got = await rest("GET", `/checkout-sessions/${id}`);
    expectOperation(got, "GET", "/checkout-sessions/{id}", 200);

    // The deprecated body id (checkout-rest.md's example) is accepted when it names the path's session.
    const updated = await rest("PUT", `/checkout-sessions/${id}`, {
      body: { ...create, id, fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] } },
    });
    expectOperation(updated, "PUT", "/checkout-sessions/{id}", 200);
    expect(validateCheckout(updated.body)).toEqual([]);

    const completed = await rest("POST", `/checkout-sessions/${id}/complete`, {
      body: pay("success_token"),
      key: crypto.randomUUID(),
      sign: true,
    });
    expectOperation(completed, "POST", "/checkout-sessions/{id}/complete", 200);
    expect(completed.body.status).toBe("completed");
    expect(completed.headers.get("ucp-trust-tier")).toBe("authenticated");
    const kid = /keyid="([^"]+)"/.exec(completed.headers.get("signature-input") ?? "")?.[1];
    const key = discoveryKeys.find((k) => (k as { kid?: string }).kid === kid);
    expect(key, "the answer is signed with a key discovery publishes").toBeDefined();
    const verified = await verifyResponse(
      { status: completed.status, headers: completed.headers, body: new TextEncoder().encode(completed.text) },
      key as JsonWebKey,
    );
    expect(verified.ok, JSON.stringify(verified)).toBe(true);

    const order = await rest("GET", `/orders/${completed.body.order.id}`, { sign: true });
    expectOperation(order, "GET", "/orders/{id}", 200);
    expect(order.body.id).toBe(completed.body.order.id);
  });

  it("cancel needs its key, then answers the canceled session", async () => {
    const created = await rest("POST", "/checkout-sessions", {
      body: { line_items: [{ item: { id: "item_456" }, quantity: 1 }] },
    });
    const path = `/checkout-sessions/${created.body.id}/cancel`;
    expect((await rest("POST", path)).status).toBe(400);
    const canceled = await rest("POST", path, { key: crypto.randomUUID() });
    expectOperation(canceled, "POST", "/checkout-sessions/{id}/cancel", 200);
    expect(canceled.body.status).toBe("canceled");
  });
});

describe("headers the OpenAPI document requires", { timeout: 30_000 }, () => {
  it("UCP-Agent is required on every operation, Request-Id too, Idempotency-Key on the mutating ones", () => {
    const required = requiredHeaders("POST", "/checkout-sessions");
    if (required.length === 0) return; // no spec material: nothing to compare with
    expect(required).toEqual(expect.arrayContaining(["ucp-agent", "request-id", "idempotency-key"]));
    expect(requiredHeaders("GET", "/orders/{id}")).toEqual(expect.arrayContaining(["ucp-agent", "request-id"]));
  });
});

describe("negotiation over REST", { timeout: 30_000 }, () => {
  it("a platform without the operation's capability gets a 200 capabilities_incompatible envelope", async () => {
    const reply = await rest("POST", "/catalog/search", {
      body: { query: "shoes" },
      profile: "https://agent.test/profiles/checkout-only.json",
    });
    // The OpenAPI's search response has no error_response alternative (get_product's has): the
    // envelope is checked against error_response.json itself.
    expect(reply.status, reply.text).toBe(200);
    expect(validateOfficial(OFFICIAL.errorResponse, reply.body).errors).toEqual([]);
    expect(reply.body.ucp.status).toBe("error");
    expect(reply.body.messages[0].code).toBe("capabilities_incompatible");
    expect(reply.body.continue_url).toBe("https://shop.example.com");
  });
});
