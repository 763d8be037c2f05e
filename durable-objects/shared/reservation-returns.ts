/**
 * Units of a held reservation given back to stock before the whole of it is released: an
 * order's refund with restock (issue 26 item 1). Each return is one row, keyed by the
 * reservation and the caller's key (the order's effect id), kept as long as the object: a
 * repeat finds its row and returns nothing twice, and no variant gets back more than the
 * reservation took. release() gives back only what is left. SQL helpers for the
 * InventoryObject; called inside its transactions (its table is in inventory/layout.ts).
 */
import type { ReturnLine } from "../../src/catalog/stock-returns";
import type { RecordedLine } from "./inventory-plan";

export const RETURNS_SCHEMA = `CREATE TABLE IF NOT EXISTS reservation_returns (
  reservation_id TEXT NOT NULL,
  return_key TEXT NOT NULL,
  lines_json TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (reservation_id, return_key)
)`;

export type { ReturnLine, ReturnOutcome } from "../../src/catalog/stock-returns";

const MAX_LINES = 100;

/** The lines an RPC caller sent, checked (they are only typed at the caller). */
export function parseReturnLines(value: unknown): ReturnLine[] | undefined {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_LINES) return undefined;
  const lines: ReturnLine[] = [];
  for (const line of value as Array<Partial<ReturnLine> | null>) {
    if (typeof line?.variantId !== "string" || line.variantId.length === 0 || line.variantId.length > 256)
      return undefined;
    if (!Number.isSafeInteger(line.quantity) || (line.quantity ?? 0) < 1) return undefined;
    lines.push({ variantId: line.variantId, quantity: line.quantity as number });
  }
  return lines;
}

/** Units of each variant this reservation has given back so far. */
export function returnedUnits(sql: SqlStorage, reservationId: string): Map<string, number> {
  const units = new Map<string, number>();
  const rows = sql.exec<{ lines_json: string }>(
    "SELECT lines_json FROM reservation_returns WHERE reservation_id = ?",
    reservationId,
  );
  for (const row of rows) {
    for (const line of JSON.parse(row.lines_json) as ReturnLine[]) {
      units.set(line.variantId, (units.get(line.variantId) ?? 0) + line.quantity);
    }
  }
  return units;
}

/** A return made before under this key, if any. */
export function priorReturn(sql: SqlStorage, reservationId: string, key: string): ReturnLine[] | undefined {
  const row = sql
    .exec<{ lines_json: string }>(
      "SELECT lines_json FROM reservation_returns WHERE reservation_id = ? AND return_key = ?",
      reservationId,
      key,
    )
    .toArray()[0];
  return row ? (JSON.parse(row.lines_json) as ReturnLine[]) : undefined;
}

/**
 * What a return may give back: each asked line capped at what the reservation took of that
 * variant less what earlier returns gave; lines of variants it never took give nothing. The
 * recorded line carries the load its units were counted from (for #giveBack).
 */
export function planReturn(
  recorded: readonly RecordedLine[],
  asked: readonly ReturnLine[],
  returned: ReadonlyMap<string, number>,
): RecordedLine[] {
  const left = new Map(recorded.map((l) => [l.variantId, l.quantity - (returned.get(l.variantId) ?? 0)]));
  const out: RecordedLine[] = [];
  for (const line of asked) {
    const available = left.get(line.variantId) ?? 0;
    const quantity = Math.min(available, line.quantity);
    if (quantity <= 0) continue;
    left.set(line.variantId, available - quantity);
    const version = recorded.find((r) => r.variantId === line.variantId)?.version ?? null;
    out.push({ variantId: line.variantId, quantity, version });
  }
  return out;
}

export function recordReturn(
  sql: SqlStorage,
  reservationId: string,
  key: string,
  lines: readonly ReturnLine[],
  now: number,
): void {
  sql.exec(
    "INSERT INTO reservation_returns (reservation_id, return_key, lines_json, created_at) VALUES (?, ?, ?, ?)",
    reservationId,
    key,
    JSON.stringify(lines.map((l) => ({ variantId: l.variantId, quantity: l.quantity }))),
    now,
  );
}

/** A reservation's lines less what its returns gave back: what release() still owes. */
export function leftToRelease(
  recorded: readonly RecordedLine[],
  returned: ReadonlyMap<string, number>,
): RecordedLine[] {
  return recorded
    .map((l) => ({ ...l, quantity: l.quantity - (returned.get(l.variantId) ?? 0) }))
    .filter((l) => l.quantity > 0);
}
