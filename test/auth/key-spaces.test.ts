/**
 * Issue 27 item 6: authenticated and anonymous callers never share an idempotency key space
 * or a session. Anyone may name platform A's profile without credentials; with a predictable
 * key such a caller used to create "A's" checkout (or cart) first, so A's own create was then
 * refused (409) or handed a session anyone naming A could read and rewrite.
 */
import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { merchantConfig } from "../../src/config";
import { derivedId } from "../../src/lib/ids";
import { ADDRESS, type Json } from "../helpers/checkout";
import { CLIENT_IP, ENDPOINT, meta, PROFILES } from "../helpers/mcp";

const ADMIN_TOKEN = (env as { ADMIN_TOKEN?: string }).ADMIN_TOKEN ?? "";
const A = `${PROFILES}/unique-key-space-a.json`;
let apiKey = "";

async function call(authenticated: boolean, name: string, args: Record<string, unknown>, key?: string) {
  const res = await exports.default.fetch(ENDPOINT, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      "cf-connecting-ip": CLIENT_IP,
      ...(authenticated ? { authorization: `Bearer ${apiKey}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: { meta: meta(A, key ? { "idempotency-key": key } : {}), ...args } },
    }),
  });
  const body = (await res.json()) as Json;
  expect(body.error, `${name}: ${JSON.stringify(body)}`).toBeUndefined();
  return body.result.structuredContent as Json;
}

const platformA = (name: string, args: Record<string, unknown>, key?: string) => call(true, name, args, key);
const anonymousA = (name: string, args: Record<string, unknown>, key?: string) => call(false, name, args, key);

const lines = [{ item: { id: "item_456" }, quantity: 1 }];
const janes = {
  line_items: lines,
  buyer: { email: "jane@example.com", phone_number: "+15551234567" },
  fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
};

function expectNotFound(payload: Json) {
  expect(payload.ucp.status).toBe("error");
  expect(payload.messages[0].code).toBe("not_found");
  expect(JSON.stringify(payload)).not.toMatch(/jane@example\.com|5551234567|Main St/);
}

beforeAll(async () => {
  const res = await exports.default.fetch("https://shop.example.com/admin/api-keys", {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ profile: A, label: "platform A" }),
  });
  expect(res.status).toBe(201);
  apiKey = ((await res.json()) as { api_key: string }).api_key;
}, 30_000);

describe("an anonymous caller naming A cannot take A's idempotency keys", { timeout: 30_000 }, () => {
  it("create_checkout: A's create with a key an anonymous caller used first is A's own checkout", async () => {
    const key = "checkout-1"; // predictable on purpose
    const squat = await anonymousA("create_checkout", { checkout: { line_items: lines } }, key);
    const mine = await platformA("create_checkout", { checkout: janes }, key);
    expect(mine.id).not.toBe(squat.id);
    expect(mine.buyer.email).toBe("jane@example.com");
    expectNotFound(await anonymousA("get_checkout", { id: mine.id }));
    expectNotFound(await anonymousA("update_checkout", { id: mine.id, checkout: { line_items: lines } }));
    // Each space still replays its own retries.
    expect((await platformA("create_checkout", { checkout: janes }, key)).id).toBe(mine.id);
    expect((await anonymousA("create_checkout", { checkout: { line_items: lines } }, key)).id).toBe(squat.id);
  });

  it("create_checkout: the same payload under the same key is still two sessions", async () => {
    const key = "checkout-2";
    const squat = await anonymousA("create_checkout", { checkout: janes }, key);
    const mine = await platformA("create_checkout", { checkout: janes }, key);
    expect(mine.id).not.toBe(squat.id);
    expectNotFound(await anonymousA("get_checkout", { id: mine.id }));
  });

  it("create_cart: the same, and A's cart is not readable anonymously", async () => {
    const key = "cart-1";
    const squat = await anonymousA("create_cart", { cart: { line_items: lines } }, key);
    const mine = await platformA("create_cart", { cart: { line_items: [{ ...lines[0], quantity: 2 }] } }, key);
    expect(mine.id).not.toBe(squat.id);
    expect(mine.line_items[0].quantity).toBe(2);
    expectNotFound(await anonymousA("get_cart", { id: mine.id }));
  });

  it("a checkout A makes from an anonymous cart is A's own, not the anonymous callers' one", async () => {
    const cart = await anonymousA("create_cart", { cart: { line_items: lines } });
    const theirs = await anonymousA("create_checkout", { checkout: { cart_id: cart.id } });
    const mine = await platformA("create_checkout", { checkout: { cart_id: cart.id } });
    expect(mine.id).not.toBe(theirs.id);
    const filled = await platformA("update_checkout", { id: mine.id, checkout: janes });
    expect(filled.buyer.email).toBe("jane@example.com");
    expectNotFound(await anonymousA("get_checkout", { id: mine.id }));
    // One checkout per cart within each space.
    expect((await platformA("create_checkout", { checkout: { cart_id: cart.id } })).id).toBe(mine.id);
    expect((await anonymousA("create_checkout", { checkout: { cart_id: cart.id } })).id).toBe(theirs.id);
  });
});

/**
 * Sessions made before the split: anonymous and authenticated callers naming A then shared
 * one space, the one A's authenticated creates derive from now. A session an anonymous caller
 * made there then is not handed to A (shared/owner.ts claimOwner): A gets a session of its own.
 */
describe("a session squatted at A's id before the key spaces split", { timeout: 30_000 }, () => {
  /** Copies `source`'s rows into a new object at `target` (A's old shared-space id), as that build left them. */
  async function squatAt<T extends Rpc.DurableObjectBranded | undefined>(
    ns: DurableObjectNamespace<T>,
    source: string,
    target: string,
    tables: string[],
  ) {
    const rows = await runInDurableObject(ns.getByName(source), (_o, state: DurableObjectState) =>
      tables.map((t) => ({
        t,
        schema: state.storage.sql.exec<{ sql: string }>("SELECT sql FROM sqlite_master WHERE name = ?", t).one().sql,
        rows: state.storage.sql.exec(`SELECT * FROM ${t}`).toArray(),
      })),
    );
    await runInDurableObject(ns.getByName(target), (_o, state: DurableObjectState) => {
      for (const { t, schema, rows: list } of rows) {
        state.storage.sql.exec(schema);
        for (const row of list) {
          const values = Object.values(row).map((v) =>
            typeof v === "string" ? v.replaceAll(source, target) : (v as SqlStorageValue),
          );
          state.storage.sql.exec(`INSERT INTO ${t} VALUES (${values.map(() => "?").join(", ")})`, ...values);
        }
      }
    });
  }
  const oldId = (prefix: string, key: string) => derivedId(prefix, merchantConfig(env).idSecret, A, key);

  it("create_checkout: A's create under the squatted key is a fresh session of A's own", async () => {
    const key = "checkout-before-split";
    const anonymous = await anonymousA("create_checkout", { checkout: { line_items: lines } }, key);
    const squatted = await oldId("chk", key);
    await squatAt(env.CHECKOUT, anonymous.id, squatted, ["checkout", "owner", "meta"]);
    // The squatter still reads its session at the old id (anonymous, naming A).
    expect((await anonymousA("get_checkout", { id: squatted })).id).toBe(squatted);
    const mine = await platformA("create_checkout", { checkout: janes }, key);
    expect(mine.id).not.toBe(squatted);
    expect(mine.buyer.email).toBe("jane@example.com");
    expectNotFound(await anonymousA("get_checkout", { id: mine.id }));
    // A's retry replays its own session; the squatted one is left as it was, without Jane's data.
    expect((await platformA("create_checkout", { checkout: janes }, key)).id).toBe(mine.id);
    const left = await anonymousA("get_checkout", { id: squatted });
    expect(JSON.stringify(left)).not.toMatch(/jane@example\.com/);
  });

  it("create_cart: the same", async () => {
    const key = "cart-before-split";
    const anonymous = await anonymousA("create_cart", { cart: { line_items: lines } }, key);
    const squatted = await oldId("cart", key);
    await squatAt(env.CART, anonymous.id, squatted, ["cart", "owner"]);
    const mine = await platformA("create_cart", { cart: { line_items: [{ ...lines[0], quantity: 2 }] } }, key);
    expect(mine.id).not.toBe(squatted);
    expect(mine.line_items[0].quantity).toBe(2);
    expectNotFound(await anonymousA("get_cart", { id: mine.id }));
    expect((await platformA("create_cart", { cart: { line_items: [{ ...lines[0], quantity: 2 }] } }, key)).id).toBe(
      mine.id,
    );
  });
});
