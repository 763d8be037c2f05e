/**
 * What InventoryObject tells search. The store-wide object (AvailabilityPublisher): tracked variants at zero and restocked ones above zero,
 * each with the catalog load its count is from, written to KV (catalog:availability,
 * src/catalog/kv-layout.ts). Writes are chained, so the last one carries the latest state, and
 * an unchanged document is not rewritten. A failed write is logged and retried by the next
 * change; carts and checkouts ask the object itself, so they never depend on it. A stock shard
 * (ShardPublisher): each variant's state, as the metadata of its own key, only when that
 * variant's state changed: no table scan and no store-wide document per reservation.
 * Both read the object's state through its store (shared/kernel.ts), which has every table
 * once anything is stored and answers `empty` before: nothing here asks whether a table exists.
 */
import { type AvailabilityDoc, KV_KEYS, type VariantAvailability } from "../../src/catalog/kv-layout";
import { STORE_TABLES_SQL } from "../../src/catalog/search-tables";
import { Lru } from "../../src/lib/lru";
import type { ObjectStore } from "./kernel";

type Row = { variant_id: string; catalog_version: string };

/** How a publisher reads the object's state: its store's read, which writes nothing. */
export type StateReader = Pick<ObjectStore, "read">;

/** Which of these variants a merchant restocked. */
export function restockedAmong(sql: SqlStorage, variantIds: readonly string[]): Set<string> {
  const rows = sql.exec<{ variant_id: string }>(
    "SELECT variant_id FROM restocks WHERE variant_id IN (SELECT value FROM json_each(?))",
    JSON.stringify(variantIds),
  );
  return new Set([...rows].map((r) => r.variant_id));
}

export class AvailabilityPublisher {
  /** The sets last written (JSON), so an unchanged document is not rewritten. */
  #published: string | undefined;
  #chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: StateReader,
    private readonly kv: KVNamespace,
  ) {}

  /** Publishes the state as it is when this write's turn comes. */
  publish(): Promise<void> {
    const run = this.#chain.then(async () => {
      const doc = this.#document();
      const sets = JSON.stringify({ sold_out: doc.sold_out, restocked: doc.restocked });
      if (sets === this.#published) return;
      try {
        await this.kv.put(KV_KEYS.availability, JSON.stringify(doc));
        this.#published = sets;
      } catch (error) {
        console.error(JSON.stringify({ event: "availability_publish_failed", error: String(error) }));
      }
    });
    this.#chain = run;
    return run;
  }

  #document(): AvailabilityDoc {
    const updated_at = new Date().toISOString();
    return this.store.read({ updated_at, sold_out: {}, restocked: {} }, (sql) => {
      // fromEntries defines own properties, so an id such as "__proto__" stays data.
      const entries = (query: string) =>
        Object.fromEntries([...sql.exec<Row>(query)].map((r) => [r.variant_id, r.catalog_version]));
      return {
        updated_at,
        sold_out: entries("SELECT variant_id, catalog_version FROM stock WHERE level = 0"),
        restocked: entries(
          "SELECT s.variant_id, s.catalog_version FROM stock s JOIN restocks r USING (variant_id) WHERE s.level > 0",
        ),
      };
    });
  }
}

/** One variant's state as published: what a shard compares before and after a change. */
export function variantState(sql: SqlStorage, variantId: string): VariantAvailability | undefined {
  const row = sql
    .exec<{ level: number | null; catalog_version: string }>(
      "SELECT level, catalog_version FROM stock WHERE variant_id = ?",
      variantId,
    )
    .toArray()[0];
  if (!row) return undefined;
  if (row.level === 0) return { s: "sold_out", v: row.catalog_version };
  const restocked = sql.exec("SELECT 1 FROM restocks WHERE variant_id = ?", variantId).toArray().length > 0;
  return { s: restocked && row.level !== null ? "restocked" : "in_stock", v: row.catalog_version };
}

/** Whether a change moved the variant between published states (in_stock at any load is one state). */
export function stateChanged(before: VariantAvailability | undefined, after: VariantAvailability | undefined): boolean {
  const key = (st: VariantAvailability | undefined) => (!st || st.s === "in_stock" ? "in_stock" : `${st.s}@${st.v}`);
  return key(before) !== key(after);
}

/**
 * Variants a shard remembers the last written state of. A shard is hot (every purchase of its
 * variants reaches it), so it is rarely evicted; an unbounded map grew with every variant it
 * ever published (a million-variant catalog's share per shard). Forgetting one only costs one
 * rewrite of an unchanged key the next time that variant moves.
 */
export const PUBLISHED_ENTRIES = 4096;

/** A shard's publisher: writes are chained, each writes its variants' states as they are at its turn. */
export class ShardPublisher {
  /** The state last written per variant (the most recent PUBLISHED_ENTRIES), so a repeat is not rewritten. */
  readonly #published: Lru<string, string>;
  /**
   * Variants whose last write failed (KV allows about one write per second per key, and an
   * abandoned hold flips a key back within one round trip). Each key is written only when its
   * state moves, so a failed one would stay wrong: every later publish and the object's alarm
   * (armed by the caller while any is pending) write them again.
   */
  readonly #unpublished = new Set<string>();
  #chain: Promise<void> = Promise.resolve();

  /** Whether search_live is known to exist in this instance's lifetime (created once, then trusted). */
  #liveTable = false;

  constructor(
    private readonly store: StateReader,
    private readonly kv: KVNamespace,
    /** Catalog search on D1 (issue 28): the same state goes to search_live, which search filters on. */
    private readonly db?: D1Database,
    rememberedEntries = PUBLISHED_ENTRIES,
  ) {
    this.#published = new Lru(rememberedEntries);
  }

  /** How many variants' written states are remembered (test hook for the bound). */
  get remembered(): number {
    return this.#published.size;
  }

  /** Whether a failed write still waits for its retry. */
  get pending(): boolean {
    return this.#unpublished.size > 0;
  }

  publish(variantIds: readonly string[]): Promise<void> {
    const run = this.#chain.then(async () => {
      for (const variantId of new Set([...this.#unpublished, ...variantIds])) await this.#write(variantId);
    });
    this.#chain = run;
    return run;
  }

  async #write(variantId: string): Promise<void> {
    const state = this.store.read(undefined, (sql) => variantState(sql, variantId)) ?? { s: "in_stock", v: "" };
    const text = JSON.stringify(state);
    if (text === this.#published.get(variantId)) {
      this.#unpublished.delete(variantId);
      return;
    }
    try {
      await this.kv.put(KV_KEYS.variantAvailability(variantId), "", { metadata: state });
      if (this.db) await this.#writeLive(this.db, variantId, state);
      this.#published.set(variantId, text);
      this.#unpublished.delete(variantId);
    } catch (error) {
      this.#unpublished.add(variantId);
      console.error(JSON.stringify({ event: "availability_publish_failed", variant: variantId, error: String(error) }));
    }
  }

  async #writeLive(db: D1Database, variantId: string, state: VariantAvailability): Promise<void> {
    const upsert = db
      .prepare("INSERT OR REPLACE INTO search_live (variant_id, s, v) VALUES (?, ?, ?)")
      .bind(variantId, state.s, state.v);
    // A store whose migrations were not applied yet (or a test's fresh D1) gets the table here.
    const create = this.#liveTable ? [] : STORE_TABLES_SQL.map((statement) => db.prepare(statement));
    await db.batch([...create, upsert]);
    this.#liveTable = true;
  }
}
