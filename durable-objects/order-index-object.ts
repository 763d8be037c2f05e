/**
 * The store's order index (one object, ORDER_INDEX_NAME): a row per order for the console's
 * list, search and dashboard, fed by every order object's index feed (durable-objects/order/
 * index-feed.ts, at-least-once, upserts keyed by order id + version). Derived state only.
 * A second object of this class (ORDER_LOG_NAME) keeps nothing but the ids of orders placed
 * without a number (`append`); the numbers object (ORDER_NUMBERS_NAME) records every numbered
 * order's id when it allocates its number, before the order exists. A rebuild walks both
 * (`ids`) and re-pulls each order's entry from its own object, a batch per alarm, so even a
 * wiped index comes back. Reads are synchronous SQL.
 */
import { DurableObject } from "cloudflare:workers";
import { merchantConfig } from "../src/config";
import { orderHome } from "../src/lib/ids";
import { ORDER_LOG_NAME, type OrderIndexEntry } from "../src/order/index-entry";
import {
  fillDays,
  type OrderListPage,
  type OrderListQuery,
  type OrderListRow,
  type OrderStats,
  pageOf,
  statsSince,
} from "../src/order/index-query";
import { ORDER_NUMBERS_NAME } from "../src/order/order-number";
import { allocateNumber, NUMBERS_SCHEMA } from "./order-index/numbers";
import {
  INDEX_SCHEMA,
  LOG_SCHEMA,
  listStatement,
  NUMBER_INDEX,
  numberColumnMigration,
  type Statement,
  statsStatements,
  upsertStatements,
} from "./order-index/queries";
import { type Migration, ObjectStore, tables } from "./shared/kernel";

/**
 * The layout, step by step (shared/kernel.ts). One class plays three objects (the index, its
 * id log, the order numbers): each has the same tables and fills only its own.
 */
const MIGRATIONS: readonly Migration[] = [
  tables(1, "the index, its rebuild, the id log", [
    ...INDEX_SCHEMA,
    LOG_SCHEMA,
    `CREATE TABLE IF NOT EXISTS rebuild (
  slot INTEGER PRIMARY KEY CHECK (slot = 1),
  after TEXT NOT NULL,
  pulled INTEGER NOT NULL,
  missing INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  done_at INTEGER
)`,
  ]),
  {
    version: 2,
    does: "the short order number's column, on an index made before numbers (the rebuild or each order's next feed fills it)",
    up: (sql) => {
      const columns = sql.exec<{ name: string }>("SELECT name FROM pragma_table_info('order_index')").toArray();
      for (const statement of numberColumnMigration(columns.map((c) => c.name))) sql.exec(statement);
      sql.exec(NUMBER_INDEX);
    },
  },
  tables(3, "the order numbers", [NUMBERS_SCHEMA]),
];
const REBUILD_BATCH = 100;

export interface IndexedVersion {
  readonly entry: OrderIndexEntry;
  readonly version: number;
}

export interface RebuildStatus {
  readonly running: boolean;
  readonly pulled: number;
  /** Ids in the log whose order object holds no order (never expected; counted, not fatal). */
  readonly missing: number;
  readonly started_at: number | null;
  readonly done_at: number | null;
}

export class OrderIndexObject extends DurableObject<Env> {
  /**
   * Every order's feed writes here, so no schema statements per write: the kernel learns the
   * layout once per instance. Storage wiped behind the instance's back (the rebuild test's
   * deleteAll) costs one failed, retried feed delivery (a failed transaction forgets it), never a lost one.
   */
  readonly #store = new ObjectStore(this.ctx.storage, MIGRATIONS);

  /** Records one order's entry unless a newer version is already there. */
  async upsert(entry: OrderIndexEntry, version: number): Promise<void> {
    this.upsertMany([{ entry, version }]);
  }

  /** Many entries in one transaction (a rebuild batch, the benchmark's seeding). */
  upsertMany(rows: readonly IndexedVersion[]): void {
    this.#store.transaction(() => {
      for (const { entry, version } of rows) {
        for (const s of upsertStatements(entry, version)) this.#run(s);
      }
    });
  }

  /** Records an order id (the log object): once, whatever the repeats. */
  async append(id: string, createdAt: number): Promise<void> {
    this.#store.transaction((sql) =>
      sql.exec("INSERT OR IGNORE INTO order_log (id, created_at) VALUES (?, ?)", id, createdAt),
    );
  }

  /**
   * The order's short number (the numbers object, ORDER_NUMBERS_NAME): the one it was given,
   * or the next one now. Called by the completion before the order is created.
   */
  async allocateNumber(orderId: string, start: number): Promise<number> {
    return this.#store.transaction((sql) => allocateNumber(sql, orderId, start, Date.now()));
  }

  /**
   * Recorded order ids after `after`, in id order (a rebuild's batches): the log object's
   * logged ids, the numbers object's numbered ones (each object fills only its own table).
   */
  async ids(after: string, limit: number): Promise<string[]> {
    return this.#store.read([], (sql) =>
      sql
        .exec<{ id: string }>(
          `SELECT id FROM (SELECT id FROM order_log WHERE id > ?1
             UNION SELECT order_id AS id FROM order_numbers WHERE order_id > ?1) ORDER BY id LIMIT ?2`,
          after,
          limit,
        )
        .toArray()
        .map((r) => r.id),
    );
  }

  /** One page of the list, newest first. */
  async list(query: OrderListQuery): Promise<OrderListPage> {
    return this.#store.read({ orders: [] }, () => pageOf(this.#all<OrderListRow>(listStatement(query)), query.limit));
  }

  /** The dashboard's figures as of `now`. */
  async stats(now: number): Promise<OrderStats> {
    const since = statsSince(now);
    const empty = { since, per_day: fillDays([], since), by_status: {}, top_products: [] };
    const none: OrderStats = { ...empty, webhook_failures: { orders: 0, attempts: 0, recent: [] } };
    return this.#store.read(none, () => this.#stats(since));
  }

  #stats(since: number): OrderStats {
    const q = statsStatements(since);
    const count = this.#all<{ orders: number; attempts: number }>(q.webhookFailureCount)[0];
    return {
      since,
      per_day: fillDays(this.#all(q.perDay), since),
      by_status: Object.fromEntries(
        this.#all<{ status: string; orders: number }>(q.byStatus).map((r) => [r.status, r.orders]),
      ),
      top_products: this.#all(q.topProducts),
      webhook_failures: {
        orders: count?.orders ?? 0,
        attempts: count?.attempts ?? 0,
        recent: this.#all(q.webhookFailures),
      },
    };
  }

  /**
   * Starts (or restarts) re-pulling every logged order's entry from its object; the alarm
   * does it a batch at a time, so the list keeps answering meanwhile.
   */
  async rebuild(): Promise<RebuildStatus> {
    const now = Date.now();
    this.#store.transaction(() => {
      this.ctx.storage.sql.exec(
        "INSERT OR REPLACE INTO rebuild (slot, after, pulled, missing, started_at, done_at) VALUES (1, '', 0, 0, ?, NULL)",
        now,
      );
    });
    await this.ctx.storage.setAlarm(now);
    return this.rebuildStatus();
  }

  async rebuildStatus(): Promise<RebuildStatus> {
    const row = this.#store.read(
      undefined,
      (sql) =>
        sql
          .exec<{ pulled: number; missing: number; started_at: number; done_at: number | null }>(
            "SELECT pulled, missing, started_at, done_at FROM rebuild",
          )
          .toArray()[0],
    );
    if (!row) return { running: false, pulled: 0, missing: 0, started_at: null, done_at: null };
    return { running: row.done_at === null, ...row };
  }

  /** An order's index state, from the object it lives in (its own, or its checkout's: src/tools/order-stub.ts). */
  async #indexStateOf(orderId: string, secret: string) {
    const home = await orderHome(secret, orderId);
    if (home === "own") return this.env.ORDER.getByName(orderId).indexState();
    return home ? this.env.CHECKOUT.getByName(home.checkout).orderIndexState() : undefined;
  }

  /** One rebuild batch; re-armed until the log is through. Safe to run twice (upserts are versioned). */
  override async alarm(): Promise<void> {
    const sql = this.ctx.storage.sql;
    const state = this.#store.read(
      undefined,
      () => sql.exec<{ after: string; done_at: number | null }>("SELECT after, done_at FROM rebuild").toArray()[0],
    );
    if (!state || state.done_at !== null) return;
    // Orders without a number are in the log, numbered ones in the numbers object (order-object.ts #sendIndex).
    const recorded = await Promise.all(
      [ORDER_LOG_NAME, ORDER_NUMBERS_NAME].map((name) =>
        this.env.ORDER_INDEX.getByName(name).ids(state.after, REBUILD_BATCH),
      ),
    );
    const ids = [...new Set(recorded.flat())].sort().slice(0, REBUILD_BATCH);
    const secret = merchantConfig(this.env).idSecret;
    const pulled = await Promise.all(ids.map((id) => this.#indexStateOf(id, secret)));
    const found: IndexedVersion[] = [];
    for (const p of pulled) if (p) found.push({ entry: p.entry, version: p.version });
    this.upsertMany(found);
    const last = ids.at(-1);
    sql.exec(
      "UPDATE rebuild SET after = ?, pulled = pulled + ?, missing = missing + ?, done_at = ?",
      last ?? state.after,
      found.length,
      ids.length - found.length,
      ids.length < REBUILD_BATCH ? Date.now() : null,
    );
    if (ids.length === REBUILD_BATCH) await this.ctx.storage.setAlarm(Date.now());
  }

  // Rows are typed by the statement that selects them (queries.ts names every column).
  #all<T>(s: Statement): T[] {
    return this.ctx.storage.sql.exec(s.text, ...s.params).toArray() as T[];
  }

  #run(s: Statement): void {
    this.ctx.storage.sql.exec(s.text, ...s.params);
  }
}
