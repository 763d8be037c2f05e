/**
 * A merchant's stock. STOCK_SHARDS objects, `stock:<n>`, each counting the variants whose id
 * hashes to it (a shard; the Worker's coordinator, src/catalog/stock-shards.ts, spans a
 * multi-line reservation across them), and
 * the store-wide object of before (`INVENTORY_NAME`), which holds reservations made before the
 * split and the counts a shard starts from (shared/stock-shard.ts). Same class, same tables.
 * Every change is one synchronous transaction with no `await` inside; levels come from the
 * Worker (read from KV), never from KV here. Outcomes are values, never thrown. The layout is
 * the kernel's (shared/kernel.ts, inventory/layout.ts): its tables appear with the first
 * successful reservation or restock, reads write nothing, and the restock ledger and the alarm
 * are the kernel's (docs/inventory.md).
 */
import { DurableObject } from "cloudflare:workers";
import { type Track, trackedChange } from "./inventory/change";
import { INVENTORY_MIGRATIONS } from "./inventory/layout";
import { countedLevels, type LevelsAnswer } from "./inventory/levels";
import { MovedVariants } from "./inventory/moved";
import { isLedgerEntry, type RestockAnswer, restockEntry } from "./inventory/restock-ledger";
import {
  giveBack,
  pruneReleased,
  readReservation,
  releasedDeadline,
  stockRows,
  withStarts,
  writeStock,
} from "./inventory/rows";
import { AvailabilityPublisher, restockedAmong, ShardPublisher } from "./shared/availability-publisher";
import {
  effectiveLevel,
  INVENTORY_NAME,
  parseReserve,
  parseRestock,
  planReservation,
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
} from "./shared/inventory-plan";
import { type IdempotencyInput, ObjectStore } from "./shared/kernel";
import {
  leftToRelease,
  parseReturnLines,
  planReturn,
  priorReturn,
  type ReturnLine,
  type ReturnOutcome,
  recordReturn,
  returnedUnits,
} from "./shared/reservation-returns";
import { foreignLines, isStockShard, type LegacyStart, legacyStarts } from "./shared/stock-shard";

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

/** How soon a failed availability write is tried again (KV takes about one write per second per key). */
const PUBLISH_RETRY_MS = 2_000;

export class InventoryObject extends DurableObject<Env> {
  readonly #store = new ObjectStore(this.ctx.storage, INVENTORY_MIGRATIONS);
  /** Whether this object is a stock shard; otherwise the store-wide object (or a test's). */
  readonly #shard = isStockShard(this.ctx.id.name);
  /**
   * Whether the store-wide object said it counts nothing. Permanent (it takes no reservations
   * or restocks since the split), so this instance stops asking it for starts.
   */
  #legacyEmpty = false;
  /** Sell-outs and restocks, published to KV for search (shared/availability-publisher.ts). */
  readonly #availability = this.#shard
    ? new ShardPublisher(this.#store, this.env.CATALOG, this.env.CATALOG_DB)
    : new AvailabilityPublisher(this.#store, this.env.CATALOG);

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
    const request = parsed.value;
    const id = request.reservationId;
    const foreign = foreignLines(this.ctx.id.name, request.lines);
    if (foreign) return { ok: false, reservationId: id, reason: "invalid_input", issues: foreign };
    const variants = request.lines.map((l) => l.variantId);
    const starts = await this.#legacyStarts(variants, request.levels, request.catalogVersion);
    const now = Date.now();
    const { outcome, moved } = this.#change(
      (sql, track): ReserveOutcome => {
        const prior = readReservation(sql, id);
        if (prior) {
          if (!sameLines(prior.lines, request.lines)) return { ok: false, reservationId: id, reason: "conflict" };
          return { ok: true, reservationId: id, replayed: true };
        }
        const stored = stockRows(sql, variants);
        // A shard's first count of a variant: what the store-wide object has left, as the row it
        // holds, with the load that row counts from (a newer load than the request's keeps its
        // count; an older one is restated by the request's catalog level, as any stored row is).
        const plan = planReservation(request, withStarts(stored, starts));
        if (!plan.ok) return { ok: false, reservationId: id, reason: "out_of_stock", short: plan.short };
        track(variants);
        // A variant the store-wide object had restocked stays published as restocked.
        for (const [v, start] of starts)
          if (start.restocked && !stored.has(v))
            sql.exec("INSERT OR IGNORE INTO restocks (variant_id, restocked_at) VALUES (?, ?)", v, now);
        for (const row of plan.rows) writeStock(sql, row);
        sql.exec(
          "INSERT INTO reservations (id, lines_json, state, created_at) VALUES (?, ?, 'held', ?)",
          id,
          JSON.stringify(plan.recorded),
          now,
        );
        return { ok: true, reservationId: id, replayed: false };
      },
      (o) => o.ok,
    );
    if (outcome.ok && !outcome.replayed) await this.#publish(moved);
    return outcome;
  }

  /**
   * Returns a held reservation's units to stock, once. Units go back only to levels still
   * counted from the load they were taken from: a later load already restated that stock.
   */
  async release(reservationId: string): Promise<ReleaseOutcome> {
    if (typeof reservationId !== "string" || !this.#store.exists()) return { released: false, reason: "not_found" };
    const now = Date.now();
    const { outcome, moved } = this.#change((sql, track): ReleaseOutcome => {
      const prior = readReservation(sql, reservationId);
      if (!prior) return { released: false, reason: "not_found" };
      if (prior.state === "released") return { released: false, reason: "already_released" };
      track(prior.lines.map((l) => l.variantId));
      // Units an order's refund already restocked (returnUnits) are not given back again.
      giveBack(sql, leftToRelease(prior.lines, returnedUnits(sql, reservationId)));
      sql.exec("UPDATE reservations SET state = 'released', released_at = ? WHERE id = ?", now, reservationId);
      return { released: true };
    });
    // Search is told first: if setting the alarm then fails, the caller's retry finds the
    // reservation released and would otherwise never publish. The retry sets the alarm.
    if (outcome.released) await this.#publish(moved);
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
    if (!this.#store.exists()) return { returned: false, reason: "not_found" };
    const { outcome, moved } = this.#change((sql, track): ReturnOutcome => {
      const prior = readReservation(sql, reservationId);
      if (!prior) return { returned: false, reason: "not_found" };
      const again = priorReturn(sql, reservationId, key);
      if (again) return { returned: true, lines: again, replayed: true };
      if (prior.state === "released") return { returned: false, reason: "already_released" };
      const given = planReturn(prior.lines, asked, returnedUnits(sql, reservationId));
      track(given.map((l) => l.variantId));
      giveBack(sql, given);
      recordReturn(sql, reservationId, key, given, Date.now());
      return {
        returned: true,
        lines: given.map(({ variantId, quantity }) => ({ variantId, quantity })),
        replayed: false,
      };
    });
    if (outcome.returned && !outcome.replayed) await this.#publish(moved);
    return outcome;
  }

  /**
   * Undoes a reservation that failed elsewhere (another shard of the same multi-line
   * reservation was short): units back as release() would, and the id forgotten, so a retry of
   * the same id reserves afresh instead of replaying a hold that is gone. Only the coordinator
   * calls it, and only for an id that did not succeed as a whole.
   */
  async abandon(reservationId: string): Promise<{ abandoned: boolean }> {
    if (typeof reservationId !== "string" || !this.#store.exists()) return { abandoned: false };
    const { outcome, moved } = this.#change((sql, track) => {
      const prior = readReservation(sql, reservationId);
      if (!prior) return { abandoned: false };
      track(prior.lines.map((l) => l.variantId));
      if (prior.state === "held") giveBack(sql, prior.lines);
      sql.exec("DELETE FROM reservations WHERE id = ?", reservationId);
      return { abandoned: true };
    });
    if (outcome.abandoned) await this.#publish(moved);
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
  ): Promise<LevelsAnswer> {
    if (!Array.isArray(variantIds) || typeof catalogVersion !== "string") return { levels: {}, restocked: [] };
    const all = variantIds.filter((v): v is string => typeof v === "string").slice(0, 1000);
    const given = typeof catalogLevels === "object" && catalogLevels !== null ? catalogLevels : {};
    const legacy = this.ctx.id.name === INVENTORY_NAME;
    const nothing = { rows: new Map<string, StockRow>(), restocked: new Set<string>(), countsAny: false };
    const { rows, restocked, countsAny } = this.#store.read(nothing, (sql) => {
      const rows = stockRows(sql, all);
      // Whether the store-wide object holds any stock row: with none it tells shards to stop asking.
      const countsAny = rows.size > 0 || (legacy && sql.exec("SELECT 1 FROM stock LIMIT 1").toArray().length > 0);
      return { rows, restocked: restockedAmong(sql, [...rows.keys()]), countsAny };
    });
    // Variants a shard has not counted yet, while the store-wide object may still count them: the
    // coordinator asks it once for all such variants of a request (src/catalog/stock-shards.ts).
    const uncounted = this.#shard && !this.#legacyEmpty ? all.filter((v) => !rows.has(v)) : [];
    const ids = uncounted.length === 0 ? all : all.filter((v) => rows.has(v));
    const { versions, ...answer } = countedLevels(ids, rows, restocked, given, catalogVersion);
    if (uncounted.length > 0) return { ...answer, uncounted };
    if (!legacy) return answer;
    if (!countsAny) return { ...answer, counts: false };
    // The load each level counts from, so a shard starting from it keeps that load
    // (shared/stock-shard.ts): a newer load's count must not be restated by an older request.
    return { ...answer, versions };
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
    const v = request.variantId;
    const foreign = foreignLines(this.ctx.id.name, [{ variantId: v }]);
    if (foreign) return { ok: false, reason: "invalid_input", issues: foreign };
    // `add` on a variant the shard has not counted yet adds to what the store-wide object has left.
    const starts = await this.#legacyStarts([v], new Map([[v, request.catalogLevel]]), request.catalogVersion);
    const now = Date.now();
    const watch = new MovedVariants(this.#shard);
    let moved: string[] = [];
    // The kernel replays a repeated key's answer and records a fresh one (`fresh` tells them apart).
    const reply = this.#store.mutate({ now, idempotency: restockEntry(idempotency, v, this.#shard) }, (sql) => {
      watch.track(sql, [v]);
      const base = effectiveLevel(
        withStarts(stockRows(sql, [v]), starts).get(v),
        request.catalogLevel,
        request.catalogVersion,
      );
      const level = restockedLevel(base.level, request.change);
      writeStock(sql, { variantId: v, version: base.version, level });
      sql.exec("INSERT OR REPLACE INTO restocks (variant_id, restocked_at) VALUES (?, ?)", v, now);
      moved = watch.moved(sql);
      const answer: RestockAnswer = { ok: true, variantId: v, level, version: base.version };
      return { kind: "ok", body: JSON.stringify(answer), fresh: true } as const;
    });
    if (reply.kind !== "ok") return { ok: false, reason: "conflict" };
    const outcome: RestockOutcome = { ...(JSON.parse(reply.body) as RestockAnswer), replayed: !("fresh" in reply) };
    // As in release(): search first, then the alarm that prunes the ledger, which a replay
    // sets again in case the first call failed there after its commit.
    if (!outcome.replayed) await this.#publish(moved);
    if (idempotency) await this.#arm();
    return outcome;
  }

  /** Units available now: null = not tracked; variants never reserved are omitted. Writes nothing. */
  async available(variantIds: string[]): Promise<Record<string, StockLevel>> {
    if (!Array.isArray(variantIds)) return {};
    const ids = variantIds.filter((v): v is string => typeof v === "string");
    // fromEntries defines own properties, so an id such as "__proto__" stays data.
    return this.#store.read({}, (sql) =>
      Object.fromEntries([...stockRows(sql, ids).values()].map((r) => [r.variantId, r.level])),
    );
  }

  /** Alarms are at-least-once: deletes what is due (a repeat finds nothing), then re-arms. */
  override async alarm(): Promise<void> {
    if (!this.#store.exists()) return;
    await this.#publish([]);
    const now = Date.now();
    this.#store.transaction((sql) => pruneReleased(sql, now));
    this.#store.pruneLedger(now);
    await this.#arm();
  }

  /** One change, with the variants whose published state it moved (inventory/change.ts). */
  #change<T>(step: (sql: SqlStorage, track: Track) => T, kept?: (outcome: T) => boolean) {
    return trackedChange(this.#store, this.#shard, step, kept);
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
    const rows = this.#store.read(new Map<string, StockRow>(), (sql) => stockRows(sql, variantIds));
    const missing = [...new Set(variantIds)].filter((v) => !rows.has(v));
    if (missing.length === 0) return new Map();
    const answer = await legacyStarts(this.env, missing, levels, catalogVersion);
    if (!answer.counts) this.#legacyEmpty = true;
    return answer.starts;
  }

  /** The store-wide object rewrites its document; a shard writes the keys of variants whose state moved. */
  async #publish(moved: readonly string[]): Promise<void> {
    if (this.#availability instanceof ShardPublisher) {
      if (moved.length > 0 || this.#availability.pending) await this.#availability.publish(moved);
      // A key whose write failed is written again soon, even if nothing else changes here.
      if (this.#availability.pending) await this.#arm();
    } else await this.#availability.publish();
  }

  /** One alarm, at the earliest of the oldest released record's deadline, a publish retry and the ledger's expiry. */
  async #arm(): Promise<void> {
    const retry = this.#availability instanceof ShardPublisher && this.#availability.pending;
    const released = this.#store.read(undefined, releasedDeadline);
    await this.#store.arm([released, retry ? Date.now() + PUBLISH_RETRY_MS : undefined], "keep");
  }
}
