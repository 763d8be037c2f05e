/**
 * The inventory object on the kernel (durable-objects/inventory/layout.ts, issue 27): a stock
 * shard's and the store-wide object's state as the build before the kernel wrote it (its
 * tables made lazily by first use, no schema_version row) is read without being written, then
 * reserved, released, returned and restocked through the new code, ending at the latest
 * version with every table and the right counts.
 *
 * Its own file: the store-wide object and the shards are named objects, so their storage must
 * be untouched by any other test when the previous layout is written into them.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { INVENTORY_MIGRATIONS } from "../../durable-objects/inventory/layout";
import type { InventoryObject } from "../../durable-objects/inventory-object";
import { LEDGER_SCHEMA } from "../../durable-objects/shared/idempotency";
import { INVENTORY_NAME, stockShardName, stockVersion } from "../../src/catalog/stock-keys";
import { releaseStock, reserveStock } from "../../src/catalog/stock-shards";

const V1 = stockVersion({ loaded_at: "2026-05-01T10:00:00.000Z", version: "9f86d081884c7d65" });
const fresh = (name: string) => `${name}-${crypto.randomUUID()}`;
const stub = (name: string) => env.INVENTORY.getByName(name) as DurableObjectStub<InventoryObject>;

// The statements the build before the kernel ran, as it spelled them (inventory-object.ts's
// SCHEMA, made by the first successful reservation; the ledger by the first restock).
const STOCK = `CREATE TABLE IF NOT EXISTS stock (
    variant_id TEXT PRIMARY KEY,
    catalog_version TEXT NOT NULL,
    level INTEGER
  )`;
const RESERVATIONS = `CREATE TABLE IF NOT EXISTS reservations (
    id TEXT PRIMARY KEY,
    lines_json TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('held', 'released')),
    created_at INTEGER NOT NULL,
    released_at INTEGER
  )`;
const RELEASED_INDEX =
  "CREATE INDEX IF NOT EXISTS reservations_released ON reservations (released_at) WHERE state = 'released'";
const RESTOCKS = "CREATE TABLE IF NOT EXISTS restocks (variant_id TEXT PRIMARY KEY, restocked_at INTEGER NOT NULL)";

const storedTables = (name: string) =>
  runInDurableObject(stub(name), (_o: InventoryObject, state) =>
    state.storage.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'",
      )
      .toArray()
      .map((r) => r.name)
      .sort(),
  );

const versionOf = (name: string) =>
  runInDurableObject(
    stub(name),
    (_o: InventoryObject, state) =>
      state.storage.sql.exec<{ version: number }>("SELECT version FROM schema_version").one().version,
  );

const reservationStates = (name: string) =>
  runInDurableObject(stub(name), (_o: InventoryObject, state) =>
    Object.fromEntries(
      state.storage.sql
        .exec<{ id: string; state: string }>("SELECT id, state FROM reservations")
        .toArray()
        .map((r) => [r.id, r.state]),
    ),
  );

/** A held reservation as the build before wrote it: its lines with the load they count from. */
const hold = (sql: SqlStorage, id: string, variantId: string, quantity: number) =>
  sql.exec(
    "INSERT INTO reservations (id, lines_json, state, created_at) VALUES (?, ?, 'held', ?)",
    id,
    JSON.stringify([{ variantId, quantity, version: V1 }]),
    Date.now() - 60_000,
  );

const LATEST = ["ledger", "reservation_returns", "reservations", "restocks", "schema_version", "stock"];

describe("inventory: state of the layout before the kernel", () => {
  it("a stock shard with stock, reservations, restocks and a restock ledger (no returns table, no version row)", async () => {
    const v = fresh("v");
    const shard = stockShardName(v);
    const [r1, r2, r3] = [fresh("r1"), fresh("r2"), fresh("r3")];
    // An earlier restock's ledger entry, as that build recorded it (its key scoped to the variant).
    const earlier = { ok: true, variantId: v, level: 10, version: V1 };
    await runInDurableObject(stub(shard), (_o: InventoryObject, state) => {
      const sql = state.storage.sql;
      expect(sql.exec("SELECT name FROM sqlite_master").toArray(), "an untouched shard").toEqual([]);
      for (const statement of [STOCK, RESERVATIONS, RELEASED_INDEX, RESTOCKS, LEDGER_SCHEMA]) sql.exec(statement);
      // Restocked to 10, then 3 and 2 units held: 5 left.
      sql.exec("INSERT INTO stock (variant_id, catalog_version, level) VALUES (?, ?, 5)", v, V1);
      sql.exec("INSERT INTO restocks (variant_id, restocked_at) VALUES (?, ?)", v, Date.now() - 60_000);
      hold(sql, r1, v, 3);
      hold(sql, r2, v, 2);
      sql.exec(
        "INSERT INTO ledger (key, request_hash, response, created_at) VALUES (?, 'h1', ?, ?)",
        `admin-restock:k1@${v}`,
        JSON.stringify(earlier),
        Date.now() - 60_000,
      );
    });
    const before = await storedTables(shard);
    expect(before).toEqual(["ledger", "reservations", "restocks", "stock"]);

    // Reads answer from the old layout (its missing returns table read as empty) and write nothing.
    expect(await stub(shard).available([v])).toEqual({ [v]: 5 });
    expect(await stub(shard).levels([v], { [v]: 0 }, V1)).toEqual({ levels: { [v]: 5 }, restocked: [v] });
    expect(await storedTables(shard)).toEqual(before);

    // A release brings the layout up (and gives 3 back); a reservation takes 1.
    expect(await releaseStock(env, r1, [v])).toEqual({ released: true });
    expect(await storedTables(shard)).toEqual(LATEST);
    expect(await versionOf(shard)).toBe(INVENTORY_MIGRATIONS.length);
    expect(await reserveStock(env, r3, [{ variantId: v, quantity: 1 }], { [v]: 0 }, V1)).toMatchObject({ ok: true });
    expect(await stub(shard).available([v])).toEqual({ [v]: 7 });

    // A refund's return of 1 unit of r2, once; its release then gives back only the other one.
    expect(await stub(shard).returnUnits(r2, [{ variantId: v, quantity: 1 }], "ret-1")).toEqual({
      returned: true,
      lines: [{ variantId: v, quantity: 1 }],
      replayed: false,
    });
    expect(await stub(shard).returnUnits(r2, [{ variantId: v, quantity: 1 }], "ret-1")).toMatchObject({
      replayed: true,
    });
    expect(await stub(shard).available([v])).toEqual({ [v]: 8 });
    expect(await stub(shard).release(r2)).toEqual({ released: true });
    expect(await stub(shard).available([v])).toEqual({ [v]: 9 });

    // The old ledger's entry replays its first answer; a new key restocks.
    expect(await stub(shard).restock(v, { set: 10 }, 0, V1, { key: "admin-restock:k1", hash: "h1" })).toEqual({
      ...earlier,
      replayed: true,
    });
    expect(await stub(shard).restock(v, { set: 10 }, 0, V1, { key: "admin-restock:k1", hash: "h2" })).toEqual({
      ok: false,
      reason: "conflict",
    });
    expect(await stub(shard).restock(v, { add: 2 }, 0, V1, { key: "admin-restock:k2", hash: "h3" })).toMatchObject({
      ok: true,
      level: 11,
      replayed: false,
    });
    expect(await stub(shard).available([v])).toEqual({ [v]: 11 });
    expect(await reservationStates(shard)).toEqual({ [r1]: "released", [r2]: "released", [r3]: "held" });
    expect(await versionOf(shard)).toBe(1);
  });

  it("the store-wide object with stock and reservations only (before restocks, returns and the ledger)", async () => {
    const m = fresh("m");
    const [old1, old2] = [fresh("old1"), fresh("old2")];
    await runInDurableObject(stub(INVENTORY_NAME), (_o: InventoryObject, state) => {
      const sql = state.storage.sql;
      expect(sql.exec("SELECT name FROM sqlite_master").toArray(), "an untouched store-wide object").toEqual([]);
      sql.exec(STOCK);
      sql.exec(RESERVATIONS);
      // 10 in the catalog, 4 and 2 held: 4 left.
      sql.exec("INSERT INTO stock (variant_id, catalog_version, level) VALUES (?, ?, 4)", m, V1);
      hold(sql, old1, m, 4);
      hold(sql, old2, m, 2);
    });
    const legacy = stub(INVENTORY_NAME);
    // What a shard starts from, read from the old layout (no restocks table) without writing.
    expect(await legacy.levels([m], { [m]: 10 }, V1)).toEqual({
      levels: { [m]: 4 },
      restocked: [],
      versions: { [m]: V1 },
    });
    expect(await storedTables(INVENTORY_NAME)).toEqual(["reservations", "stock"]);

    // A shard's first reservation of m starts from the 4 left there.
    expect(await reserveStock(env, fresh("r"), [{ variantId: m, quantity: 1 }], { [m]: 10 }, V1)).toMatchObject({
      ok: true,
    });
    expect(await stub(stockShardName(m)).available([m])).toEqual({ [m]: 3 });

    // A release no shard knows reaches the store-wide object, which it brings to the latest layout.
    expect(await releaseStock(env, old1, [m])).toEqual({ released: true });
    expect(await storedTables(INVENTORY_NAME)).toEqual(LATEST);
    expect(await versionOf(INVENTORY_NAME)).toBe(1);
    expect(await legacy.available([m])).toEqual({ [m]: 8 });
    expect(await legacy.returnUnits(old2, [{ variantId: m, quantity: 5 }], "ret")).toEqual({
      returned: true,
      lines: [{ variantId: m, quantity: 2 }],
      replayed: false,
    });
    expect(await legacy.release(old2)).toEqual({ released: true });
    expect(await legacy.available([m])).toEqual({ [m]: 10 });
    const key = { key: "admin-restock:k", hash: "h" };
    expect(await legacy.restock(m, { add: 1 }, 10, V1, key)).toMatchObject({ ok: true, level: 11, replayed: false });
    expect(await legacy.restock(m, { add: 1 }, 10, V1, key)).toMatchObject({ ok: true, level: 11, replayed: true });
    expect(await reservationStates(INVENTORY_NAME)).toEqual({ [old1]: "released", [old2]: "released" });
    // The shard's own count never moved (no oversell from the store-wide object's returns).
    expect(await stub(stockShardName(m)).available([m])).toEqual({ [m]: 3 });
    // The alarm armed for the released records and the ledger runs on the new layout.
    const alarm = await runInDurableObject(legacy, (_o: InventoryObject, state) => state.storage.getAlarm());
    expect(alarm).not.toBeNull();
    await runInDurableObject(legacy, (instance: InventoryObject) => instance.alarm());
    expect(await reservationStates(INVENTORY_NAME)).toEqual({ [old1]: "released", [old2]: "released" });
  });
});
