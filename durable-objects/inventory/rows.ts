/**
 * The inventory object's rows, read and written inside its store's read or transaction
 * (inventory/layout.ts: every table is there, so nothing here asks whether one exists).
 */
import { RESERVATION_KEEP_MS, type RecordedLine, type StockRow } from "../shared/inventory-plan";
import type { LegacyStart } from "../shared/stock-shard";

export interface Reservation {
  readonly lines: RecordedLine[];
  readonly state: "held" | "released";
}

export function readReservation(sql: SqlStorage, id: string): Reservation | undefined {
  const row = sql
    .exec<{ lines_json: string; state: string }>("SELECT lines_json, state FROM reservations WHERE id = ?", id)
    .toArray()[0];
  if (!row) return undefined;
  return { lines: JSON.parse(row.lines_json) as RecordedLine[], state: row.state === "released" ? "released" : "held" };
}

/** Stored rows for these variants, in one query (json_each: no bound-parameter limit). */
export function stockRows(sql: SqlStorage, variantIds: readonly string[]): Map<string, StockRow> {
  const rows = sql.exec<{ variant_id: string; catalog_version: string; level: number | null }>(
    "SELECT variant_id, catalog_version, level FROM stock WHERE variant_id IN (SELECT value FROM json_each(?))",
    JSON.stringify(variantIds),
  );
  const out = new Map<string, StockRow>();
  for (const r of rows) out.set(r.variant_id, { variantId: r.variant_id, version: r.catalog_version, level: r.level });
  return out;
}

/** The stored rows, with a shard's starts from the store-wide object standing in where it holds no row yet. */
export function withStarts(
  stored: Map<string, StockRow>,
  starts: ReadonlyMap<string, LegacyStart>,
): Map<string, StockRow> {
  const counted = new Map(stored);
  for (const [variantId, start] of starts)
    if (!counted.has(variantId)) counted.set(variantId, { variantId, version: start.version, level: start.level });
  return counted;
}

export function writeStock(sql: SqlStorage, row: StockRow): void {
  sql.exec(
    `INSERT INTO stock (variant_id, catalog_version, level) VALUES (?, ?, ?)
     ON CONFLICT (variant_id) DO UPDATE SET catalog_version = excluded.catalog_version, level = excluded.level`,
    row.variantId,
    row.version,
    row.level,
  );
}

/** Units of a reservation back, to levels still counted from the load they were taken from. */
export function giveBack(sql: SqlStorage, lines: readonly RecordedLine[]): void {
  for (const line of lines) {
    if (line.version === null) continue;
    sql.exec(
      "UPDATE stock SET level = level + ? WHERE variant_id = ? AND catalog_version = ? AND level IS NOT NULL",
      line.quantity,
      line.variantId,
      line.version,
    );
  }
}

/** When the oldest released reservation may be forgotten, if there is one. */
export function releasedDeadline(sql: SqlStorage): number | undefined {
  const row = sql
    .exec<{ oldest: number | null }>("SELECT MIN(released_at) AS oldest FROM reservations WHERE state = 'released'")
    .one();
  return row.oldest === null ? undefined : row.oldest + RESERVATION_KEEP_MS;
}

/** Forgets released reservations past their retention (a repeat finds nothing). */
export function pruneReleased(sql: SqlStorage, now: number): void {
  sql.exec("DELETE FROM reservations WHERE state = 'released' AND released_at <= ?", now - RESERVATION_KEEP_MS);
}
