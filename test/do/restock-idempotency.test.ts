/**
 * Issue 10 leftover: a merchant's restock is safe to retry. `POST /admin/inventory/<variant>`
 * takes an Idempotency-Key (required with `add`, optional with `set`); the InventoryObject
 * records the answer in its ledger, so a retried add counts once and replays the first answer,
 * and the same key with another body is a 409. Through the real Worker, KV and object.
 */

import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import demo from "../../data/demo-catalog.json";
import type { InventoryObject } from "../../durable-objects/inventory-object";
import { LEDGER_KEEP_MS } from "../../durable-objects/shared/idempotency";
import { stockShardName, stockVersion } from "../../durable-objects/shared/inventory-plan";

const ADMIN_TOKEN = (env as { ADMIN_TOKEN?: string }).ADMIN_TOKEN ?? "";

type DemoVariant = { id: string; stock?: number };
/** Counted variants of the demo catalog (a stock number; not backorder/preorder). */
const counted = demo.products
  .flatMap((p) => (p.variants as DemoVariant[]).filter((v) => typeof v.stock === "number" && v.stock >= 5))
  .map((v) => v.id);
let next = 0;
const variant = () => {
  const id = counted[next++];
  if (!id) throw new Error("data/demo-catalog.json has too few counted variants");
  return id;
};

function post(variantId: string, body: unknown, key?: string) {
  return exports.default.fetch(`https://shop.example.com/admin/inventory/${encodeURIComponent(variantId)}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(key === undefined ? {} : { "idempotency-key": key }),
    },
    body: JSON.stringify(body),
  });
}

async function level(variantId: string): Promise<number> {
  const res = await exports.default.fetch(`https://shop.example.com/admin/inventory/${encodeURIComponent(variantId)}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { available: number }).available;
}

const answer = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> });

describe("a restock add", () => {
  it("counts once when retried with the same Idempotency-Key, and the retry gets the first answer", async () => {
    const id = variant();
    const before = await level(id);
    const key = crypto.randomUUID();
    const first = await answer(await post(id, { add: 3 }, key));
    expect(first).toEqual({ status: 200, body: { variant_id: id, available: before + 3 } });
    const retried = await answer(await post(id, { add: 3 }, key));
    expect(retried).toEqual(first);
    expect(await level(id)).toBe(before + 3);
  });

  it("counts once when the retries arrive together", async () => {
    const id = variant();
    const before = await level(id);
    const key = crypto.randomUUID();
    const replies = await Promise.all([0, 1, 2].map(async () => answer(await post(id, { add: 2 }, key))));
    for (const reply of replies)
      expect(reply).toEqual({ status: 200, body: { variant_id: id, available: before + 2 } });
    expect(await level(id)).toBe(before + 2);
  });

  // Issue 14: a variant's count and its keys live in its own stock object, so a key is scoped
  // to its variant; the same key on another variant is that variant's own delivery.
  it("is a 409 with the same key and another change, and changes nothing; another variant's key is its own", async () => {
    const [id, other] = [variant(), variant()];
    const key = crypto.randomUUID();
    expect((await post(id, { add: 1 }, key)).status).toBe(200);
    const [level1, level2] = [await level(id), await level(other)];
    expect((await post(other, { add: 1 }, key)).status).toBe(200);
    expect(await level(other)).toBe(level2 + 1);
    for (const [target, body] of [
      [id, { add: 2 }],
      [id, { set: 1 }],
    ] as const) {
      const reply = await answer(await post(target, body, key));
      expect(reply.status, JSON.stringify(body)).toBe(409);
      expect(reply.body).toMatchObject({ error: "idempotency_conflict" });
      expect(String(reply.body.message)).toContain("Idempotency-Key");
    }
    expect([await level(id), await level(other)]).toEqual([level1, level2 + 1]);
  });

  it("without an Idempotency-Key is refused with a 400 naming the header, and changes nothing", async () => {
    const id = variant();
    const before = await level(id);
    const reply = await answer(await post(id, { add: 5 }));
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: "idempotency_key_required" });
    expect(String(reply.body.message)).toContain("Idempotency-Key");
    expect(await level(id)).toBe(before);
  });

  it("refuses a malformed key the way the order routes do", async () => {
    const id = variant();
    const before = await level(id);
    for (const key of ["has space", "x".repeat(129), "ünïcode"]) {
      const reply = await answer(await post(id, { add: 1 }, key));
      expect(reply.status, key).toBe(400);
      expect(reply.body).toEqual({
        error: "invalid_input",
        issues: [{ path: "Idempotency-Key", message: "1 to 128 visible ASCII characters" }],
      });
    }
    expect(await level(id)).toBe(before);
  });
});

describe("a restock set", () => {
  it("needs no key; with one, a retry after a sale replays instead of restoring the sold units", async () => {
    const id = variant();
    expect(await answer(await post(id, { set: 7 }))).toEqual({ status: 200, body: { variant_id: id, available: 7 } });
    const key = crypto.randomUUID();
    const first = await answer(await post(id, { set: 9 }, key));
    expect(first.body.available).toBe(9);
    // A sale between the set and its retry: the retry must not put the sold units back.
    const inventory = env.INVENTORY.getByName(stockShardName(id)) as DurableObjectStub<InventoryObject>;
    const manifest = await env.CATALOG.get<{ loaded_at: string; version: string }>("catalog:manifest", "json");
    if (!manifest) throw new Error("no catalog manifest");
    const sale = await inventory.reserve(
      `sale-${crypto.randomUUID()}`,
      [{ variantId: id, quantity: 4 }],
      { [id]: 9 },
      stockVersion(manifest),
    );
    expect(sale.ok).toBe(true);
    expect(await answer(await post(id, { set: 9 }, key))).toEqual(first);
    expect(await level(id)).toBe(5);
  });
});

describe("the inventory's ledger", () => {
  const V1 = stockVersion({ loaded_at: "2026-05-01T10:00:00.000Z", version: "9f86d081884c7d65" });
  const fresh = () => env.INVENTORY.getByName(`inv-${crypto.randomUUID()}`) as DurableObjectStub<InventoryObject>;
  const entry = (key: string, hash = "h1") => ({ key: `admin-restock:${key}`, hash });

  it("replays from the object itself, refuses another request under the key, and reports nothing new", async () => {
    const inv = fresh();
    expect(await inv.restock("v", { add: 2 }, 3, V1, entry("k"))).toEqual({
      ok: true,
      variantId: "v",
      level: 5,
      version: V1,
      replayed: false,
    });
    expect(await inv.restock("v", { add: 2 }, 3, V1, entry("k"))).toMatchObject({ ok: true, level: 5, replayed: true });
    expect(await inv.restock("v", { add: 2 }, 3, V1, entry("k", "h2"))).toEqual({ ok: false, reason: "conflict" });
    expect(await inv.available(["v"])).toEqual({ v: 5 });
  });

  it("forgets a key after LEDGER_KEEP_MS: the alarm prunes it and the key adds again", async () => {
    const inv = fresh();
    await inv.restock("v", { add: 2 }, 3, V1, entry("old"));
    const armed = await runInDurableObject(inv, async (_o: InventoryObject, state) => {
      const alarm = await state.storage.getAlarm();
      state.storage.sql.exec("UPDATE ledger SET created_at = created_at - ?", LEDGER_KEEP_MS);
      return alarm;
    });
    // Armed for the entry's expiry (48 h from now, give or take the test's own run time).
    expect(armed).toBeGreaterThan(Date.now() + LEDGER_KEEP_MS - 60_000);
    // Runs the armed alarm now, as if its 48 h had passed.
    expect(await runDurableObjectAlarm(inv)).toBe(true);
    const rows = await runInDurableObject(inv, (_o: InventoryObject, state) =>
      state.storage.sql.exec("SELECT key FROM ledger").toArray(),
    );
    expect(rows).toEqual([]);
    expect(await inv.restock("v", { add: 2 }, 3, V1, entry("old"))).toMatchObject({ level: 7, replayed: false });
  });

  it("works in a store whose tables predate the ledger (stock and reservations only)", async () => {
    const inv = fresh();
    const reservation = `r-${crypto.randomUUID()}`;
    expect((await inv.reserve(reservation, [{ variantId: "v", quantity: 1 }], { v: 3 }, V1)).ok).toBe(true);
    expect(await inv.release(reservation)).toEqual({ released: true });
    expect(await inv.restock("v", { add: 1 }, 3, V1, entry("k"))).toMatchObject({ level: 4, replayed: false });
    expect(await inv.restock("v", { add: 1 }, 3, V1, entry("k"))).toMatchObject({ level: 4, replayed: true });
  });
});
