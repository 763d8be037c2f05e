/**
 * create_checkout from a cart is owned by the cart object (issue 27 item 2): it decides the
 * one checkout of the cart's current generation for the caller's key space, records it, and
 * creates it on the checkout object itself. Concurrent or retried creates, under any key,
 * find that same checkout; a create cut off after the checkout was made ends, on retry, with
 * that one checkout; a cancel in one key space leaves the other space's checkout alone.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { CartObject } from "../../durable-objects/cart-object";
import type { CheckoutObject } from "../../durable-objects/checkout-object";
import { LEDGER_SCHEMA } from "../../durable-objects/shared/idempotency";
import { OWNER_SCHEMA } from "../../durable-objects/shared/owner";
import { merchantConfig } from "../../src/config";
import { derivedId, newId } from "../../src/lib/ids";
import { meta, PROFILES, rpc } from "../helpers/mcp";

// biome-ignore lint/suspicious/noExplicitAny: -- test replies are inspected structurally
type Json = any;

const PROFILE = `${PROFILES}/unique-cart-checkout.json`;
const lines = [{ item: { id: "item_456" }, quantity: 2 }];

async function tool(name: string, args: Record<string, unknown>, options: { key?: string; signed?: boolean } = {}) {
  const extra = options.key ? { "idempotency-key": options.key } : {};
  const reply = await rpc(
    "tools/call",
    { name, arguments: { meta: meta(PROFILE, extra), ...args } },
    {},
    { signed: options.signed === true },
  );
  return reply;
}

async function payload(name: string, args: Record<string, unknown>, options: { key?: string; signed?: boolean } = {}) {
  const reply = await tool(name, args, options);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(reply.body.error, JSON.stringify(reply.body)).toBeUndefined();
  return reply.body.result.structuredContent as Json;
}

const newCart = () => payload("create_cart", { cart: { line_items: lines } });
const fromCart = (cartId: string, options: { key?: string; signed?: boolean } = {}) =>
  payload("create_checkout", { checkout: { cart_id: cartId } }, options);
const cartStub = (id: string) => env.CART.getByName(id) as DurableObjectStub<CartObject>;

describe("create_checkout from a cart, owned by the cart object", { timeout: 30_000 }, () => {
  it("concurrent creates from one cart under different keys end with one checkout", async () => {
    const cart = await newCart();
    const made = await Promise.all(
      Array.from({ length: 6 }, (_, i) => fromCart(cart.id, { key: `concurrent-${cart.id}-${i}` })),
    );
    const ids = new Set(made.map((c) => c.id));
    expect(ids.size).toBe(1);
    expect(made.every((c) => c.status === "incomplete")).toBe(true);
    // Each key replays the same checkout; a create without a key finds it too.
    expect((await fromCart(cart.id, { key: `concurrent-${cart.id}-3` })).id).toBe(made[0].id);
    expect((await fromCart(cart.id)).id).toBe(made[0].id);
  });

  it("after a cancel, concurrent creates open exactly one next checkout", async () => {
    const cart = await newCart();
    const first = await fromCart(cart.id);
    const canceled = await payload("cancel_checkout", { id: first.id }, { key: `cancel-${first.id}` });
    expect(canceled.status).toBe("canceled");
    const next = await Promise.all(
      Array.from({ length: 6 }, (_, i) => fromCart(cart.id, { key: `next-${i}-${cart.id}` })),
    );
    expect(new Set(next.map((c) => c.id)).size).toBe(1);
    expect(next[0].id).not.toBe(first.id);
    expect(next[0].status).toBe("incomplete");
  });

  it("a create cut off after the checkout was made (the reply to the cart lost) ends, on retry, with that one checkout", async () => {
    const cart = await newCart();
    // The cart's call to the checkout object makes the checkout, then fails, every try: the
    // cart never hears of it, and the caller gets a retryable error.
    await runInDurableObject(cartStub(cart.id), (instance: CartObject) => {
      const object = instance as unknown as { env: Env };
      const real = object.env.CHECKOUT;
      const made: string[] = [];
      object.env = {
        ...object.env,
        CHECKOUT: {
          getByName(name: string) {
            const stub = real.getByName(name) as DurableObjectStub<CheckoutObject>;
            return {
              status: () => stub.status(),
              create: async (command: Parameters<CheckoutObject["create"]>[0]) => {
                await stub.create(command);
                made.push(name);
                throw new Error("network connection lost");
              },
            };
          },
        } as unknown as Env["CHECKOUT"],
      };
      (globalThis as { __made?: string[] }).__made = made;
      (globalThis as { __restore?: () => void }).__restore = () => {
        object.env = { ...object.env, CHECKOUT: real };
      };
    });
    const cut = await tool("create_checkout", { checkout: { cart_id: cart.id } }, { key: `cut-${cart.id}` });
    expect(cut.body.error?.code ?? cut.status, JSON.stringify(cut.body)).not.toBe(200);
    const made = (globalThis as { __made?: string[] }).__made ?? [];
    expect(new Set(made).size).toBe(1);
    (globalThis as { __restore?: () => void }).__restore?.();
    // The retry, under the same key and under another, finds the checkout that was made.
    const retried = await fromCart(cart.id, { key: `cut-${cart.id}` });
    const other = await fromCart(cart.id, { key: `cut-other-${cart.id}` });
    expect(retried.id).toBe(made[0]);
    expect(other.id).toBe(made[0]);
    expect(retried.line_items.map((l: Json) => [l.item.id, l.quantity])).toEqual([["item_456", 2]]);
  });

  it("a cancel in the anonymous key space leaves the platform's own open checkout of the cart alone", async () => {
    const cart = await newCart(); // anonymous, under PROFILE
    const theirs = await fromCart(cart.id);
    const mine = await fromCart(cart.id, { signed: true });
    expect(mine.id).not.toBe(theirs.id);
    await payload("cancel_checkout", { id: theirs.id }, { key: `cancel-${theirs.id}` });
    const theirsNext = await fromCart(cart.id);
    expect(theirsNext.id).not.toBe(theirs.id);
    // One open checkout per cart within each space: the platform's is still the one it had.
    const mineAgain = await fromCart(cart.id, { signed: true });
    expect(mineAgain.id).toBe(mine.id);
    expect(mineAgain.status).toBe("incomplete");
  });
});

describe("a cart's checkout squatted before the key spaces split", { timeout: 30_000 }, () => {
  it("the platform's create from its cart passes the other class's checkout at its id and makes its own", async () => {
    const cart = await newCart(); // anonymous, under PROFILE
    const secret = merchantConfig(env).idSecret;
    // Before the split, an anonymous caller naming PROFILE derived the id the platform's space gives now.
    const squatted = await derivedId("chk", secret, PROFILE, `cart\n${cart.id}\n0`);
    const anonymous = await payload("create_checkout", { checkout: { line_items: lines } });
    const rows = await runInDurableObject(env.CHECKOUT.getByName(anonymous.id), (_o: CheckoutObject, state) =>
      ["checkout", "owner", "meta"].map((table) => ({
        schema: state.storage.sql.exec<{ sql: string }>("SELECT sql FROM sqlite_master WHERE name = ?", table).one()
          .sql,
        rows: state.storage.sql.exec(`SELECT * FROM ${table}`).toArray(),
        table,
      })),
    );
    await runInDurableObject(env.CHECKOUT.getByName(squatted), (_o: CheckoutObject, state) => {
      for (const { schema, rows: list, table } of rows) {
        state.storage.sql.exec(schema);
        for (const row of list) {
          const values = Object.values(row).map((v) =>
            typeof v === "string" ? v.replaceAll(anonymous.id, squatted) : v,
          );
          state.storage.sql.exec(`INSERT INTO ${table} VALUES (${values.map(() => "?").join(", ")})`, ...values);
        }
      }
    });
    const mine = await fromCart(cart.id, { signed: true });
    expect(mine.id).not.toBe(squatted);
    expect(mine.id).toBe(await derivedId("chk", secret, PROFILE, `cart\n${cart.id}\n1`));
    expect(mine.status).toBe("incomplete");
    expect((await fromCart(cart.id, { signed: true })).id).toBe(mine.id);
    const theirs = await payload("get_checkout", { id: mine.id });
    expect(theirs.messages[0].code).toBe("not_found");
  });
});

describe("a cart of the layout before (one checkout counter, version 2)", { timeout: 30_000 }, () => {
  const userTables = (state: DurableObjectState) =>
    state.storage.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'",
      )
      .toArray()
      .map((r) => r.name)
      .sort();

  it("keeps the checkout its counter derives, then moves only the caller's space on", async () => {
    const source = await newCart();
    const rows = await runInDurableObject(cartStub(source.id), (_o: CartObject, state) => ({
      cart: state.storage.sql.exec<{ state: string; expires_at: number }>("SELECT * FROM cart").one(),
      owner: state.storage.sql.exec<{ profile: string; authenticated: number }>("SELECT * FROM owner").one(),
    }));
    const id = await newId("cart", merchantConfig(env).idSecret);
    await runInDurableObject(cartStub(id), (_o: CartObject, state) => {
      const sql = state.storage.sql;
      // The previous build's layout: its two steps, at version 2, the counter at 1 (one checkout canceled).
      sql.exec("CREATE TABLE cart (id TEXT PRIMARY KEY, state TEXT NOT NULL, expires_at INTEGER NOT NULL)");
      sql.exec("CREATE TABLE checkout_link (id INTEGER PRIMARY KEY, generation INTEGER NOT NULL)");
      sql.exec(OWNER_SCHEMA);
      sql.exec(LEDGER_SCHEMA);
      sql.exec("CREATE TABLE schema_version (slot INTEGER PRIMARY KEY CHECK (slot = 1), version INTEGER NOT NULL)");
      sql.exec("INSERT INTO schema_version (slot, version) VALUES (1, 2)");
      sql.exec("INSERT INTO checkout_link (id, generation) VALUES (1, 1)");
      const cart = { ...JSON.parse(rows.cart.state), id };
      sql.exec("INSERT INTO cart VALUES (?, ?, ?)", id, JSON.stringify(cart), rows.cart.expires_at);
      sql.exec("INSERT INTO owner VALUES (1, ?, ?)", rows.owner.profile, rows.owner.authenticated);
    });
    const space = `anonymous ${PROFILE}`;
    const at = (generation: number) =>
      derivedId("chk", merchantConfig(env).idSecret, space, `cart\n${id}\n${generation}`);
    const first = await fromCart(id);
    // The id the build before gave this cart's checkout (src/lib/ids.ts keySpace, the cart's counter).
    expect(first.id).toBe(await at(1));
    await runInDurableObject(cartStub(id), (_o: CartObject, state) =>
      expect(userTables(state)).not.toContain("checkout_generation"),
    );
    await payload("cancel_checkout", { id: first.id }, { key: `cancel-${first.id}` });
    const next = await fromCart(id);
    expect(next.id).toBe(await at(2));
    await runInDurableObject(cartStub(id), (_o: CartObject, state) => {
      expect(userTables(state)).toEqual([
        "cart",
        "checkout_generation",
        "checkout_link",
        "ledger",
        "owner",
        "schema_version",
      ]);
      expect(state.storage.sql.exec("SELECT version FROM schema_version").one().version).toBe(3);
      expect(state.storage.sql.exec("SELECT * FROM checkout_generation").toArray()).toEqual([{ space, generation: 2 }]);
    });
  });
});
