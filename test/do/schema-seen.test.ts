/**
 * Objects remember the tables they have seen (durable-objects/shared/schema.ts, issue 14):
 * one sqlite_master lookup per table per object instead of one per use. A remembered table
 * must be forgotten when it can disappear: the transaction that created it rolls back, or
 * deleteAll drops everything.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { CartObject } from "../../durable-objects/cart-object";
import { deleteAllStorage, ensureTables, hasTable, transaction } from "../../durable-objects/shared/schema";

const fresh = () => env.CART.getByName(`schema-${crypto.randomUUID()}`) as DurableObjectStub<CartObject>;

describe("tables an object has seen", () => {
  it("are answered from memory once seen (one lookup per table per object)", async () => {
    await runInDurableObject(fresh(), (_o: CartObject, state) => {
      const sql = state.storage.sql;
      sql.exec("CREATE TABLE t (x INTEGER)");
      expect(hasTable(sql, "t")).toBe(true);
      // Behind the memo's back (nothing in the project drops a table this way): still remembered,
      // which is what shows the second answer came from memory, on the same storage handle.
      sql.exec("DROP TABLE t");
      expect(hasTable(state.storage.sql, "t")).toBe(true);
      expect(hasTable(sql, "never_created")).toBe(false);
    });
  });

  it("are forgotten when the transaction that created them rolls back", async () => {
    await runInDurableObject(fresh(), (_o: CartObject, state) => {
      expect(() =>
        transaction(state.storage, () => {
          state.storage.sql.exec("CREATE TABLE t (x INTEGER)");
          expect(hasTable(state.storage.sql, "t")).toBe(true);
          throw new Error("roll back");
        }),
      ).toThrow("roll back");
      expect(hasTable(state.storage.sql, "t")).toBe(false);
      // A committed one is remembered as before.
      transaction(state.storage, () => state.storage.sql.exec("CREATE TABLE u (x INTEGER)"));
      expect(hasTable(state.storage.sql, "u")).toBe(true);
    });
  });

  it("are forgotten by deleteAll", async () => {
    await runInDurableObject(fresh(), async (_o: CartObject, state) => {
      state.storage.sql.exec("CREATE TABLE t (x INTEGER)");
      expect(hasTable(state.storage.sql, "t")).toBe(true);
      await deleteAllStorage(state.storage);
      expect(hasTable(state.storage.sql, "t")).toBe(false);
    });
  });

  it("are known once ensureTables created them, and forgotten with a rollback around it", async () => {
    await runInDurableObject(fresh(), (_o: CartObject, state) => {
      const sql = state.storage.sql;
      ensureTables(sql, ["CREATE TABLE IF NOT EXISTS made (x INTEGER)"]);
      // Dropped behind the memo's back: still answered true, so the answer came from what
      // ensureTables noted, not from a lookup.
      sql.exec("DROP TABLE made");
      expect(hasTable(sql, "made")).toBe(true);
      // And a known table's statement is not run again (nothing recreates the dropped one),
      // while an index statement beside it always runs.
      ensureTables(sql, [
        "CREATE TABLE IF NOT EXISTS made (x INTEGER)",
        "CREATE TABLE IF NOT EXISTS other (y INTEGER)",
      ]);
      const tables = () => sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").toArray();
      expect(tables().map((t) => t.name)).toEqual(["other"]);
      ensureTables(sql, ["CREATE INDEX IF NOT EXISTS other_y ON other (y)"]);
      expect(sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'other_y'").toArray()).toHaveLength(
        1,
      );
      expect(() =>
        transaction(state.storage, () => {
          ensureTables(sql, ["CREATE TABLE IF NOT EXISTS gone (x INTEGER)"]);
          throw new Error("roll back");
        }),
      ).toThrow("roll back");
      expect(hasTable(sql, "gone")).toBe(false);
    });
  });
});
