import { env, listDurableObjectIds, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { CartObject } from "../../durable-objects/cart-object";
import { LEDGER_KEEP_MS } from "../../durable-objects/shared/idempotency";
import { newId } from "../../src/lib/ids";
import { FULL_PROFILE, meta, rpc } from "../helpers/mcp";

const line = (id: string, quantity: number) => ({ item: { id }, quantity });

async function call(tool: string, args: Record<string, unknown>, key?: string) {
  const extra = key ? { "idempotency-key": key } : {};
  return rpc("tools/call", { name: tool, arguments: { meta: meta(FULL_PROFILE, extra), ...args } });
}

async function create(cart: Record<string, unknown>, key?: string): Promise<{ id: string }> {
  const reply = await call("create_cart", { cart }, key);
  return reply.body.result.structuredContent;
}

const stubOf = (id: string) => env.CART.getByName(id) as DurableObjectStub<CartObject>;

/** Moves the stored cart's expiry (what time passing would do). */
async function setExpiry(id: string, expiresAt: number) {
  await runInDurableObject(stubOf(id), (_instance: CartObject, state) => {
    const row = state.storage.sql.exec<{ state: string }>("SELECT state FROM cart").one();
    const cart = { ...JSON.parse(row.state), expires_at: expiresAt };
    state.storage.sql.exec("UPDATE cart SET state = ?, expires_at = ?", JSON.stringify(cart), expiresAt);
  });
}

const tables = (id: string) =>
  runInDurableObject(stubOf(id), (_i: CartObject, state) =>
    state.storage.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'",
      )
      .toArray()
      .map((r) => r.name),
  );

describe("expiry", () => {
  it("arms an alarm at expires_at when the cart is created", async () => {
    const cart = await create({ line_items: [line("item_123", 1)] });
    const alarm = await runInDurableObject(stubOf(cart.id), (_i: CartObject, state) => state.storage.getAlarm());
    const expires = Date.parse((await call("get_cart", { id: cart.id })).body.result.structuredContent.expires_at);
    expect(alarm).toBe(expires);
  });

  it("treats a cart past expires_at as not_found even before the alarm runs", async () => {
    const cart = await create({ line_items: [line("item_123", 1)] });
    await setExpiry(cart.id, Date.now() - 1);
    const reply = await call("get_cart", { id: cart.id });
    expect(reply.body.result.structuredContent.messages[0].code).toBe("not_found");
    const update = await call("update_cart", { id: cart.id, cart: { line_items: [] } });
    expect(update.body.result.structuredContent.messages[0].code).toBe("not_found");
  });

  it("clears an expired cart and all its storage when the alarm runs, and survives running twice", async () => {
    const cart = await create({ line_items: [line("item_123", 1)] });
    await setExpiry(cart.id, Date.now() - 1);
    expect(await runDurableObjectAlarm(stubOf(cart.id))).toBe(true);
    expect(await tables(cart.id)).toEqual([]);
    // at-least-once delivery: a second run finds nothing to do and fails nothing
    expect(await runDurableObjectAlarm(stubOf(cart.id))).toBe(false);
    await runInDurableObject(stubOf(cart.id), (instance: CartObject) => instance.alarm());
    expect((await call("get_cart", { id: cart.id })).body.result.structuredContent.messages[0].code).toBe("not_found");
  });

  it("keeps an unexpired cart when an alarm fires early, and re-arms for its deadline", async () => {
    const cart = await create({ line_items: [line("item_123", 1)] });
    await runInDurableObject(stubOf(cart.id), (instance: CartObject) => instance.alarm());
    expect((await call("get_cart", { id: cart.id })).body.result.structuredContent.id).toBe(cart.id);
    const alarm = await runInDurableObject(stubOf(cart.id), (_i: CartObject, state) => state.storage.getAlarm());
    expect(alarm).toBeGreaterThan(Date.now());
  });

  it("keeps the ledger after the cart expires, until the keys' retention ends", async () => {
    const key = crypto.randomUUID();
    const cart = await create({ line_items: [line("item_123", 1)] }, key);
    await setExpiry(cart.id, Date.now() - 1);
    await runDurableObjectAlarm(stubOf(cart.id));
    expect(await tables(cart.id)).toEqual(expect.arrayContaining(["ledger"]));
    const alarm = await runInDurableObject(stubOf(cart.id), (_i: CartObject, state) => state.storage.getAlarm());
    expect(alarm).toBeGreaterThan(Date.now() + LEDGER_KEEP_MS - 60_000);
    // a retried create still answers as the first one did
    const replay = await call("create_cart", { cart: { line_items: [line("item_123", 1)] } }, key);
    expect(replay.body.result.structuredContent.id).toBe(cart.id);
  });
});

describe("idempotency ledger", () => {
  it("replays a repeated create byte for byte and makes no second cart", async () => {
    const key = crypto.randomUUID();
    const body = { cart: { line_items: [line("item_123", 2)] } };
    const first = await call("create_cart", body, key);
    const before = (await listDurableObjectIds(env.CART)).length;
    const second = await call("create_cart", body, key);
    expect(second.body.result.content[0].text).toBe(first.body.result.content[0].text);
    expect(JSON.stringify(second.body.result.structuredContent)).toBe(
      JSON.stringify(first.body.result.structuredContent),
    );
    expect((await listDurableObjectIds(env.CART)).length).toBe(before);
  });

  it("refuses the same key with a different request: -32000, HTTP 409, nothing changed", async () => {
    const key = crypto.randomUUID();
    const cart = await create({ line_items: [line("item_123", 1)] });
    const first = await call("update_cart", { id: cart.id, cart: { line_items: [line("item_123", 2)] } }, key);
    expect(first.status).toBe(200);
    const conflict = await call("update_cart", { id: cart.id, cart: { line_items: [line("item_123", 5)] } }, key);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toEqual({ code: -32000, message: "Idempotency key reused with different payload" });
    const read = await call("get_cart", { id: cart.id });
    expect(read.body.result.structuredContent.line_items[0].quantity).toBe(2);
  });

  it("ignores key order when fingerprinting a request", async () => {
    const key = crypto.randomUUID();
    const cart = await create({ line_items: [line("item_123", 1)] });
    const a = await call(
      "update_cart",
      { id: cart.id, cart: { line_items: [{ quantity: 3, item: { id: "item_123" } }] } },
      key,
    );
    const b = await call(
      "update_cart",
      { id: cart.id, cart: { line_items: [{ item: { id: "item_123" }, quantity: 3 }] } },
      key,
    );
    expect(b.body.result.content[0].text).toBe(a.body.result.content[0].text);
  });

  it("outlives a cancel: replays of the cancel and of earlier updates answer as before", async () => {
    const cart = await create({ line_items: [line("item_123", 1)] });
    const updateKey = crypto.randomUUID();
    const update = { id: cart.id, cart: { line_items: [line("item_456", 1)] } };
    const updated = await call("update_cart", update, updateKey);
    const cancelKey = crypto.randomUUID();
    const canceled = await call("cancel_cart", { id: cart.id }, cancelKey);
    expect(canceled.body.result.structuredContent.line_items[0].item.id).toBe("item_456");
    const cancelAgain = await call("cancel_cart", { id: cart.id }, cancelKey);
    expect(cancelAgain.body.result.content[0].text).toBe(canceled.body.result.content[0].text);
    const updateAgain = await call("update_cart", update, updateKey);
    expect(updateAgain.body.result.content[0].text).toBe(updated.body.result.content[0].text);
    // a new key meets the canceled cart
    const fresh = await call("update_cart", update, crypto.randomUUID());
    expect(fresh.body.result.structuredContent.messages[0].code).toBe("not_found");
  });

  it("keeps keys at least 24 hours and forgets them after the retention", async () => {
    const key = crypto.randomUUID();
    const cart = await create({ line_items: [line("item_123", 1)] });
    const body = { id: cart.id, cart: { line_items: [line("item_123", 2)] } };
    await call("update_cart", body, key);
    const age = (ms: number) =>
      runInDurableObject(stubOf(cart.id), (_i: CartObject, state) => {
        state.storage.sql.exec("UPDATE ledger SET created_at = ?", Date.now() - ms);
      });
    await age(24 * 3600_000 + 60_000);
    const changed = { id: cart.id, cart: { line_items: [line("item_123", 7)] } };
    expect((await call("update_cart", changed, key)).status).toBe(409);
    await age(LEDGER_KEEP_MS + 60_000);
    const reused = await call("update_cart", changed, key);
    expect(reused.status).toBe(200);
    expect(reused.body.result.structuredContent.line_items[0].quantity).toBe(7);
  });
});

describe("ids that were never issued", () => {
  const notFound = {
    ucp: { status: "error" },
    messages: [{ code: "not_found", severity: "unrecoverable" }],
  };
  const attempts = (id: string) =>
    [
      ["get_cart", { id }, undefined],
      ["update_cart", { id, cart: { line_items: [line("item_123", 1)] } }, crypto.randomUUID()],
      ["cancel_cart", { id }, crypto.randomUUID()],
    ] as const;

  it("junk and forged ids get not_found and never reach a Durable Object", async () => {
    const before = await listDurableObjectIds(env.CART);
    const forged = await newId("cart", "someone-elses-key");
    for (const id of ["abc", "cart_", "cart_../../etc", "x".repeat(200), `cart_${"A".repeat(32)}`, forged]) {
      for (const [tool, args, key] of attempts(id)) {
        const reply = await call(tool, args, key);
        expect(reply.status).toBe(200);
        expect(reply.body.result.structuredContent).toMatchObject(notFound);
      }
    }
    expect((await listDurableObjectIds(env.CART)).length).toBe(before.length);
  });

  it("an id of ours with no cart behind it gets not_found and writes no storage", async () => {
    const unknown = await newId("cart", "test-signing-key");
    for (const [tool, args, key] of attempts(unknown)) {
      expect((await call(tool, args, key)).body.result.structuredContent).toMatchObject(notFound);
    }
    expect(await tables(unknown)).toEqual([]);
  });
});

describe("concurrency", () => {
  it("50 concurrent updates leave the cart equal to exactly one of them", async () => {
    const cart = await create({ line_items: [line("item_123", 1)] });
    const requests = Array.from({ length: 50 }, (_, i) => ({
      line_items: [line("item_123", (i % 9) + 1), line("item_456", Math.floor(i / 9) + 1)],
    }));
    const replies = await Promise.all(requests.map((c) => call("update_cart", { id: cart.id, cart: c })));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const final = (await call("get_cart", { id: cart.id })).body.result.structuredContent;
    const shape = final.line_items.map((l: { item: { id: string }; quantity: number }) => [l.item.id, l.quantity]);
    const matches = requests.filter(
      (r) => JSON.stringify(r.line_items.map((l) => [l.item.id, l.quantity])) === JSON.stringify(shape),
    );
    expect(matches.length).toBeGreaterThanOrEqual(1);
    const total = final.line_items.reduce(
      (s: number, l: { item: { price: number }; quantity: number }) => s + l.item.price * l.quantity,
      0,
    );
    expect(final.totals).toEqual([
      { type: "subtotal", amount: total },
      { type: "total", amount: total },
    ]);
  });

  it("20 concurrent retries of one create with one key make one cart", async () => {
    const before = (await listDurableObjectIds(env.CART)).length;
    const key = crypto.randomUUID();
    const body = { cart: { line_items: [line("item_456", 1)] } };
    const replies = await Promise.all(Array.from({ length: 20 }, () => call("create_cart", body, key)));
    const texts = new Set(replies.map((r) => r.body.result.content[0].text));
    expect(texts.size).toBe(1);
    expect((await listDurableObjectIds(env.CART)).length).toBe(before + 1);
  });
});

describe("reads after writes", () => {
  it("a read after every kind of write sees that write (the object's last-read answer never goes stale)", async () => {
    const cart = await create({ line_items: [line("item_123", 1)] });
    const read = async () => (await call("get_cart", { id: cart.id })).body.result.structuredContent;
    expect((await read()).line_items[0].quantity).toBe(1);
    await call("update_cart", { id: cart.id, cart: { line_items: [line("item_123", 4)] } });
    expect((await read()).line_items[0].quantity).toBe(4);
    expect(await read()).toEqual(await read());
    await call("cancel_cart", { id: cart.id }, crypto.randomUUID());
    expect((await read()).messages[0].code).toBe("not_found");
  });

  it("a read after the expiry alarm is not_found", async () => {
    const cart = await create({ line_items: [line("item_123", 1)] });
    await call("get_cart", { id: cart.id });
    await setExpiry(cart.id, Date.now() - 1);
    await runDurableObjectAlarm(stubOf(cart.id));
    expect((await call("get_cart", { id: cart.id })).body.result.structuredContent.messages[0].code).toBe("not_found");
  });
});
