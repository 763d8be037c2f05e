/**
 * Issue 14 item 3: stock in STOCK_SHARDS groups of variants. A variant's count lives in the
 * InventoryObject its id hashes to (`stock:<n>`); src/catalog/stock-shards.ts reserves a
 * multi-line order across them all-or-nothing (one call per shard with all its lines) and
 * releases across them and the store-wide object of before (the start a shard takes from that
 * object: inventory-legacy.test.ts). Availability for search is one KV key per variant, laid
 * over the old document.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { INVENTORY_MIGRATIONS } from "../../durable-objects/inventory/layout";
import type { InventoryObject } from "../../durable-objects/inventory-object";
import { ShardPublisher } from "../../durable-objects/shared/availability-publisher";
import { ObjectStore } from "../../durable-objects/shared/kernel";
import { readAvailability } from "../../src/catalog/availability";
import { KV_KEYS, type VariantAvailability } from "../../src/catalog/kv-layout";
import { INVENTORY_NAME, stockShardName, stockVersion } from "../../src/catalog/stock-keys";
import { releaseStock, reserveStock, stockLevelsNow } from "../../src/catalog/stock-shards";

const V1 = stockVersion({ loaded_at: "2026-05-01T10:00:00.000Z", version: "9f86d081884c7d65" });
const fresh = (name: string) => `${name}-${crypto.randomUUID()}`;
const shard = (variantId: string) =>
  env.INVENTORY.getByName(stockShardName(variantId)) as DurableObjectStub<InventoryObject>;
/** Two fresh variant ids counted by different shards, or by the same one. */
const pair = (same: boolean): [string, string] => {
  const a = fresh("a");
  for (;;) {
    const b = fresh("b");
    if ((stockShardName(a) === stockShardName(b)) === same) return [a, b];
  }
};
const legacy = () => env.INVENTORY.getByName(INVENTORY_NAME) as DurableObjectStub<InventoryObject>;
const level = async (variantId: string) => (await shard(variantId).available([variantId]))[variantId];
/** This reservation's records on a variant's shard (a shard holds other variants' too). */
const reservationIds = (variantId: string, id: string) =>
  runInDurableObject(shard(variantId), (_o: InventoryObject, state) =>
    state.storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE name = 'reservations'").toArray()
      .length === 0
      ? []
      : state.storage.sql
          .exec<{ id: string; state: string }>("SELECT id, state FROM reservations WHERE id = ?", id)
          .toArray()
          .map((r) => `${r.id}:${r.state}`),
  );

describe("a multi-line reservation across shards", () => {
  it("is all-or-nothing: one short line leaves the other shard's units unreserved and the id unspent", async () => {
    const [a, b] = pair(false);
    const id = fresh("r");
    const levels = { [a]: 5, [b]: 1 };
    const short = await reserveStock(
      env,
      id,
      [
        { variantId: a, quantity: 2 },
        { variantId: b, quantity: 2 },
      ],
      levels,
      V1,
    );
    expect(short).toEqual({
      ok: false,
      reservationId: id,
      reason: "out_of_stock",
      short: [{ variantId: b, requested: 2, available: 1 }],
    });
    // A took its units for one round trip, then gave them back and forgot the id.
    expect(await level(a)).toBe(5);
    expect(await reservationIds(a, id)).toEqual([]);
    // So a retry of the same id once the lines fit reserves afresh (no replay of a hold that is gone).
    const retry = await reserveStock(
      env,
      id,
      [
        { variantId: a, quantity: 2 },
        { variantId: b, quantity: 1 },
      ],
      levels,
      V1,
    );
    expect(retry).toEqual({ ok: true, reservationId: id, replayed: false });
    expect([await level(a), await level(b)]).toEqual([3, 0]);
  });

  it("gives back a hold left by a run that died mid-way when a retry finds another line short", async () => {
    const [a, b] = pair(false);
    const id = fresh("r");
    // The first run reached only A's shard before it died.
    expect(await shard(a).reserve(id, [{ variantId: a, quantity: 2 }], { [a]: 5 }, V1)).toMatchObject({ ok: true });
    const retry = await reserveStock(
      env,
      id,
      [
        { variantId: a, quantity: 2 },
        { variantId: b, quantity: 2 },
      ],
      { [a]: 5, [b]: 1 },
      V1,
    );
    expect(retry).toMatchObject({ ok: false, reason: "out_of_stock" });
    expect(await level(a)).toBe(5);
    expect(await reservationIds(a, id)).toEqual([]);
  });

  it("answers every short line at once, as the single object did", async () => {
    const [a, b, c] = [fresh("a"), fresh("b"), fresh("c")];
    const lines = [a, b, c].map((variantId) => ({ variantId, quantity: 3 }));
    const outcome = await reserveStock(env, fresh("r"), lines, { [a]: 1, [b]: 9, [c]: 2 }, V1);
    expect(outcome).toMatchObject({ ok: false, reason: "out_of_stock" });
    expect(
      outcome.ok === false && outcome.reason === "out_of_stock" ? outcome.short.map((s) => s.variantId).sort() : [],
    ).toEqual([a, c].sort());
    // b's units stay, whether its shard took them for a round trip or shares a refusing shard.
    expect((await stockLevelsNow(env, [b], { [b]: 9 }, V1)).levels[b]).toBe(9);
  });

  it("replays a retry with the same id on every shard and takes nothing more", async () => {
    const [a, b] = pair(false);
    const id = fresh("r");
    const lines = [
      { variantId: a, quantity: 1 },
      { variantId: b, quantity: 2 },
      { variantId: a, quantity: 1 },
    ];
    expect(await reserveStock(env, id, lines, { [a]: 4, [b]: 4 }, V1)).toMatchObject({ ok: true, replayed: false });
    const again = await Promise.all([1, 2, 3].map(() => reserveStock(env, id, lines, { [a]: 4, [b]: 4 }, V1)));
    for (const r of again) expect(r).toEqual({ ok: true, reservationId: id, replayed: true });
    expect([await level(a), await level(b)]).toEqual([2, 2]);
  });

  it("is a conflict when the id holds other lines, and keeps what the first reservation holds", async () => {
    const [a, b] = pair(false);
    const id = fresh("r");
    await reserveStock(
      env,
      id,
      [
        { variantId: a, quantity: 1 },
        { variantId: b, quantity: 1 },
      ],
      { [a]: 5, [b]: 5 },
      V1,
    );
    const other = await reserveStock(
      env,
      id,
      [
        { variantId: a, quantity: 2 },
        { variantId: b, quantity: 1 },
      ],
      { [a]: 5, [b]: 5 },
      V1,
    );
    expect(other).toEqual({ ok: false, reservationId: id, reason: "conflict" });
    expect([await level(a), await level(b)]).toEqual([4, 4]);
  });

  it("refuses bad input before any shard is asked", async () => {
    const a = fresh("a");
    const outcome = await reserveStock(env, "r", [{ variantId: a, quantity: 0 }], { [a]: 5 }, V1);
    expect(outcome).toMatchObject({ ok: false, reason: "invalid_input", issues: [{ path: "lines[0].quantity" }] });
    expect(await level(a)).toBeUndefined();
  });

  it("a shard counts only its own variants: lines for another shard's are invalid input", async () => {
    const [a, b] = pair(false);
    const outcome = await shard(a).reserve("r", [{ variantId: b, quantity: 1 }], { [b]: 5 }, V1);
    expect(outcome).toMatchObject({ ok: false, reason: "invalid_input", issues: [{ path: "lines" }] });
  });
});

describe("lines that share a shard", () => {
  it("go in one call: one short line reserves nothing, the other's units stay", async () => {
    const [a, b] = pair(true);
    const id = fresh("r");
    const lines = [
      { variantId: a, quantity: 2 },
      { variantId: b, quantity: 2 },
    ];
    expect(await reserveStock(env, id, lines, { [a]: 5, [b]: 1 }, V1)).toEqual({
      ok: false,
      reservationId: id,
      reason: "out_of_stock",
      short: [{ variantId: b, requested: 2, available: 1 }],
    });
    expect(await reservationIds(a, id)).toEqual([]);
    expect(await shard(a).available([a, b])).toEqual({});
    expect(await reserveStock(env, id, lines, { [a]: 5, [b]: 2 }, V1)).toEqual({
      ok: true,
      reservationId: id,
      replayed: false,
    });
    expect(await reservationIds(a, id)).toEqual([`${id}:held`]);
    expect(await reserveStock(env, id, lines, { [a]: 5, [b]: 2 }, V1)).toMatchObject({ ok: true, replayed: true });
    expect([await level(a), await level(b)]).toEqual([3, 0]);
    expect(await stockLevelsNow(env, [a, b], { [a]: 5, [b]: 2 }, V1)).toEqual({
      levels: { [a]: 3, [b]: 0 },
      restocked: [],
    });
  });

  it("spread 200 variants over the 64 shards, each always in the same one", () => {
    const names = new Set(Array.from({ length: 200 }, (_, i) => stockShardName(`variant_${i}`)));
    expect(names.size).toBeGreaterThan(50);
    expect([...names].every((n) => /^stock:([0-9]|[1-5][0-9]|6[0-3])$/.test(n))).toBe(true);
    // The layout is stored state: FNV-1a 32-bit of the UTF-8 id, mod 64 (src/catalog/stock-keys.ts).
    expect([stockShardName(""), stockShardName("a"), stockShardName("é")]).toEqual(["stock:5", "stock:44", "stock:1"]);
  });
});

describe("one hot variant", () => {
  it("50 concurrent one-unit reservations for 10 units: exactly 10 succeed, none oversold", {
    timeout: 30_000,
  }, async () => {
    const hot = fresh("hot");
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        reserveStock(env, `hot-${i}-${crypto.randomUUID()}`, [{ variantId: hot, quantity: 1 }], { [hot]: 10 }, V1),
      ),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(10);
    expect(outcomes.filter((o) => !o.ok && o.reason === "out_of_stock")).toHaveLength(40);
    expect(await level(hot)).toBe(0);
  });

  it("concurrent two-line reservations sharing one scarce variant never oversell either line", {
    timeout: 30_000,
  }, async () => {
    const [scarce, plenty] = [fresh("scarce"), fresh("plenty")];
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        reserveStock(
          env,
          `pair-${i}-${crypto.randomUUID()}`,
          [
            { variantId: scarce, quantity: 1 },
            { variantId: plenty, quantity: 1 },
          ],
          { [scarce]: 5, [plenty]: 100 },
          V1,
        ),
      ),
    );
    const won = outcomes.filter((o) => o.ok).length;
    expect(won).toBe(5);
    // Every loser gave its plenty unit back: exactly the winners' units are gone from both.
    expect([await level(scarce), await level(plenty)]).toEqual([0, 100 - won]);
  });
});

describe("a release across shards", () => {
  /** Reserves 2 of a and 3 of b (5 each on hand) under a fresh id, and returns it. */
  const holdTwoAndThree = async (a: string, b: string) => {
    const id = fresh("r");
    const lines = [
      { variantId: a, quantity: 2 },
      { variantId: b, quantity: 3 },
    ];
    await reserveStock(env, id, lines, { [a]: 5, [b]: 5 }, V1);
    return id;
  };

  it("returns the units on every shard once, and reaches the store-wide object too", async () => {
    const [a, b] = pair(false);
    const id = await holdTwoAndThree(a, b);
    expect([await level(a), await level(b)]).toEqual([3, 2]);
    expect(await releaseStock(env, id, [a, b])).toEqual({ released: true });
    expect([await level(a), await level(b)]).toEqual([5, 5]);
    expect(await releaseStock(env, id, [a, b])).toEqual({ released: false, reason: "already_released" });
    expect(await releaseStock(env, fresh("unknown"), [a])).toEqual({ released: false, reason: "not_found" });
    expect([await level(a), await level(b)]).toEqual([5, 5]);
  });

  it("a shard call that fails before reaching the object (runtime, not code) is tried again", async () => {
    const [a, b] = pair(false);
    const id = await holdTwoAndThree(a, b);
    // The first release call to a's shard fails the way workerd fails an object that cannot
    // open (an Error without the `remote` flag): the release must still reach it.
    let failed = 0;
    const flaky = {
      INVENTORY: {
        getByName(name: string) {
          const stub = env.INVENTORY.getByName(name);
          if (name !== stockShardName(a) || failed > 0) return stub;
          return {
            release: () => {
              failed++;
              return Promise.reject(new Error("Durable Object storage is unavailable (test)"));
            },
          };
        },
      },
    } as unknown as Pick<Env, "INVENTORY">;
    expect(await releaseStock(flaky, id, [a, b])).toEqual({ released: true });
    expect(failed).toBe(1);
    expect([await level(a), await level(b)]).toEqual([5, 5]);
  });
});

describe("availability per variant", () => {
  /** No alarm set, and the next setAlarm fails as a runtime failure does (after the commit before it). */
  const refuseNextAlarm = async (storage: DurableObjectStorage) => {
    const setAlarm = storage.setAlarm.bind(storage);
    let refuse = true;
    storage.setAlarm = async (...args: Parameters<typeof setAlarm>) => {
      if (refuse) {
        refuse = false;
        throw new Error("internal error; reference = alarm0test");
      }
      return setAlarm(...args);
    };
    await storage.deleteAlarm();
  };
  const state = async (variantId: string) =>
    (await env.CATALOG.getWithMetadata<VariantAvailability>(KV_KEYS.variantAvailability(variantId))).metadata;

  it("a shard publishes its own variant only when its sold-out state changes, and search's reader merges it", async () => {
    const [s, kept] = [fresh("s"), fresh("kept")];
    const first = fresh("r");
    await reserveStock(env, first, [{ variantId: s, quantity: 1 }], { [s]: 2 }, V1);
    expect(await state(s)).toBeNull(); // still in stock: nothing written
    await reserveStock(env, fresh("r"), [{ variantId: s, quantity: 1 }], { [s]: 2 }, V1);
    expect(await state(s)).toEqual({ s: "sold_out", v: V1 });
    // The store-wide document of before still counts: its entries stand unless a key decides.
    await env.CATALOG.put(
      KV_KEYS.availability,
      JSON.stringify({ updated_at: "x", sold_out: { [kept]: V1, [s]: V1 }, restocked: {} }),
    );
    const merged = await readAvailability(env.CATALOG);
    expect(merged?.sold_out).toMatchObject({ [kept]: V1, [s]: V1 });
    await releaseStock(env, first, [s]);
    expect(await state(s)).toEqual({ s: "in_stock", v: V1 });
    const after = await readAvailability(env.CATALOG);
    expect(after?.sold_out).toMatchObject({ [kept]: V1 });
    expect(Object.hasOwn(after?.sold_out ?? {}, s)).toBe(false);
  });

  it("a release whose alarm write fails after its commit still publishes, and its repeat sets the alarm", async () => {
    const v = fresh("v");
    const id = fresh("r");
    await reserveStock(env, id, [{ variantId: v, quantity: 1 }], { [v]: 1 }, V1);
    expect(await state(v)).toEqual({ s: "sold_out", v: V1 });
    await runInDurableObject(shard(v), async (object: InventoryObject, st) => {
      await refuseNextAlarm(st.storage);
      // The release committed, then its alarm could not be set: the call fails (and is retried).
      await expect(object.release(id)).rejects.toThrow(/alarm0test/);
      expect(await state(v), "the units went back, and search was told").toEqual({ s: "in_stock", v: V1 });
      expect(await st.storage.getAlarm()).toBeNull();
      // The retry finds it released, and sets the alarm that prunes the record.
      expect(await object.release(id)).toEqual({ released: false, reason: "already_released" });
      expect(await st.storage.getAlarm()).not.toBeNull();
    });
  });

  it("so does a keyed restock: published before its alarm, and its replay sets the alarm", async () => {
    const v = fresh("v");
    await reserveStock(env, fresh("r"), [{ variantId: v, quantity: 1 }], { [v]: 1 }, V1);
    expect(await state(v)).toEqual({ s: "sold_out", v: V1 });
    await runInDurableObject(shard(v), async (object: InventoryObject, st) => {
      await refuseNextAlarm(st.storage);
      const key = { key: fresh("k"), hash: "h1" };
      await expect(object.restock(v, { add: 3 }, 1, V1, key)).rejects.toThrow(/alarm0test/);
      expect((await state(v))?.s, "search was told before the alarm failed").toBe("restocked");
      expect(await object.restock(v, { add: 3 }, 1, V1, key)).toMatchObject({ ok: true, level: 3, replayed: true });
      expect(await st.storage.getAlarm()).not.toBeNull();
    });
  });

  it("a write KV refused is written again by the next publish, though its state did not move again", async () => {
    const v = fresh("v");
    await reserveStock(env, fresh("r"), [{ variantId: v, quantity: 1 }], { [v]: 1 }, V1);
    await runInDurableObject(shard(v), async (_o: InventoryObject, st) => {
      let refuse = true;
      const kv = {
        put: async (key: string, value: string, options?: KVNamespacePutOptions) => {
          if (refuse) {
            refuse = false;
            throw new Error("KV PUT failed: 429 Too Many Requests");
          }
          await env.CATALOG.put(key, value, options);
        },
      } as unknown as KVNamespace;
      const publisher = new ShardPublisher(new ObjectStore(st.storage, INVENTORY_MIGRATIONS), kv);
      await env.CATALOG.delete(KV_KEYS.variantAvailability(v));
      await publisher.publish([v]);
      expect(publisher.pending).toBe(true);
      await publisher.publish([]);
      expect(publisher.pending).toBe(false);
    });
    expect(await state(v)).toEqual({ s: "sold_out", v: V1 });
  });

  it("a restock publishes the variant as restocked", async () => {
    const r = fresh("r");
    expect(await shard(r).restock(r, { set: 4 }, 0, V1)).toMatchObject({ ok: true, level: 4 });
    expect(await state(r)).toEqual({ s: "restocked", v: V1 });
    expect((await readAvailability(env.CATALOG))?.restocked).toMatchObject({ [r]: V1 });
  });

  it("the store-wide object publishes nothing per variant (its document only)", async () => {
    const m = fresh("m");
    await legacy().reserve(fresh("old"), [{ variantId: m, quantity: 1 }], { [m]: 1 }, V1);
    expect(await state(m)).toBeNull();
    const doc = await env.CATALOG.get<{ sold_out: Record<string, string> }>(KV_KEYS.availability, "json");
    expect(doc?.sold_out[m]).toBe(V1);
  });
});
