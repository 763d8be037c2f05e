/**
 * A merchant's stock. STOCK_SHARDS objects, `stock:<n>`, each counting the variants whose id
 * hashes to it (a shard; the Worker's coordinator, src/catalog/stock-shards.ts, spans a
 * multi-line reservation across them), and
 * the store-wide object of before (`INVENTORY_NAME`), which holds reservations made before the
 * split and the counts a shard starts from (shared/stock-shard.ts). Same class, same tables.
 * Every change is one synchronous transaction with no `await` inside; levels come from the
 * Worker (read from KV), never from KV here. Outcomes are values, never thrown. Tables appear
 * on the first successful reservation (docs/inventory.md).
 */
import { DurableObject } from "cloudflare:workers";
import {
  AvailabilityPublisher,
  restockedAmong,
  ShardPublisher,
  stateChanged,
  variantState,
} from "./shared/availability-publisher";
import {
  type IdempotencyInput,
  LEDGER_SCHEMA,
  ledgerDeadline,
  priorAnswer,
  pruneLedger,
  recordLedger,
} from "./shared/idempotency";
import {
  effectiveLevel,
  INVENTORY_NAME,
  parseReserve,
  parseRestock,
  planReservation,
  RESERVATION_KEEP_MS,
  type RecordedLine,
  type ReleaseOutcome,
  type ReserveLine,
  type ReserveOutcome,
  type RestockOutcome,
  refusedReserve,
  restockedLevel,
  type StockChange,
  type StockLevel,
  type StockRow,
  sameLines,
  stockShardName,
} from "./shared/inventory-plan";
import {
  leftToRelease,
  parseReturnLines,
  planReturn,
  priorReturn,
  RETURNS_SCHEMA,
  type ReturnLine,
  type ReturnOutcome,
  recordReturn,
  returnedUnits,
} from "./shared/reservation-returns";
import { ensureTables, hasTable, transaction } from "./shared/schema";
import { isStockShard, type LegacyStart, legacyStarts } from "./shared/stock-shard";

export type {
  InputIssue,
  ReleaseOutcome,
  ReserveLine,
  ReserveOutcome,
  RestockOutcome,
  ShortLine,
  StockChange,
  StockLevel,
} from "./shared/inventory-plan";
export type { ReturnLine, ReturnOutcome } from "./shared/reservation-returns";

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS stock (
    variant_id TEXT PRIMARY KEY,
    catalog_version TEXT NOT NULL,
    level INTEGER
  )`,
  `CREATE TABLE IF NOT EXISTS reservations (
    id TEXT PRIMARY KEY,
    lines_json TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('held', 'released')),
    created_at INTEGER NOT NULL,
    released_at INTEGER
  )`,
  "CREATE INDEX IF NOT EXISTS reservations_released ON reservations (released_at) WHERE state = 'released'",
  // Variants a merchant restocked through /admin/inventory: published as in stock while counted,
  // though the catalog file may have said out_of_stock.
  "CREATE TABLE IF NOT EXISTS restocks (variant_id TEXT PRIMARY KEY, restocked_at INTEGER NOT NULL)",
];
// Restocks' idempotency keys (the console's `admin-restock:<key>`), the one ledger every object
// keeps. Created by the first restock, so stores from before it need no migration.
const RESTOCK_SCHEMA = [...SCHEMA, LEDGER_SCHEMA];
/** How soon a failed availability write is tried again (KV takes about one write per second per key). */
const PUBLISH_RETRY_MS = 2_000;

/** Variants' published states before a change, to tell which moved. */
type PublishedStates = Map<string, ReturnType<typeof variantState>>;

interface Reservation {
  readonly lines: RecordedLine[];
  readonly state: "held" | "released";
}

export class InventoryObject extends DurableObject<Env> {
  /** Whether this object is a stock shard; otherwise the store-wide object (or a test's). */
  readonly #shard = isStockShard(this.ctx.id.name);
  /**
   * Whether the store-wide object said it counts nothing. Permanent (it takes no reservations
   * or restocks since the split), so this instance stops asking it for starts.
   */
  #legacyEmpty = false;
  /** Sell-outs and restocks, published to KV for search (shared/availability-publisher.ts). */
  readonly #availability = this.#shard
    ? new ShardPublisher(this.ctx.storage.sql, this.env.CATALOG, this.env.CATALOG_DB)
    : new AvailabilityPublisher(this.ctx.storage.sql, this.env.CATALOG);

  /**
   * Reserves every line or none. `levels` are the catalog's stock levels at `catalogVersion`
   * (see stockVersion()); a later load restates a variant's level, an earlier one is ignored.
   * Lines of one variant are summed. A repeated id replays its first success (replayed: true)
   * and changes nothing; the same id with other lines is a conflict. Failures are not recorded.
   */
  async reserve(
    reservationId: string,
    lines: ReserveLine[],
    levels: Record<string, StockLevel>,
    catalogVersion: string,
  ): Promise<ReserveOutcome> {
    const parsed = parseReserve(reservationId, lines, levels, catalogVersion);
    if (!parsed.ok) return refusedReserve(reservationId, parsed.error);
    const foreign = this.#foreignLines(parsed.value.lines);
    if (foreign)
      return { ok: false, reservationId: parsed.value.reservationId, reason: "invalid_input", issues: foreign };
    const variants = parsed.value.lines.map((l) => l.variantId);
    const starts = await this.#legacyStarts(variants, parsed.value.levels, parsed.value.catalogVersion);
    const request = parsed.value;
    const id = request.reservationId;
    const now = Date.now();
    const sql = this.ctx.storage.sql;
    let changed: string[] = [];
    const outcome = transaction(this.ctx.storage, (): ReserveOutcome => {
      const ready = this.#hasTables();
      const prior = ready ? this.#reservation(id) : undefined;
      if (prior) {
        if (!sameLines(prior.lines, request.lines)) return { ok: false, reservationId: id, reason: "conflict" };
        return { ok: true, reservationId: id, replayed: true };
      }
      const stored = ready ? this.#rows(request.lines.map((l) => l.variantId)) : new Map<string, StockRow>();
      // A shard's first count of a variant: what the store-wide object has left, as the row it
      // holds, with the load that row counts from (a newer load than the request's keeps its
      // count; an older one is restated by the request's catalog level, as any stored row is).
      const counted = withStarts(stored, starts);
      const plan = planReservation(request, counted);
      if (!plan.ok) return { ok: false, reservationId: id, reason: "out_of_stock", short: plan.short };
      if (!ready) ensureTables(sql, SCHEMA);
      const before = this.#states(variants);
      // A variant the store-wide object had restocked stays published as restocked.
      for (const [v, start] of starts)
        if (start.restocked && !stored.has(v))
          sql.exec("INSERT OR IGNORE INTO restocks (variant_id, restocked_at) VALUES (?, ?)", v, now);
      for (const row of plan.rows) {
        sql.exec(
          `INSERT INTO stock (variant_id, catalog_version, level) VALUES (?, ?, ?)
           ON CONFLICT (variant_id) DO UPDATE SET catalog_version = excluded.catalog_version, level = excluded.level`,
          row.variantId,
          row.version,
          row.level,
        );
      }
      sql.exec(
        "INSERT INTO reservations (id, lines_json, state, created_at) VALUES (?, ?, 'held', ?)",
        id,
        JSON.stringify(plan.recorded),
        now,
      );
      changed = this.#changed(before);
      return { ok: true, reservationId: id, replayed: false };
    });
    if (outcome.ok && !outcome.replayed) await this.#publish(changed);
    return outcome;
  }

  /**
   * Returns a held reservation's units to stock, once. Units go back only to levels still
   * counted from the load they were taken from: a later load already restated that stock.
   */
  async release(reservationId: string): Promise<ReleaseOutcome> {
    if (typeof reservationId !== "string" || !this.#hasTables()) return { released: false, reason: "not_found" };
    const now = Date.now();
    const sql = this.ctx.storage.sql;
    let changed: string[] = [];
    const outcome = transaction(this.ctx.storage, (): ReleaseOutcome => {
      const prior = this.#reservation(reservationId);
      if (!prior) return { released: false, reason: "not_found" };
      if (prior.state === "released") return { released: false, reason: "already_released" };
      const before = this.#states(prior.lines.map((l) => l.variantId));
      // Units an order's refund already restocked (returnUnits) are not given back again.
      this.#giveBack(
        leftToRelease(prior.lines, returnedUnits(sql, reservationId, hasTable(sql, "reservation_returns"))),
      );
      sql.exec("UPDATE reservations SET state = 'released', released_at = ? WHERE id = ?", now, reservationId);
      changed = this.#changed(before);
      return { released: true };
    });
    // Search is told first: if setting the alarm then fails, the caller's retry finds the
    // reservation released and would otherwise never publish. The retry sets the alarm.
    if (outcome.released) await this.#publish(changed);
    if (outcome.released || outcome.reason === "already_released") await this.#arm();
    return outcome;
  }

  /**
   * Gives back some units of a held reservation (an order's refund with restock), once per
   * `key`: a repeat replays what the first gave (replayed: true). Never more of a variant than
   * the reservation took, less earlier returns; units go back, as in release(), only to levels
   * still counted from the load they were taken from. A released reservation gives nothing.
   */
  async returnUnits(reservationId: string, lines: ReturnLine[], key: string): Promise<ReturnOutcome> {
    const asked = parseReturnLines(lines);
    const valid = typeof reservationId === "string" && typeof key === "string" && key.length > 0 && key.length <= 300;
    if (!asked || !valid) return { returned: false, reason: "invalid_input" };
    if (!this.#hasTables()) return { returned: false, reason: "not_found" };
    const sql = this.ctx.storage.sql;
    let changed: string[] = [];
    const outcome = transaction(this.ctx.storage, (): ReturnOutcome => {
      const prior = this.#reservation(reservationId);
      if (!prior) return { returned: false, reason: "not_found" };
      ensureTables(sql, [RETURNS_SCHEMA]);
      const again = priorReturn(sql, reservationId, key);
      if (again) return { returned: true, lines: again, replayed: true };
      if (prior.state === "released") return { returned: false, reason: "already_released" };
      const given = planReturn(prior.lines, asked, returnedUnits(sql, reservationId, true));
      const before = this.#states(given.map((l) => l.variantId));
      this.#giveBack(given);
      recordReturn(sql, reservationId, key, given, Date.now());
      changed = this.#changed(before);
      return {
        returned: true,
        lines: given.map(({ variantId, quantity }) => ({ variantId, quantity })),
        replayed: false,
      };
    });
    if (outcome.returned && !outcome.replayed) await this.#publish(changed);
    return outcome;
  }

  /**
   * Undoes a reservation that failed elsewhere (another shard of the same multi-line
   * reservation was short): units back as release() would, and the id forgotten, so a retry of
   * the same id reserves afresh instead of replaying a hold that is gone. Only the coordinator
   * calls it, and only for an id that did not succeed as a whole.
   */
  async abandon(reservationId: string): Promise<{ abandoned: boolean }> {
    if (typeof reservationId !== "string" || !this.#hasTables()) return { abandoned: false };
    let changed: string[] = [];
    const outcome = transaction(this.ctx.storage, () => {
      const prior = this.#reservation(reservationId);
      if (!prior) return { abandoned: false };
      const before = this.#states(prior.lines.map((l) => l.variantId));
      if (prior.state === "held") this.#giveBack(prior.lines);
      this.ctx.storage.sql.exec("DELETE FROM reservations WHERE id = ?", reservationId);
      changed = this.#changed(before);
      return { abandoned: true };
    });
    if (outcome.abandoned) await this.#publish(changed);
    return outcome;
  }

  /**
   * Units a reservation would find now (null = not tracked), without reserving: the stored
   * count, or the catalog's level when a later load restated it. One call per cart or
   * checkout write, so a sold-out variant shows as such at once. Writes nothing.
   */
  async levels(
    variantIds: string[],
    catalogLevels: Record<string, StockLevel>,
    catalogVersion: string,
  ): Promise<{
    levels: Record<string, StockLevel>;
    restocked: string[];
    versions?: Record<string, string>;
    uncounted?: string[];
    counts?: false;
  }> {
    if (!Array.isArray(variantIds) || typeof catalogVersion !== "string") return { levels: {}, restocked: [] };
    const all = variantIds.filter((v): v is string => typeof v === "string").slice(0, 1000);
    const given = typeof catalogLevels === "object" && catalogLevels !== null ? catalogLevels : {};
    const rows = this.#hasTables() ? this.#rows(all) : new Map<string, StockRow>();
    // Variants a shard has not counted yet, while the store-wide object may still count them: the
    // coordinator asks it once for all such variants of a request (src/catalog/stock-shards.ts).
    const uncounted = this.#shard && !this.#legacyEmpty ? all.filter((v) => !rows.has(v)) : [];
    const ids = uncounted.length === 0 ? all : all.filter((v) => rows.has(v));
    const restocked = this.#hasTables() ? restockedAmong(this.ctx.storage.sql, ids) : new Set<string>();
    const levels: Array<[string, StockLevel]> = [];
    const versions: Array<[string, string]> = [];
    const shown: string[] = [];
    for (const id of ids) {
      const catalogLevel = Object.hasOwn(given, id) ? given[id] : undefined;
      const row = rows.get(id);
      const now = effectiveLevel(row, catalogLevel, catalogVersion);
      if (now.level === null && catalogLevel === undefined) continue;
      levels.push([id, now.level]);
      versions.push([id, now.version]);
      if (row && now.version === row.version && restocked.has(id)) shown.push(id);
    }
    const answer = { levels: Object.fromEntries(levels), restocked: shown };
    if (uncounted.length > 0) return { ...answer, uncounted };
    if (this.ctx.id.name !== INVENTORY_NAME) return answer;
    // The store-wide object with no stock row tells shards and the coordinator to stop asking it.
    if (rows.size === 0 && !this.#countsAny()) return { ...answer, counts: false };
    // The load each level counts from, so a shard starting from it keeps that load
    // (shared/stock-shard.ts): a newer load's count must not be restated by an older request.
    return { ...answer, versions: Object.fromEntries(versions) };
  }

  /**
   * A merchant's count: `{set}` states the units on hand, `{add}` adds to what a reservation
   * would find now. The result counts from the newer of the stored and the catalog's load, so
   * a later catalog load restates it as usual. Publishes availability. With an idempotency
   * entry, a repeat replays the first answer (replayed: true) and changes nothing; the same
   * key with another request is a conflict.
   */
  async restock(
    variantId: string,
    change: StockChange,
    catalogLevel: StockLevel,
    catalogVersion: string,
    idempotency?: IdempotencyInput,
  ): Promise<RestockOutcome> {
    const parsed = parseRestock(variantId, change, catalogLevel, catalogVersion);
    if (!parsed.ok) return { ok: false, reason: "invalid_input", issues: parsed.error };
    if (idempotency !== undefined && !isLedgerEntry(idempotency)) {
      return { ok: false, reason: "invalid_input", issues: [{ path: "idempotency", message: "must be {key, hash}" }] };
    }
    const foreign = this.#foreignLines([{ variantId: parsed.value.variantId }]);
    if (foreign) return { ok: false, reason: "invalid_input", issues: foreign };
    const v = parsed.value.variantId;
    // A key stays scoped to its variant, as when each variant had its own object: the same key
    // on another variant of this shard is that variant's own request, not a conflict.
    const ledger = idempotency && this.#shard ? { ...idempotency, key: `${idempotency.key}@${v}` } : idempotency;
    const starts = await this.#legacyStarts(
      [v],
      new Map([[v, parsed.value.catalogLevel]]),
      parsed.value.catalogVersion,
    );
    // `add` on a variant the shard has not counted yet adds to what the store-wide object has left.
    const request = parsed.value;
    const sql = this.ctx.storage.sql;
    const now = Date.now();
    let changed: string[] = [];
    const outcome = transaction(this.ctx.storage, (): RestockOutcome => {
      // Always: a store whose tables predate `restocks` or `ledger` gets them here (IF NOT EXISTS).
      ensureTables(sql, RESTOCK_SCHEMA);
      const prior = priorAnswer(sql, ledger, now);
      if (prior?.kind === "conflict") return { ok: false, reason: "conflict" };
      if (prior) return { ...(JSON.parse(prior.body) as RestockAnswer), replayed: true };
      const before = this.#states([request.variantId]);
      const row = withStarts(this.#rows([request.variantId]), starts).get(request.variantId);
      const base = effectiveLevel(row, request.catalogLevel, request.catalogVersion);
      const level = restockedLevel(base.level, request.change);
      sql.exec(
        `INSERT INTO stock (variant_id, catalog_version, level) VALUES (?, ?, ?)
         ON CONFLICT (variant_id) DO UPDATE SET catalog_version = excluded.catalog_version, level = excluded.level`,
        request.variantId,
        base.version,
        level,
      );
      sql.exec("INSERT OR REPLACE INTO restocks (variant_id, restocked_at) VALUES (?, ?)", request.variantId, now);
      const answer: RestockAnswer = { ok: true, variantId: request.variantId, level, version: base.version };
      if (ledger) recordLedger(sql, ledger, JSON.stringify(answer), now);
      changed = this.#changed(before);
      return { ...answer, replayed: false };
    });
    // As in release(): search first, then the alarm that prunes the ledger, which a replay
    // sets again in case the first call failed there after its commit.
    if (outcome.ok && !outcome.replayed) await this.#publish(changed);
    if (outcome.ok && idempotency) await this.#arm();
    return outcome;
  }

  /** Units available now: null = not tracked; variants never reserved are omitted. Writes nothing. */
  async available(variantIds: string[]): Promise<Record<string, StockLevel>> {
    if (!Array.isArray(variantIds) || !this.#hasTables()) return {};
    const ids = variantIds.filter((v): v is string => typeof v === "string");
    // fromEntries defines own properties, so an id such as "__proto__" stays data.
    return Object.fromEntries([...this.#rows(ids).values()].map((r) => [r.variantId, r.level]));
  }

  /** Alarms are at-least-once: deletes what is due (a repeat finds nothing), then re-arms. */
  override async alarm(): Promise<void> {
    if (!this.#hasTables()) return;
    await this.#publish([]);
    const sql = this.ctx.storage.sql;
    const now = Date.now();
    sql.exec("DELETE FROM reservations WHERE state = 'released' AND released_at <= ?", now - RESERVATION_KEEP_MS);
    if (hasTable(sql, "ledger")) pruneLedger(sql, now);
    await this.#arm();
  }

  /**
   * A shard's starts from the store-wide object (shared/stock-shard.ts) for the variants it has
   * no row for, in one call; none for the store-wide object, or once it said it counts nothing.
   */
  async #legacyStarts(
    variantIds: readonly string[],
    levels: ReadonlyMap<string, StockLevel>,
    catalogVersion: string,
  ): Promise<Map<string, LegacyStart>> {
    if (!this.#shard || this.#legacyEmpty) return new Map();
    const rows = this.#hasTables() ? this.#rows(variantIds) : new Map<string, StockRow>();
    const missing = [...new Set(variantIds)].filter((v) => !rows.has(v));
    if (missing.length === 0) return new Map();
    const answer = await legacyStarts(this.env, missing, levels, catalogVersion);
    if (!answer.counts) this.#legacyEmpty = true;
    return answer.starts;
  }

  /** A shard counts only the variants that hash to it: lines for any other are refused before anything is read. */
  #foreignLines(lines: readonly { variantId: string }[]): Array<{ path: string; message: string }> | undefined {
    const name = this.ctx.id.name;
    const foreign = lines.find((l) => stockShardName(l.variantId) !== name);
    if (!this.#shard || !foreign) return undefined;
    return [{ path: "lines", message: `${foreign.variantId.slice(0, 200)} is counted by another stock shard` }];
  }

  /** Whether the store-wide object holds any stock row (its tables appear with the first). */
  #countsAny(): boolean {
    return this.#hasTables() && this.ctx.storage.sql.exec("SELECT 1 FROM stock LIMIT 1").toArray().length > 0;
  }

  /** These variants' published states (only shards publish per variant); empty for the store-wide object. */
  #states(variantIds: readonly string[]): PublishedStates {
    const sql = this.ctx.storage.sql;
    return new Map(this.#shard ? [...new Set(variantIds)].map((v) => [v, variantState(sql, v)] as const) : []);
  }

  /** The variants whose published state moved since `before` (#states). */
  #changed(before: PublishedStates): string[] {
    const sql = this.ctx.storage.sql;
    return [...before].filter(([v, state]) => stateChanged(state, variantState(sql, v))).map(([v]) => v);
  }

  /** The store-wide object rewrites its document; a shard writes the keys of variants whose state moved. */
  async #publish(changed: readonly string[]): Promise<void> {
    if (this.#availability instanceof ShardPublisher) {
      if (changed.length > 0 || this.#availability.pending) await this.#availability.publish(changed);
      // A key whose write failed is written again soon, even if nothing else changes here.
      if (this.#availability.pending) await this.#arm();
    } else await this.#availability.publish();
  }

  /** Units of a reservation back, to levels still counted from the load they were taken from. */
  #giveBack(lines: readonly RecordedLine[]): void {
    for (const line of lines) {
      if (line.version === null) continue;
      this.ctx.storage.sql.exec(
        "UPDATE stock SET level = level + ? WHERE variant_id = ? AND catalog_version = ? AND level IS NOT NULL",
        line.quantity,
        line.variantId,
        line.version,
      );
    }
  }

  /** Whether the tables exist (shared/schema.ts remembers it). */
  #hasTables(): boolean {
    return hasTable(this.ctx.storage.sql, "stock");
  }

  #reservation(id: string): Reservation | undefined {
    const row = this.ctx.storage.sql
      .exec<{ lines_json: string; state: string }>("SELECT lines_json, state FROM reservations WHERE id = ?", id)
      .toArray()[0];
    if (!row) return undefined;
    return {
      lines: JSON.parse(row.lines_json) as RecordedLine[],
      state: row.state === "released" ? "released" : "held",
    };
  }

  /** Stored rows for these variants, in one query (json_each: no bound-parameter limit). */
  #rows(variantIds: readonly string[]): Map<string, StockRow> {
    const rows = this.ctx.storage.sql.exec<{ variant_id: string; catalog_version: string; level: number | null }>(
      "SELECT variant_id, catalog_version, level FROM stock WHERE variant_id IN (SELECT value FROM json_each(?))",
      JSON.stringify(variantIds),
    );
    const out = new Map<string, StockRow>();
    for (const r of rows)
      out.set(r.variant_id, { variantId: r.variant_id, version: r.catalog_version, level: r.level });
    return out;
  }

  /** One alarm, at the earliest of the oldest released record's and ledger entry's deadlines; none when neither. */
  async #arm(): Promise<void> {
    const sql = this.ctx.storage.sql;
    const row = sql
      .exec<{ oldest: number | null }>("SELECT MIN(released_at) AS oldest FROM reservations WHERE state = 'released'")
      .one();
    const retry = this.#availability instanceof ShardPublisher && this.#availability.pending;
    const deadlines = [
      row.oldest === null ? undefined : row.oldest + RESERVATION_KEEP_MS,
      hasTable(sql, "ledger") ? ledgerDeadline(sql) : undefined,
      retry ? Date.now() + PUBLISH_RETRY_MS : undefined,
    ].filter((d): d is number => d !== undefined);
    // Past deadlines mean "now": setAlarm refuses times <= 0.
    if (deadlines.length === 0) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Math.max(Math.min(...deadlines), Date.now()));
  }
}

/** What a restock records in the ledger and replays: the first answer, without `replayed`. */
type RestockAnswer = Omit<Extract<RestockOutcome, { ok: true }>, "replayed">;

/** An RPC argument is only typed at the caller: check the ledger entry's shape before it keys storage. */
function isLedgerEntry(value: unknown): value is IdempotencyInput {
  const entry = value as Partial<IdempotencyInput> | null;
  return (
    typeof entry === "object" &&
    entry !== null &&
    typeof entry.key === "string" &&
    entry.key.length > 0 &&
    entry.key.length <= 300 &&
    typeof entry.hash === "string" &&
    entry.hash.length <= 128
  );
}

/** The stored rows, with a shard's starts from the store-wide object standing in where it holds no row yet. */
function withStarts(stored: Map<string, StockRow>, starts: ReadonlyMap<string, LegacyStart>): Map<string, StockRow> {
  const counted = new Map(stored);
  for (const [variantId, start] of starts)
    if (!counted.has(variantId)) counted.set(variantId, { variantId, version: start.version, level: start.level });
  return counted;
}
