/**
 * Issue 14 item 3: a store that sold before stock was sharded. A shard's first count of a
 * variant comes from the store-wide object of before (one call for all such variants of a
 * request), so units sold before the split stay sold; once that object says it counts nothing,
 * neither the coordinator nor a shard asks it again.
 *
 * Its own file, in this order: "counts nothing" is remembered per isolate and per shard
 * instance (it is permanent in production, where nothing reserves on the store-wide object any
 * more); only the last test lets them learn it, so the others still find it asked.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { InventoryObject } from "../../durable-objects/inventory-object";
import { INVENTORY_NAME, stockShardName, stockVersion } from "../../src/catalog/stock-keys";
import { releaseStock, reserveStock, stockLevelsNow } from "../../src/catalog/stock-shards";

const V1 = stockVersion({ loaded_at: "2026-05-01T10:00:00.000Z", version: "9f86d081884c7d65" });
const V2 = stockVersion({ loaded_at: "2026-05-02T10:00:00.000Z", version: "c3ab8ff13720e8ad" });
const fresh = (name: string) => `${name}-${crypto.randomUUID()}`;
const shard = (variantId: string) =>
  env.INVENTORY.getByName(stockShardName(variantId)) as DurableObjectStub<InventoryObject>;
const legacy = () => env.INVENTORY.getByName(INVENTORY_NAME) as DurableObjectStub<InventoryObject>;
const level = async (variantId: string) => (await shard(variantId).available([variantId]))[variantId];
/** A fresh variant id counted by the same shard as `other` (same: true) or by another one. */
const near = (other: string, same: boolean) => {
  for (;;) {
    const v = fresh("v");
    if ((stockShardName(v) === stockShardName(other)) === same) return v;
  }
};

describe("a store that sold before stock was sharded", () => {
  it("keeps the units the store-wide object sold: a shard starts from what it has left", async () => {
    const m = fresh("m");
    const old = fresh("old");
    // As the code before issue 14 did: every reservation on the store-wide object.
    expect(await legacy().reserve(old, [{ variantId: m, quantity: 3 }], { [m]: 5 }, V1)).toMatchObject({ ok: true });
    // Before any shard reservation, levels read through the shard already say 2.
    expect(await stockLevelsNow(env, [m], { [m]: 5 }, V1)).toEqual({ levels: { [m]: 2 }, restocked: [] });
    expect(await reserveStock(env, fresh("r"), [{ variantId: m, quantity: 2 }], { [m]: 5 }, V1)).toMatchObject({
      ok: true,
    });
    expect(await level(m)).toBe(0);
    expect(await reserveStock(env, fresh("r"), [{ variantId: m, quantity: 1 }], { [m]: 5 }, V1)).toMatchObject({
      ok: false,
      reason: "out_of_stock",
      short: [{ variantId: m, requested: 1, available: 0 }],
    });
    // The old reservation is released where it lives; the shard's count is untouched (never oversell).
    expect(await releaseStock(env, old, [m])).toEqual({ released: true });
    expect(await level(m)).toBe(0);
    // A later catalog load restates the shard's count, as it always did.
    expect(await reserveStock(env, fresh("r"), [{ variantId: m, quantity: 1 }], { [m]: 4 }, V2)).toMatchObject({
      ok: true,
    });
    expect(await level(m)).toBe(3);
  });

  it("concurrent first reservations on a shard start from the store-wide count once", { timeout: 30_000 }, async () => {
    const m = fresh("m");
    await legacy().reserve(fresh("old"), [{ variantId: m, quantity: 6 }], { [m]: 10 }, V1);
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => reserveStock(env, fresh("r"), [{ variantId: m, quantity: 1 }], { [m]: 10 }, V1)),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(4);
    expect(await level(m)).toBe(0);
  });

  it("a shard that starts from a newer load's count keeps that load: an older request cannot reset it", async () => {
    const m = fresh("m");
    // The store-wide object counted at the newer load V2: 10 in the file, 8 sold, 2 left.
    await legacy().reserve(fresh("old"), [{ variantId: m, quantity: 8 }], { [m]: 10 }, V2);
    // The shard's first reservation comes from an isolate still on the older load V1.
    expect(await reserveStock(env, fresh("r"), [{ variantId: m, quantity: 1 }], { [m]: 10 }, V1)).toMatchObject({
      ok: true,
    });
    // Counted from V2, so a V2 request finds the 1 left, not the file's 10 again.
    expect(await stockLevelsNow(env, [m], { [m]: 10 }, V2)).toMatchObject({ levels: { [m]: 1 } });
    const more = await Promise.all(
      Array.from({ length: 5 }, () => reserveStock(env, fresh("r"), [{ variantId: m, quantity: 1 }], { [m]: 10 }, V2)),
    );
    expect(more.filter((o) => o.ok)).toHaveLength(1);
  });

  it("a restock add from an older load's request adds to the newer load's count", async () => {
    const m = fresh("m");
    await legacy().reserve(fresh("old"), [{ variantId: m, quantity: 8 }], { [m]: 10 }, V2);
    expect(await shard(m).restock(m, { add: 1 }, 10, V1)).toMatchObject({ ok: true, level: 3, version: V2 });
  });

  it("a restock add on a shard adds to what the store-wide object has left", async () => {
    const m = fresh("m");
    await legacy().reserve(fresh("old"), [{ variantId: m, quantity: 4 }], { [m]: 5 }, V1);
    expect(await shard(m).restock(m, { add: 2 }, 5, V1)).toMatchObject({ ok: true, level: 3 });
  });

  it("a shard's first reservation of several uncounted variants starts each from the store-wide count", async () => {
    const m = fresh("m");
    const n = near(m, true);
    await legacy().reserve(
      fresh("old"),
      [
        { variantId: m, quantity: 4 },
        { variantId: n, quantity: 1 },
      ],
      { [m]: 5, [n]: 5 },
      V1,
    );
    const lines = [
      { variantId: m, quantity: 2 },
      { variantId: n, quantity: 1 },
    ];
    expect(await reserveStock(env, fresh("r"), lines, { [m]: 5, [n]: 5 }, V1)).toMatchObject({
      ok: false,
      reason: "out_of_stock",
      short: [{ variantId: m, requested: 2, available: 1 }],
    });
    expect(
      await reserveStock(
        env,
        fresh("r"),
        [
          { variantId: m, quantity: 1 },
          { variantId: n, quantity: 1 },
        ],
        { [m]: 5, [n]: 5 },
        V1,
      ),
    ).toMatchObject({ ok: true });
    expect([await level(m), await level(n)]).toEqual([0, 3]);
  });

  it("once the store-wide object says it counts nothing, neither the coordinator nor a shard asks it again", async () => {
    const m = fresh("m");
    // A store that never sold before the split: the earlier tests' rows go (storage outlives a test here).
    await runInDurableObject(legacy(), (_o: InventoryObject, state) => {
      state.storage.sql.exec("DELETE FROM stock");
    });
    // The store-wide object says it counts nothing, and still answers old callers.
    expect(await legacy().levels([m], { [m]: 5 }, V1)).toEqual({ levels: { [m]: 5 }, restocked: [], counts: false });
    expect(await stockLevelsNow(env, [m], { [m]: 5 }, V1)).toEqual({ levels: { [m]: 5 }, restocked: [] });
    expect(await reserveStock(env, fresh("r"), [{ variantId: m, quantity: 1 }], { [m]: 5 }, V1)).toMatchObject({
      ok: true,
    });
    // Production never reserves there again; here it does, to show it is no longer read: were it
    // asked, these variants would start from 2, not from the catalog's 5.
    const n = near(m, true);
    const p = near(m, false);
    await legacy().reserve(
      fresh("old"),
      [
        { variantId: n, quantity: 3 },
        { variantId: p, quantity: 3 },
      ],
      { [n]: 5, [p]: 5 },
      V1,
    );
    expect(await stockLevelsNow(env, [n, p], { [n]: 5, [p]: 5 }, V1)).toEqual({
      levels: { [n]: 5, [p]: 5 },
      restocked: [],
    });
    expect(await reserveStock(env, fresh("r"), [{ variantId: n, quantity: 1 }], { [n]: 5 }, V1)).toMatchObject({
      ok: true,
    });
    expect(await level(n)).toBe(4);
    expect(await runInDurableObject(legacy(), (o: InventoryObject) => o.available([n]))).toEqual({ [n]: 2 });
  });
});
