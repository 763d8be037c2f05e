/**
 * Issue 10 finding 1: sessions belong to their platform. Platform B, with its own valid
 * API key, must not read, change, complete or cancel platform A's checkout or cart; an
 * anonymous caller must not touch an authenticated platform's session; A still can. Every
 * refusal looks exactly like a session that does not exist.
 */
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ADDRESS, type Json, pay } from "../helpers/checkout";
import { CLIENT_IP, ENDPOINT, meta, PROFILES } from "../helpers/mcp";

const ADMIN_TOKEN = (env as { ADMIN_TOKEN?: string }).ADMIN_TOKEN ?? "";
const A = `${PROFILES}/unique-owner-a.json`;
const B = `${PROFILES}/unique-owner-b.json`;
const keys: Record<string, string> = {};

interface Who {
  readonly profile: string;
  /** An API key, or none for an anonymous call naming `profile`. */
  readonly apiKey?: string;
}

async function call(who: Who, name: string, args: Record<string, unknown>, key?: string) {
  const res = await exports.default.fetch(ENDPOINT, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      "cf-connecting-ip": CLIENT_IP,
      ...(who.apiKey ? { authorization: `Bearer ${who.apiKey}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: { meta: meta(who.profile, key ? { "idempotency-key": key } : {}), ...args } },
    }),
  });
  const body = (await res.json()) as Json;
  expect(body.error, JSON.stringify(body)).toBeUndefined();
  return body.result.structuredContent as Json;
}

const platformA = (): Who => ({ profile: A, apiKey: keys.A });
const platformB = (): Who => ({ profile: B, apiKey: keys.B });
const anonymousA: Who = { profile: A };

const checkoutBody = {
  line_items: [{ item: { id: "item_456" }, quantity: 1 }],
  buyer: { email: "jane@example.com", first_name: "Jane" },
  fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
};

function expectNotFound(payload: Json) {
  expect(payload.ucp.status).toBe("error");
  expect(payload.messages).toHaveLength(1);
  expect(payload.messages[0].code).toBe("not_found");
  expect(JSON.stringify(payload)).not.toMatch(/jane@example\.com|Main St/);
}

beforeAll(async () => {
  for (const [name, profile] of [
    ["A", A],
    ["B", B],
  ] as const) {
    const res = await exports.default.fetch("https://shop.example.com/admin/api-keys", {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ profile, label: `platform ${name}` }),
    });
    expect(res.status).toBe(201);
    keys[name] = ((await res.json()) as { api_key: string }).api_key;
  }
});

describe("a checkout belongs to the platform that created it", () => {
  it("platform B cannot read, update, complete or cancel A's checkout: each is not_found", async () => {
    const created = await call(platformA(), "create_checkout", { checkout: checkoutBody });
    expect(created.status).toBe("ready_for_complete");
    const id = created.id;

    expectNotFound(await call(platformB(), "get_checkout", { id }));
    const changed = { ...checkoutBody, buyer: { email: "thief@example.org" } };
    expectNotFound(await call(platformB(), "update_checkout", { id, checkout: changed }));
    expectNotFound(
      await call(platformB(), "complete_checkout", { id, checkout: pay("success_token") }, crypto.randomUUID()),
    );
    expectNotFound(await call(platformB(), "cancel_checkout", { id }, crypto.randomUUID()));

    // A's session is untouched, and A completes its own order.
    const mine = await call(platformA(), "get_checkout", { id });
    expect(mine.status).toBe("ready_for_complete");
    expect(mine.buyer.email).toBe("jane@example.com");
    const done = await call(platformA(), "complete_checkout", { id, checkout: pay("success_token") }, "a-complete-1");
    expect(done.status).toBe("completed");
    const order = await call(platformA(), "get_order", { id: done.order.id });
    expect(order.id).toBe(done.order.id);
  });

  it("an anonymous caller naming A's profile cannot touch A's authenticated checkout", async () => {
    const created = await call(platformA(), "create_checkout", { checkout: checkoutBody });
    expectNotFound(await call(anonymousA, "get_checkout", { id: created.id }));
    expectNotFound(await call(anonymousA, "update_checkout", { id: created.id, checkout: checkoutBody }));
    expectNotFound(await call(anonymousA, "cancel_checkout", { id: created.id }, crypto.randomUUID()));
    expect((await call(platformA(), "get_checkout", { id: created.id })).status).toBe("ready_for_complete");
  });

  it("an anonymous session under A's profile is A's (anonymous or authenticated), nobody else's", async () => {
    const created = await call(anonymousA, "create_checkout", { checkout: checkoutBody });
    expectNotFound(await call(platformB(), "get_checkout", { id: created.id }));
    expectNotFound(await call({ profile: B }, "get_checkout", { id: created.id }));
    expect((await call(anonymousA, "get_checkout", { id: created.id })).status).toBe("ready_for_complete");
    const done = await call(
      platformA(),
      "complete_checkout",
      {
        id: created.id,
        checkout: pay("success_token"),
      },
      "a-complete-2",
    );
    expect(done.status).toBe("completed");
    expect((await call(anonymousA, "get_checkout", { id: created.id })).status).toBe("completed");
    expectNotFound(await call(platformB(), "get_checkout", { id: created.id }));
  });

  it("the same idempotency key from two platforms makes two checkouts", async () => {
    const key = crypto.randomUUID();
    const a = await call(platformA(), "create_checkout", { checkout: checkoutBody }, key);
    const b = await call(platformB(), "create_checkout", { checkout: checkoutBody }, key);
    expect(a.id).not.toBe(b.id);
    expect((await call(platformB(), "get_checkout", { id: b.id })).id).toBe(b.id);
    expectNotFound(await call(platformB(), "get_checkout", { id: a.id }));
  });
});

describe("a cart belongs to the platform that created it", () => {
  const cart = { line_items: [{ item: { id: "item_456" }, quantity: 1 }] };

  it("an anonymous caller cannot cancel (or read, or update) A's cart; A still can", async () => {
    const created = await call(platformA(), "create_cart", { cart });
    expectNotFound(await call(anonymousA, "cancel_cart", { id: created.id }, crypto.randomUUID()));
    expectNotFound(await call(anonymousA, "get_cart", { id: created.id }));
    expectNotFound(await call(anonymousA, "update_cart", { id: created.id, cart }));
    expect((await call(platformA(), "get_cart", { id: created.id })).id).toBe(created.id);
    const canceled = await call(platformA(), "cancel_cart", { id: created.id }, crypto.randomUUID());
    expect(canceled.id).toBe(created.id);
  });

  it("platform B cannot read, update or cancel A's cart, nor check it out", async () => {
    const created = await call(platformA(), "create_cart", { cart });
    expectNotFound(await call(platformB(), "get_cart", { id: created.id }));
    expectNotFound(await call(platformB(), "update_cart", { id: created.id, cart }));
    expectNotFound(await call(platformB(), "cancel_cart", { id: created.id }, crypto.randomUUID()));
    const stolen = await call(platformB(), "create_checkout", { checkout: { cart_id: created.id } });
    expect(stolen.messages[0].code).toBe("not_found");
    // A's checkout from its cart is A's: B cannot read it either.
    const fromCart = await call(platformA(), "create_checkout", { checkout: { cart_id: created.id } });
    expect(fromCart.status).not.toBe("canceled");
    expectNotFound(await call(platformB(), "get_checkout", { id: fromCart.id }));
    expect((await call(platformA(), "get_checkout", { id: fromCart.id })).id).toBe(fromCart.id);
  });
});

describe("hand-off URLs", () => {
  it("continue_url and permalink_url never carry an API id", async () => {
    const cart = await call(platformA(), "create_cart", {
      cart: { line_items: [{ item: { id: "item_456" }, quantity: 1 }] },
    });
    expect(cart.continue_url).toMatch(/^https:\/\/shop\.example\.com\/cart\/[A-Za-z0-9_-]+$/);
    expect(cart.continue_url).not.toContain(cart.id);
    const checkout = await call(platformA(), "create_checkout", { checkout: checkoutBody });
    expect(checkout.continue_url).toMatch(/^https:\/\/shop\.example\.com\/checkout\/[A-Za-z0-9_-]+$/);
    expect(checkout.continue_url).not.toContain(checkout.id);
    const done = await call(
      platformA(),
      "complete_checkout",
      { id: checkout.id, checkout: pay("success_token") },
      "a-complete-3",
    );
    expect(done.order.permalink_url).toMatch(/^https:\/\/shop\.example\.com\/orders\/[A-Za-z0-9_-]+$/);
    expect(done.order.permalink_url).not.toContain(done.order.id);
  });
});
