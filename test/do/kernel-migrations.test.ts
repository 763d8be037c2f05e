/**
 * The kernel's stored layout (durable-objects/shared/kernel.ts, issue 27): state written by
 * the previous version of each object (its tables as that build made them, no
 * schema_version row) is opened through the new kernel: read, changed, and left at the
 * latest version; an id only ever read still leaves nothing behind.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { CartObject } from "../../durable-objects/cart-object";
import type { CheckoutObject } from "../../durable-objects/checkout-object";
import type { ConsoleSessionObject } from "../../durable-objects/console-session-object";
import type { OrderIndexObject } from "../../durable-objects/order-index-object";
import { LEDGER_SCHEMA } from "../../durable-objects/shared/idempotency";
import { newId } from "../../src/lib/ids";
import { checkoutCall, pay, readyCheckout } from "../helpers/checkout";
import { FULL_PROFILE, meta, rpc } from "../helpers/mcp";

const userTables = (state: DurableObjectState) =>
  state.storage.sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'")
    .toArray()
    .map((r) => r.name)
    .sort();

const version = (state: DurableObjectState) =>
  state.storage.sql.exec<{ version: number }>("SELECT version FROM schema_version").one().version;

async function tool(name: string, args: Record<string, unknown>, key?: string) {
  const extra = key ? { "idempotency-key": key } : {};
  return rpc("tools/call", { name, arguments: { meta: meta(FULL_PROFILE, extra), ...args } });
}

describe("cart: state of the layout before the kernel", () => {
  it("opens a cart written with cart, ledger and owner tables only (no checkout_link, no version row)", async () => {
    // A cart made the current way; its rows, as the build before wrote them, go into a new
    // object (no instance of it has learnt anything about its storage yet).
    const source = (await tool("create_cart", { cart: { line_items: [{ item: { id: "item_123" }, quantity: 1 }] } }))
      .body.result.structuredContent;
    const rows = await runInDurableObject(env.CART.getByName(source.id), (_o: CartObject, state) => ({
      cart: state.storage.sql.exec<{ state: string; expires_at: number }>("SELECT * FROM cart").one(),
      owner: state.storage.sql.exec<{ profile: string; authenticated: number }>("SELECT * FROM owner").one(),
    }));
    const id = await newId("cart", "test-signing-key");
    const stub = env.CART.getByName(id) as DurableObjectStub<CartObject>;
    const made = { id };
    await runInDurableObject(stub, (_o: CartObject, state) => {
      const sql = state.storage.sql;
      // The previous build's statements, as it ran them (shared/idempotency.ts's ledger unchanged).
      sql.exec(`CREATE TABLE IF NOT EXISTS cart (
  id TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  expires_at INTEGER NOT NULL
)`);
      sql.exec(LEDGER_SCHEMA);
      sql.exec(`CREATE TABLE IF NOT EXISTS owner (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  profile TEXT NOT NULL,
  authenticated INTEGER NOT NULL
)`);
      const cart = { ...JSON.parse(rows.cart.state), id };
      sql.exec(
        "INSERT INTO cart (id, state, expires_at) VALUES (?, ?, ?)",
        id,
        JSON.stringify(cart),
        rows.cart.expires_at,
      );
      sql.exec(
        "INSERT INTO owner (id, profile, authenticated) VALUES (1, ?, ?)",
        rows.owner.profile,
        rows.owner.authenticated,
      );
      expect(userTables(state)).toEqual(["cart", "ledger", "owner"]);
    });
    const fresh = (await tool("get_cart", { id: source.id })).body.result.structuredContent;
    const read = (await tool("get_cart", { id: made.id })).body.result.structuredContent;
    expect(read).toEqual({ ...fresh, id, continue_url: read.continue_url });
    // Its checkout (decided by the cart, durable-objects/cart/checkout.ts) reads the counter: none yet.
    const checkout = (await tool("create_checkout", { checkout: { cart_id: made.id } })).body.result.structuredContent;
    expect(checkout.line_items[0].quantity).toBe(1);
    const updated = await tool(
      "update_cart",
      { id: made.id, cart: { line_items: [{ item: { id: "item_123" }, quantity: 2 }] } },
      "k-old",
    );
    expect(updated.body.result.structuredContent.line_items[0].quantity).toBe(2);
    const replay = await tool(
      "update_cart",
      { id: made.id, cart: { line_items: [{ item: { id: "item_123" }, quantity: 2 }] } },
      "k-old",
    );
    expect(replay.body.result.structuredContent).toEqual(updated.body.result.structuredContent);
    await runInDurableObject(stub, (_o: CartObject, state) => {
      expect(userTables(state)).toEqual([
        "cart",
        "checkout_generation",
        "checkout_link",
        "ledger",
        "owner",
        "schema_version",
      ]);
      expect(version(state)).toBe(3);
    });
  });

  it("a read of an unknown id writes nothing", async () => {
    const stub = env.CART.getByName(`cart_${crypto.randomUUID()}`) as DurableObjectStub<CartObject>;
    const caller = { profile: FULL_PROFILE, authenticated: false };
    expect(await stub.checkout({ cartId: "unknown", caller } as Parameters<CartObject["checkout"]>[0])).toEqual({
      kind: "not_found",
    });
    expect(await stub.owner()).toBeUndefined();
    await runInDurableObject(stub, (_o: CartObject, state) => expect(userTables(state)).toEqual([]));
  });
});

describe("console session: state of the layout before the kernel", () => {
  it("opens a session and a flash written without a version row", async () => {
    const stub = env.CONSOLE_SESSION.getByName(
      `session:${crypto.randomUUID()}`,
    ) as DurableObjectStub<ConsoleSessionObject>;
    const now = Date.now();
    await runInDurableObject(stub, async (_o: ConsoleSessionObject, state) => {
      const sql = state.storage.sql;
      sql.exec(`CREATE TABLE IF NOT EXISTS session (
  slot INTEGER PRIMARY KEY CHECK (slot = 1),
  expires_at INTEGER NOT NULL
)`);
      sql.exec(`CREATE TABLE IF NOT EXISTS flash (
  name TEXT PRIMARY KEY,
  body TEXT NOT NULL,
  expires_at INTEGER NOT NULL
)`);
      sql.exec("INSERT INTO session (slot, expires_at) VALUES (1, ?)", now + 60_000);
      sql.exec("INSERT INTO flash (name, body, expires_at) VALUES ('key', 'secret', ?)", now + 60_000);
      await state.storage.setAlarm(now + 60_000);
    });
    expect(await stub.isOpen(now)).toBe(true);
    expect(await stub.takeFlash("key", now)).toBe("secret");
    expect(await stub.takeFlash("key", now)).toBeUndefined();
    await runInDurableObject(stub, (_o: ConsoleSessionObject, state) => expect(version(state)).toBe(1));
    await stub.close();
    expect(await stub.isOpen(now)).toBe(false);
    await runInDurableObject(stub, (_o: ConsoleSessionObject, state) => expect(userTables(state)).toEqual([]));
  });
});

describe("order index: state of the layout before the kernel", () => {
  it("lists and takes entries in an index made before order numbers and before the version row", async () => {
    const stub = env.ORDER_INDEX.getByName(`index-${crypto.randomUUID()}`) as DurableObjectStub<OrderIndexObject>;
    const t = Date.parse("2026-05-01T10:00:00Z");
    await runInDurableObject(stub, (_o: OrderIndexObject, state) => {
      const sql = state.storage.sql;
      // The first index's table, without the number column (issue 25 added it).
      sql.exec(`CREATE TABLE IF NOT EXISTS order_index (
    id TEXT PRIMARY KEY, version INTEGER NOT NULL, created_at INTEGER NOT NULL, status TEXT NOT NULL,
    total INTEGER NOT NULL, refunded INTEGER NOT NULL, currency TEXT NOT NULL, buyer_email TEXT,
    platform TEXT NOT NULL, webhook_failures INTEGER NOT NULL, last_webhook_failure_at INTEGER)`);
      sql.exec(
        "INSERT INTO order_index VALUES ('ord_old', 1, ?, 'processing', 1200, 0, 'USD', 'a@example.com', 'p', 0, NULL)",
        t,
      );
    });
    const listed = await stub.list({ limit: 10 } as Parameters<OrderIndexObject["list"]>[0]);
    expect(listed.orders.map((o) => o.id)).toEqual(["ord_old"]);
    // The read migrated nothing for good: still no version row, no number column.
    await runInDurableObject(stub, (_o: OrderIndexObject, state) => expect(userTables(state)).toEqual(["order_index"]));
    await stub.upsert(
      {
        id: "ord_new",
        created_at: t + 1000,
        status: "processing",
        total: 500,
        refunded: 0,
        currency: "USD",
        buyer_email: null,
        platform: "p",
        webhook_failures: 0,
        last_webhook_failure_at: null,
        lines: [],
        number: 1001,
      },
      1,
    );
    expect((await stub.list({ limit: 10 } as Parameters<OrderIndexObject["list"]>[0])).orders.map((o) => o.id)).toEqual(
      ["ord_new", "ord_old"],
    );
    expect(await stub.allocateNumber("ord_x", 1001)).toBe(1001);
    await runInDurableObject(stub, (_o: OrderIndexObject, state) => {
      expect(version(state)).toBe(3);
      const columns = state.storage.sql
        .exec<{ name: string }>("SELECT name FROM pragma_table_info('order_index')")
        .toArray();
      expect(columns.map((c) => c.name)).toContain("number");
    });
  });
});

describe("checkout: state of the layout before the kernel", () => {
  it("reads, updates and completes a session stored without attempt, verification or version tables", async () => {
    const source = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const rows = await runInDurableObject(env.CHECKOUT.getByName(source.id), (_o: CheckoutObject, state) => ({
      checkout: state.storage.sql.exec<{ state: string }>("SELECT state FROM checkout").one().state,
      owner: state.storage.sql.exec<{ profile: string; authenticated: number }>("SELECT * FROM owner").one(),
    }));
    const id = await newId("chk", "test-signing-key");
    const stub = env.CHECKOUT.getByName(id) as DurableObjectStub<CheckoutObject>;
    await runInDurableObject(stub, (_o: CheckoutObject, state) => {
      const sql = state.storage.sql;
      // What a build of before the completion attempt and the verification tables wrote.
      sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
      sql.exec("CREATE TABLE IF NOT EXISTS checkout (id TEXT PRIMARY KEY, state TEXT NOT NULL)");
      sql.exec(LEDGER_SCHEMA);
      sql.exec(`CREATE TABLE IF NOT EXISTS owner (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  profile TEXT NOT NULL,
  authenticated INTEGER NOT NULL
)`);
      sql.exec(
        "INSERT INTO checkout (id, state) VALUES (?, ?)",
        id,
        JSON.stringify({ ...JSON.parse(rows.checkout), id }),
      );
      sql.exec(
        "INSERT INTO owner (id, profile, authenticated) VALUES (1, ?, ?)",
        rows.owner.profile,
        rows.owner.authenticated,
      );
    });
    const read = await checkoutCall("get_checkout", { id });
    expect(read.status).toBe("ready_for_complete");
    expect(await stub.status()).toBe("ready_for_complete");
    // Reads wrote nothing.
    await runInDurableObject(stub, (_o: CheckoutObject, state) =>
      expect(userTables(state)).toEqual(["checkout", "ledger", "meta", "owner"]),
    );
    const done = await checkoutCall("complete_checkout", { id, checkout: pay("success_token") }, "k-complete");
    expect(done.status).toBe("completed");
    await runInDurableObject(stub, (_o: CheckoutObject, state) => {
      // Step 2 (issue 29): the order the session placed lives here, in its own tables.
      expect(userTables(state)).toEqual([
        "captures",
        "checkout",
        "completion_attempt",
        "effects",
        "index_feed",
        "ledger",
        "meta",
        "orders",
        "outbox",
        "owner",
        "payment_verification",
        "release_lines",
        "schema_version",
        "webhook_deliveries",
        "webhooks",
      ]);
      expect(version(state)).toBe(2);
      expect(state.storage.sql.exec("SELECT id FROM orders").one().id).toBe(done.order.id);
    });
  });
});

describe("checkout: state of step 1, the layout before issue 29", () => {
  it("a session the previous build stored completes into step 2, the order it places inside", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const stub = env.CHECKOUT.getByName(checkout.id) as DurableObjectStub<CheckoutObject>;
    // What step 1 alone wrote: the session's tables at version 1, none of the order's.
    await runInDurableObject(stub, (_o: CheckoutObject, state) => {
      for (const table of [
        "orders",
        "outbox",
        "effects",
        "release_lines",
        "captures",
        "webhooks",
        "webhook_deliveries",
        "index_feed",
      ])
        state.storage.sql.exec(`DROP TABLE ${table}`);
      state.storage.sql.exec("UPDATE schema_version SET version = 1");
    });
    // The stub's instance learnt the layout before the rewrite: a fresh one reads it as stored.
    await runInDurableObject(stub, (_o: CheckoutObject, state) => {
      expect(version(state)).toBe(1);
      expect(userTables(state)).not.toContain("orders");
    });
    const done = await checkoutCall("complete_checkout", { id: checkout.id, checkout: pay("success_token") }, "k-v1");
    expect(done.status).toBe("completed");
    await runInDurableObject(stub, (_o: CheckoutObject, state) => {
      expect(version(state)).toBe(2);
      expect(state.storage.sql.exec("SELECT id FROM orders").one().id).toBe(done.order.id);
    });
    const order = await tool("get_order", { id: done.order.id });
    expect(order.body.result.structuredContent.id).toBe(done.order.id);
  });
});
