/**
 * A merchant's stock: one object per deployment (`getByName(INVENTORY_NAME)`), so a
 * multi-line order reserves atomically. Every change is one synchronous transaction with no
 * `await` inside; levels come from the Worker (read from KV), never from KV here. Outcomes are
 * values, never thrown. Tables appear on the first successful reservation (docs/inventory.md).
 */
import { DurableObject } from "cloudflare:workers";
import { AvailabilityPublisher } from "./shared/availability-publisher";
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
  parseReserve,
  parseRestock,
  planReservation,
  RESERVATION_KEEP_MS,
  type RecordedLine,
  type ReleaseOutcome,
  type ReserveLine,
  type ReserveOutcome,
  type RestockOutcome,
  restockedLevel,
  type StockChange,
  type StockLevel,
  type StockRow,
  sameLines,
} from "./shared/inventory-plan";
import { ensureTables, hasTable } from "./shared/schema";

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

interface Reservation {
  readonly lines: RecordedLine[];
  readonly state: "held" | "released";
}

export class InventoryObject extends DurableObject<Env> {
  /** Whether the tables exist: a cache of what SQLite says (nothing here ever drops them). */
  #ready = false;
  /** Sell-outs and restocks, published to KV for search (shared/availability-publisher.ts). */
  readonly #availability = new AvailabilityPublisher(this.ctx.storage.sql, this.env.CATALOG);

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
    if (!parsed.ok) {
      const id = typeof reservationId === "string" ? reservationId : "";
      return { ok: false, reservationId: id, reason: "invalid_input", issues: parsed.error };
    }
    const request = parsed.value;
    const id = request.reservationId;
    const now = Date.now();
    const sql = this.ctx.storage.sql;
    const outcome = this.ctx.storage.transactionSync((): ReserveOutcome => {
      const ready = this.#hasTables();
      const prior = ready ? this.#reservation(id) : undefined;
      if (prior) {
        if (!sameLines(prior.lines, request.lines)) return { ok: false, reservationId: id, reason: "conflict" };
        return { ok: true, reservationId: id, replayed: true };
      }
      const stored = ready ? this.#rows(request.lines.map((l) => l.variantId)) : new Map<string, StockRow>();
      const plan = planReservation(request, stored);
      if (!plan.ok) return { ok: false, reservationId: id, reason: "out_of_stock", short: plan.short };
      if (!ready) ensureTables(sql, SCHEMA);
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
      return { ok: true, reservationId: id, replayed: false };
    });
    // Set only once the transaction committed: a rolled-back one leaves no tables.
    if (outcome.ok) this.#ready = true;
    if (outcome.ok && !outcome.replayed) await this.#availability.publish();
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
    const outcome = this.ctx.storage.transactionSync((): ReleaseOutcome => {
      const prior = this.#reservation(reservationId);
      if (!prior) return { released: false, reason: "not_found" };
      if (prior.state === "released") return { released: false, reason: "already_released" };
      for (const line of prior.lines) {
        if (line.version === null) continue;
        sql.exec(
          "UPDATE stock SET level = level + ? WHERE variant_id = ? AND catalog_version = ? AND level IS NOT NULL",
          line.quantity,
          line.variantId,
          line.version,
        );
      }
      sql.exec("UPDATE reservations SET state = 'released', released_at = ? WHERE id = ?", now, reservationId);
      return { released: true };
    });
    if (outcome.released) {
      await this.#arm();
      await this.#availability.publish();
    }
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
  ): Promise<{ levels: Record<string, StockLevel>; restocked: string[] }> {
    if (!Array.isArray(variantIds) || typeof catalogVersion !== "string") return { levels: {}, restocked: [] };
    const ids = variantIds.filter((v): v is string => typeof v === "string").slice(0, 1000);
    const given = typeof catalogLevels === "object" && catalogLevels !== null ? catalogLevels : {};
    const rows = this.#hasTables() ? this.#rows(ids) : new Map<string, StockRow>();
    const restocked = this.#hasTables() ? this.#availability.restocked(ids) : new Set<string>();
    const levels: Array<[string, StockLevel]> = [];
    const shown: string[] = [];
    for (const id of ids) {
      const catalogLevel = Object.hasOwn(given, id) ? given[id] : undefined;
      const row = rows.get(id);
      const now = effectiveLevel(row, catalogLevel, catalogVersion);
      if (now.level === null && catalogLevel === undefined) continue;
      levels.push([id, now.level]);
      if (row && now.version === row.version && restocked.has(id)) shown.push(id);
    }
    return { levels: Object.fromEntries(levels), restocked: shown };
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
    const request = parsed.value;
    const sql = this.ctx.storage.sql;
    const now = Date.now();
    const outcome = this.ctx.storage.transactionSync((): RestockOutcome => {
      // Always: a store whose tables predate `restocks` or `ledger` gets them here (IF NOT EXISTS).
      ensureTables(sql, RESTOCK_SCHEMA);
      this.#ready = true;
      const prior = priorAnswer(sql, idempotency, now);
      if (prior?.kind === "conflict") return { ok: false, reason: "conflict" };
      if (prior) return { ...(JSON.parse(prior.body) as RestockAnswer), replayed: true };
      const row = this.#rows([request.variantId]).get(request.variantId);
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
      if (idempotency) recordLedger(sql, idempotency, JSON.stringify(answer), now);
      return { ...answer, replayed: false };
    });
    if (outcome.ok && !outcome.replayed) {
      if (idempotency) await this.#arm();
      await this.#availability.publish();
    }
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
    const sql = this.ctx.storage.sql;
    const now = Date.now();
    sql.exec("DELETE FROM reservations WHERE state = 'released' AND released_at <= ?", now - RESERVATION_KEEP_MS);
    if (hasTable(sql, "ledger")) pruneLedger(sql, now);
    await this.#arm();
  }

  #hasTables(): boolean {
    this.#ready ||= hasTable(this.ctx.storage.sql, "stock");
    return this.#ready;
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
    const deadlines = [
      row.oldest === null ? undefined : row.oldest + RESERVATION_KEEP_MS,
      hasTable(sql, "ledger") ? ledgerDeadline(sql) : undefined,
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
