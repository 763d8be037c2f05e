/**
 * REST protocol errors (checkout-rest.md "Status Codes", "Error Responses"): the status the
 * binding lists with a `{ code, content }` body, `retry-after` on 429, a Bearer challenge on
 * 401, and REST request signing's covered components. Business outcomes stay 200.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signRequest } from "../../src/auth/http-signature";
import { errorReply } from "../../src/rest/wire";
import { rateLimited } from "../../src/ucp/errors";
import { pay } from "../helpers/checkout";
import { CLIENT_IP, FULL_PROFILE, PROFILES, platformKey } from "../helpers/mcp";
import { openapiPresent, responseErrors } from "./openapi";
import { REST_ENDPOINT, rest } from "./rest-client";

const LINE = { line_items: [{ item: { id: "item_123" }, quantity: 1 }] };

// 30 s: a file's first request builds the Worker's isolate, seconds on a loaded machine.
describe("REST protocol errors", { timeout: 30_000 }, () => {
  it("no UCP-Agent: 400 invalid_profile_url", async () => {
    const reply = await rest("POST", "/carts", { body: LINE, profile: null });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body).toMatchObject({ code: "invalid_profile_url", content: expect.any(String) });
  });

  it("a profile that cannot be fetched: 424; a malformed one: 422", async () => {
    const unreachable = await rest("POST", "/carts", { body: LINE, profile: `${PROFILES}/server-error.json` });
    expect(unreachable.status, unreachable.text).toBe(424);
    expect(unreachable.body.code).toBe("profile_unreachable");
    const malformed = await rest("POST", "/carts", { body: LINE, profile: `${PROFILES}/not-json.json` });
    expect(malformed.status, malformed.text).toBe(422);
    expect(malformed.body.code).toBe("profile_malformed");
  });

  it("bad JSON, a non-object body and a non-JSON content type are 400 invalid_request", async () => {
    for (const [body, headers] of [
      ["{nope", {}],
      ["[1, 2]", {}],
      [JSON.stringify(LINE), { "content-type": "text/plain" }],
    ] as const) {
      const reply = await rest("POST", "/carts", { body, headers });
      expect(reply.status, reply.text).toBe(400);
      expect(reply.body.code).toBe("invalid_request");
    }
  });

  it("a body over 1 MiB: 413 request_too_large, before anything else is read", async () => {
    const reply = await rest("POST", "/carts", { body: JSON.stringify({ pad: "x".repeat(1024 * 1024) }) });
    expect(reply.status, reply.text).toBe(413);
    expect(reply.body.code).toBe("request_too_large");
  });

  it("invalid arguments: 400 with JSONPaths into the body (not into the MCP arguments)", async () => {
    const reply = await rest("POST", "/checkout-sessions", {
      body: { line_items: [{ item: {}, quantity: -1 }] },
      invalidBody: true,
    });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.code).toBe("invalid_request");
    const paths = reply.body.issues.map((i: { path: string }) => i.path);
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path).toMatch(/^\$\.line_items\[0\]/);
    expect(reply.body.content).not.toContain("$.checkout");
  });

  it("a key reused with another body: 409 idempotency_conflict; the same body replays the first answer", async () => {
    const key = crypto.randomUUID();
    const first = await rest("POST", "/carts", { body: LINE, key });
    expect(first.status).toBe(201);
    const again = await rest("POST", "/carts", { body: LINE, key });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    const other = await rest("POST", "/carts", {
      body: { line_items: [{ item: { id: "item_123" }, quantity: 2 }] },
      key,
    });
    expect(other.status, other.text).toBe(409);
    expect(other.body).toMatchObject({ code: "idempotency_conflict" });
  });

  it("anonymous complete and get_order: 401 authentication_required with a Bearer challenge", async () => {
    const created = await rest("POST", "/checkout-sessions", { body: LINE });
    const complete = await rest("POST", `/checkout-sessions/${created.body.id}/complete`, {
      body: pay("success_token"),
      key: crypto.randomUUID(),
    });
    expect(complete.status, complete.text).toBe(401);
    expect(complete.body).toMatchObject({ code: "authentication_required", required_tier: "authenticated" });
    expect(complete.headers.get("www-authenticate")).toBe('Bearer realm="ucp"');
    const order = await rest("GET", "/orders/ord_whatever");
    expect(order.status).toBe(401);
  });

  it("an unknown API key: 401 invalid_api_key (X-API-Key, as the binding names it)", async () => {
    const reply = await rest("POST", "/carts", { body: LINE, headers: { "x-api-key": "ucpk_not_a_key" } });
    expect(reply.status, reply.text).toBe(401);
    expect(reply.body.code).toBe("invalid_api_key");
  });

  it("an API key used for another platform's profile: 403 identity_mismatch (identity binding)", async () => {
    const issued = await exports.default.fetch("https://shop.example.com/admin/api-keys", {
      method: "POST",
      headers: {
        authorization: `Bearer ${(env as { ADMIN_TOKEN?: string }).ADMIN_TOKEN ?? ""}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ profile: FULL_PROFILE, label: "rest identity" }),
    });
    expect(issued.status).toBe(201);
    const { api_key: apiKey } = (await issued.json()) as { api_key: string };
    const own = await rest("POST", "/carts", { body: LINE, headers: { "x-api-key": apiKey } });
    expect(own.status, own.text).toBe(201);
    expect(own.headers.get("ucp-trust-tier")).toBe("authenticated");
    const bearer = await rest("POST", "/carts", { body: LINE, headers: { authorization: `Bearer ${apiKey}` } });
    expect(bearer.status, bearer.text).toBe(201);
    expect(bearer.headers.get("ucp-trust-tier")).toBe("authenticated");
    const other = await rest("POST", "/carts", {
      body: LINE,
      headers: { "x-api-key": apiKey },
      profile: `${PROFILES}/checkout-only.json`,
    });
    expect(other.status, other.text).toBe(403);
    expect(other.body.code).toBe("identity_mismatch");
  });

  it("429 carries retry-after and retry_after; 503 retry-after too", () => {
    const limited = errorReply(rateLimited(42, "anonymous"), "create_cart", "cart");
    expect(limited.status).toBe(429);
    expect(limited.headers["retry-after"]).toBe("42");
    expect(limited.body).toMatchObject({ code: "rate_limited", retry_after: 42 });
    const down = errorReply(
      { rpcCode: -32000, httpStatus: 503, message: "x", data: { retry_after: 1 } },
      "get_cart",
      "none",
    );
    expect(down).toMatchObject({ status: 503, headers: { "retry-after": "1" }, body: { code: "unavailable" } });
  });

  it("wrong method: 405 with Allow; OPTIONS: CORS preflight naming the REST headers", async () => {
    const wrong = await rest("DELETE", "/carts/cart_x");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, PUT, OPTIONS");
    const pre = await exports.default.fetch(`${REST_ENDPOINT}/checkout-sessions`, {
      method: "OPTIONS",
      headers: { origin: "https://agent.example", "access-control-request-method": "POST" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
    for (const h of ["ucp-agent", "idempotency-key", "request-id", "x-api-key", "signature", "content-digest"])
      expect(pre.headers.get("access-control-allow-headers")).toContain(h);
    // Other /ucp/ paths are not REST's: the JSON 404 of the route table.
    expect((await rest("GET", "/nothing-here")).status).toBe(404);
  });
});

describe("REST request signatures", { timeout: 30_000 }, () => {
  it("a signed POST must cover its Idempotency-Key (REST signing lists it for POST/PUT)", async () => {
    const url = `${REST_ENDPOINT}/carts`;
    const body = JSON.stringify(LINE);
    const headers = new Headers({
      "content-type": "application/json",
      "cf-connecting-ip": CLIENT_IP,
      "ucp-agent": `profile="${FULL_PROFILE}"`,
    });
    // Signed first, key added after: the signature does not cover it.
    await signRequest({ method: "POST", url, headers, body }, await platformKey());
    headers.set("idempotency-key", crypto.randomUUID());
    const res = await exports.default.fetch(url, { method: "POST", headers, body });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "signature_invalid" });
  });

  it("a tampered body is 400 digest_mismatch", async () => {
    const url = `${REST_ENDPOINT}/carts`;
    const headers = new Headers({
      "content-type": "application/json",
      "cf-connecting-ip": CLIENT_IP,
      "ucp-agent": `profile="${FULL_PROFILE}"`,
    });
    await signRequest({ method: "POST", url, headers, body: JSON.stringify(LINE) }, await platformKey());
    const res = await exports.default.fetch(url, { method: "POST", headers, body: JSON.stringify({ ...LINE, x: 1 }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "digest_mismatch" });
  });
});

describe("the OpenAPI check itself", { timeout: 30_000 }, () => {
  it.runIf(openapiPresent)("refuses a body that is neither a cart nor an error response", () => {
    expect(responseErrors("GET", "/carts/{id}", 200, { hello: "world" })).not.toEqual([]);
    expect(responseErrors("GET", "/carts/{id}", 404, {})).toEqual([
      "the OpenAPI document defines no 404 for GET /carts/{id}",
    ]);
  });
});
