/**
 * The catalog load object's stored layout on the kernel (issue 27): loads written by the
 * build before (its constructor created the three tables on every start; no schema_version
 * row) are listed, shown and resumed by the new one. Reading them writes nothing; the first
 * change leaves the object at the latest version.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CatalogLoadObject } from "../../durable-objects/catalog-load-object";

/** The previous build's statements, exactly as its constructor ran them. */
const PREVIOUS_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS jobs (
  id TEXT PRIMARY KEY,
  file_name TEXT NOT NULL,
  kind TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  parts INTEGER NOT NULL DEFAULT 0,
  currency TEXT NOT NULL,
  phase TEXT NOT NULL,
  error TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  paused INTEGER NOT NULL DEFAULT 0,
  retry_at INTEGER,
  checked_rows INTEGER NOT NULL DEFAULT 0,
  products INTEGER NOT NULL DEFAULT 0,
  variants INTEGER NOT NULL DEFAULT 0,
  written INTEGER NOT NULL DEFAULT 0,
  cursor INTEGER NOT NULL DEFAULT 0,
  problems INTEGER NOT NULL DEFAULT 0,
  removed INTEGER NOT NULL DEFAULT 0,
  version TEXT,
  index_parts INTEGER NOT NULL DEFAULT 0,
  clean_prefix TEXT,
  clean_after INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  served_at INTEGER,
  finished_at INTEGER
)`,
  `CREATE TABLE IF NOT EXISTS problems (
  job TEXT NOT NULL,
  seq INTEGER NOT NULL,
  place TEXT NOT NULL,
  message TEXT NOT NULL,
  PRIMARY KEY (job, seq)
)`,
  `CREATE TABLE IF NOT EXISTS staged (
  job TEXT NOT NULL,
  seq INTEGER NOT NULL,
  id TEXT NOT NULL,
  doc TEXT NOT NULL,
  PRIMARY KEY (job, seq)
)`,
];

const tables = (state: DurableObjectState) =>
  state.storage.sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'")
    .toArray()
    .map((r) => r.name)
    .sort();

describe("catalog loads: state of the layout before the kernel", () => {
  it("lists, shows and resumes loads the previous build stored, migrating on the first change", async () => {
    const stub = env.CATALOG_LOAD.getByName("layout-before-kernel") as DurableObjectStub<CatalogLoadObject>;
    const t = 1_700_000_000_000;
    await runInDurableObject(stub, (_o: CatalogLoadObject, state) => {
      const sql = state.storage.sql;
      // A new instance of today's class made no table in its constructor: only the rows below exist.
      expect(tables(state)).toEqual([]);
      sql.exec(PREVIOUS_SCHEMA.join(";\n"));
      const job = (id: string, phase: string, extra: string, values: unknown[]) =>
        sql.exec(
          `INSERT INTO jobs (id, file_name, kind, bytes, parts, currency, phase, created_at, updated_at${extra}) VALUES (?, 'c.csv', 'csv', 100, 1, 'USD', ?, ?, ?${", ?".repeat(values.length)})`,
          id,
          phase,
          t,
          t,
          ...(values as SqlStorageValue[]),
        );
      job("load_done", "done", ", products, served_at, finished_at", [3, t, t]);
      job("load_refused", "refused", ", problems, finished_at", [2, t]);
      // Paused while writing (three attempts failed), its cursor past the first document.
      job("load_paused", "writing", ", paused, attempts, error, products, cursor, written", [1, 3, "kv down", 2, 1, 1]);
      sql.exec("INSERT INTO problems (job, seq, place, message) VALUES ('load_refused', 0, 'row 2', 'no title')");
      sql.exec("INSERT INTO problems (job, seq, place, message) VALUES ('load_refused', 1, 'row 5', 'bad price')");
      sql.exec("INSERT INTO staged (job, seq, id, doc) VALUES ('load_paused', 2, 'p2', '{}')");
    });

    expect((await stub.recent(10)).map((j) => j.id).sort()).toEqual(["load_done", "load_paused", "load_refused"]);
    expect(await stub.status("load_done")).toMatchObject({ phase: "done", products: 3, served_at: t });
    expect(await stub.problems("load_refused", 0, 10)).toEqual([
      { where: "row 2", message: "no title" },
      { where: "row 5", message: "bad price" },
    ]);
    expect(await stub.status("load_paused")).toMatchObject({ phase: "writing", paused: true, error: "kv down" });
    // Reads wrote nothing: no version row yet.
    await runInDurableObject(stub, (_o: CatalogLoadObject, state) => {
      expect(tables(state)).toEqual(["jobs", "problems", "staged"]);
    });

    expect(await stub.resume("load_paused")).toBe(true);
    // Resumed from its cursor (its alarm may already be retrying the write of this made-up document).
    expect(await stub.status("load_paused")).toMatchObject({ paused: false, written: 1 });
    await runInDurableObject(stub, (_o: CatalogLoadObject, state) => {
      expect(tables(state)).toEqual(["jobs", "problems", "schema_version", "staged"]);
      expect(state.storage.sql.exec<{ version: number }>("SELECT version FROM schema_version").one().version).toBe(1);
      // Its staged document is still there for the write step to take.
      expect(state.storage.sql.exec("SELECT id FROM staged WHERE job = 'load_paused'").toArray()).toEqual([
        { id: "p2" },
      ]);
    });
  });

  it("an object never written answers empty and stays empty", async () => {
    const stub = env.CATALOG_LOAD.getByName("layout-never-written") as DurableObjectStub<CatalogLoadObject>;
    expect(await stub.recent(5)).toEqual([]);
    expect(await stub.status("nope")).toBeNull();
    expect(await stub.resume("nope")).toBe(false);
    await runInDurableObject(stub, (_o: CatalogLoadObject, state) => expect(tables(state)).toEqual([]));
  });
});
