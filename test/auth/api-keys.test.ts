/**
 * API keys: created by the merchant (admin route), stored hashed, bound to one profile.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { clearApiKeyCache } from "../../src/auth/api-keys";
import { type Json, pay, readyCheckout } from "../helpers/checkout";
import { FULL_PROFILE, meta, PROFILES, rpc } from "../helpers/mcp";

const ADMIN_TOKEN = (env as { ADMIN_TOKEN?: string }).ADMIN_TOKEN ?? "";
const OTHER_PROFILE = `${PROFILES}/unique-api-key-other.json`;

async function adminCall(method: string, path: string, body?: unknown) {
  const res = await exports.default.fetch(`https://shop.example.com${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

async function newKey(profile = FULL_PROFILE) {
  const created = await adminCall("POST", "/admin/api-keys", { profile, label: "test platform" });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { api_key: string; id: string; profile: string };
}

function complete(checkoutId: string, key: string, profile = FULL_PROFILE) {
  return rpc(
    "tools/call",
    {
      name: "complete_checkout",
      arguments: {
        meta: meta(profile, { "idempotency-key": crypto.randomUUID() }),
        id: checkoutId,
        checkout: pay("success_token"),
      },
    },
    { authorization: `Bearer ${key}` },
  );
}

describe("API keys", () => {
  it("a key lets its platform complete a checkout", async () => {
    const { api_key } = await newKey();
    expect(api_key).toMatch(/^ucpk_[A-Za-z0-9_-]{43}$/);
    const checkout = await readyCheckout([{ id: "item_456", quantity: 1 }]);
    const reply = await complete(checkout.id, api_key);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.headers.get("ucp-trust-tier")).toBe("authenticated");
    expect(reply.body.result.structuredContent.status).toBe("completed");
  });

  it("X-API-Key works as well as Authorization: Bearer", async () => {
    const { api_key } = await newKey();
    const reply = await rpc("ping", {}, { "x-api-key": api_key });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("ucp-trust-tier")).toBe("authenticated");
  });

  it("a key bound to another profile is refused (identity_mismatch, 403)", async () => {
    const { api_key } = await newKey(OTHER_PROFILE);
    const checkout = await readyCheckout([{ id: "item_456", quantity: 1 }]);
    const reply = await complete(checkout.id, api_key, FULL_PROFILE);
    expect(reply.status, JSON.stringify(reply.body)).toBe(403);
    expect(reply.body.error).toMatchObject({ code: -32000, data: { code: "identity_mismatch" } });
    // ...and nothing happened: the checkout is still open.
    const open = await rpc("tools/call", { name: "get_checkout", arguments: { meta: meta(), id: checkout.id } });
    expect(open.body.result.structuredContent.status).toBe("ready_for_complete");
  });

  it("a UCP-Agent header naming another profile than the key's is refused", async () => {
    const { api_key } = await newKey();
    const reply = await rpc(
      "ping",
      {},
      { authorization: `Bearer ${api_key}`, "ucp-agent": `profile="${OTHER_PROFILE}"` },
    );
    expect(reply.status).toBe(403);
    expect(reply.body.error.data.code).toBe("identity_mismatch");
  });

  it("unknown and malformed keys are 401, never anonymous", async () => {
    for (const key of [`ucpk_${"A".repeat(43)}`, "not-a-key", "x".repeat(5000)]) {
      const reply = await rpc("ping", {}, { authorization: `Bearer ${key}` });
      expect(reply.status).toBe(401);
      // No OAuth challenge: MCP clients would go looking for an OAuth server (issue 9).
      expect(reply.headers.has("www-authenticate")).toBe(false);
      expect(reply.body.error).toMatchObject({ code: -32000, data: { code: "invalid_api_key" } });
    }
  });

  it("a revoked key stops working", async () => {
    const { api_key, id } = await newKey();
    expect((await rpc("ping", {}, { authorization: `Bearer ${api_key}` })).status).toBe(200);
    const revoked = await adminCall("POST", `/admin/api-keys/${id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    clearApiKeyCache(); // other isolates see the revocation when their 30 s memory lapses
    expect((await rpc("ping", {}, { authorization: `Bearer ${api_key}` })).status).toBe(401);
  });

  it("keys are stored only as hashes, and the listing never shows them", async () => {
    const { api_key, id } = await newKey();
    const kv = (env as { AUTH: KVNamespace }).AUTH;
    const { keys } = await kv.list();
    for (const { name } of keys) {
      expect(name).not.toContain(api_key);
      expect(await kv.get(name)).not.toContain(api_key);
    }
    const listing = await adminCall("GET", "/admin/api-keys");
    expect(listing.body.api_keys.map((k: Json) => k.id)).toContain(id);
    expect(JSON.stringify(listing.body)).not.toContain(api_key);
    expect(JSON.stringify(listing.body)).not.toContain("hash");
  });

  it("the admin routes refuse bad input and unauthenticated callers", async () => {
    expect((await adminCall("POST", "/admin/api-keys", { profile: "http://insecure.example/p.json" })).status).toBe(
      400,
    );
    expect((await adminCall("POST", "/admin/api-keys", { profile: FULL_PROFILE, extra: 1 })).status).toBe(400);
    expect((await adminCall("POST", "/admin/api-keys/key_AAAAAAAAAAAA/revoke")).status).toBe(404);
    const res = await exports.default.fetch("https://shop.example.com/admin/api-keys", { method: "GET" });
    expect(res.status).toBe(401);
  });
});
