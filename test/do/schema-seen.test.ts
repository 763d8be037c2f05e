/**
 * The kernel learns an object's stored layout once per instance (durable-objects/shared/kernel.ts;
 * before it, shared/schema.ts remembered each table, issue 14): one sqlite_master query, not one
 * per use. What it learnt must be forgotten when it can stop being true: a transaction that
 * rolls back (the tables its migration made are gone again), deleteAll, and storage deleted
 * behind the instance's back (a test's wipe), which it re-learns instead of failing the call.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { CartObject } from "../../durable-objects/cart-object";
import { ObjectStore, tables } from "../../durable-objects/shared/kernel";

const fresh = () => env.CART.getByName(`schema-${crypto.randomUUID()}`) as DurableObjectStub<CartObject>;
const layout = [tables(1, "one table", ["CREATE TABLE IF NOT EXISTS t (x INTEGER)"])];
const names = (state: DurableObjectState) =>
  state.storage.sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'")
    .toArray()
    .map((r) => r.name)
    .sort();

describe("the layout an object's store has learnt", () => {
  it("is answered from memory once learnt (one lookup per instance)", async () => {
    await runInDurableObject(fresh(), (_o: CartObject, state) => {
      const store = new ObjectStore(state.storage, layout);
      store.transaction((sql) => sql.exec("INSERT INTO t (x) VALUES (1)"));
      // Behind its back (nothing in the project drops tables this way): still known, which is
      // what shows the answer came from memory.
      state.storage.sql.exec("DROP TABLE t; DROP TABLE schema_version");
      expect(store.exists()).toBe(true);
      expect(new ObjectStore(state.storage, layout).exists()).toBe(false);
    });
  });

  it("is forgotten when the transaction whose migration made the tables rolls back", async () => {
    await runInDurableObject(fresh(), (_o: CartObject, state) => {
      const store = new ObjectStore(state.storage, layout);
      expect(() =>
        store.transaction(() => {
          throw new Error("roll back");
        }),
      ).toThrow("roll back");
      expect(names(state)).toEqual([]);
      expect(store.exists()).toBe(false);
      expect(store.read("empty", () => "read")).toBe("empty");
      // A committed one is learnt as before.
      store.transaction((sql) => sql.exec("INSERT INTO t (x) VALUES (1)"));
      expect(store.exists()).toBe(true);
    });
  });

  it("is forgotten by deleteAll", async () => {
    await runInDurableObject(fresh(), async (_o: CartObject, state) => {
      const store = new ObjectStore(state.storage, layout);
      store.transaction((sql) => sql.exec("INSERT INTO t (x) VALUES (1)"));
      await store.deleteAll();
      expect(store.exists()).toBe(false);
      expect(names(state)).toEqual([]);
    });
  });

  it("is re-learnt when the storage was deleted behind the instance's back", async () => {
    await runInDurableObject(fresh(), async (_o: CartObject, state) => {
      const store = new ObjectStore(state.storage, layout);
      store.transaction((sql) => sql.exec("INSERT INTO t (x) VALUES (1)"));
      await state.storage.deleteAll();
      // The next change meets "no such table", learns the layout afresh and runs once more.
      store.transaction((sql) => sql.exec("INSERT INTO t (x) VALUES (2)"));
      expect(store.read([], (sql) => sql.exec<{ x: number }>("SELECT x FROM t").toArray())).toEqual([{ x: 2 }]);
    });
  });
});
