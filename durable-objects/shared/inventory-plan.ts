/**
 * Pure inventory rules for InventoryObject: input validation, catalog-version order and the
 * all-or-nothing reservation plan. No storage and no clock here; the object reads the rows,
 * asks for a plan and writes what the plan says, in one transaction (docs/inventory.md).
 */
import {
  type InputIssue,
  isUnits,
  MAX_QUANTITY,
  parseStockChange,
  type StockChange,
} from "../../src/catalog/stock-change";
import { INVENTORY_NAME, STOCK_SHARD_PREFIX, stockShardName, stockVersion } from "../../src/catalog/stock-keys";
import {
  isId,
  MAX_ID_LENGTH,
  MAX_LINES,
  parseReserve,
  type ReleaseOutcome,
  type ReserveLine,
  type ReserveOutcome,
  type ReserveRequest,
  refusedReserve,
  type ShortLine,
  type StockLevel,
  VERSION_FORM,
} from "../../src/catalog/stock-reserve";
import { err, ok, type Result } from "../../src/lib/result";

export type {
  InputIssue,
  ReleaseOutcome,
  ReserveLine,
  ReserveOutcome,
  ReserveRequest,
  ShortLine,
  StockChange,
  StockLevel,
};
// Shared with the Worker, which parses a restock and a reservation and addresses the objects the same way.
export {
  INVENTORY_NAME,
  MAX_ID_LENGTH,
  MAX_LINES,
  MAX_QUANTITY,
  parseReserve,
  parseStockChange,
  refusedReserve,
  STOCK_SHARD_PREFIX,
  stockShardName,
  stockVersion,
};

/** Reservation records are the orders' idempotency ledger: released ones go 30 days after release. */
export const RESERVATION_KEEP_MS = 30 * 24 * 3600_000;

export interface StockRow {
  readonly variantId: string;
  /** The catalog version the level was last restated from. */
  readonly version: string;
  readonly level: StockLevel;
}

/** A reserved line as recorded: `version` is the load its units came from, null when untracked. */
export interface RecordedLine {
  readonly variantId: string;
  readonly quantity: number;
  readonly version: string | null;
}

export type ReservePlan = { ok: true; rows: StockRow[]; recorded: RecordedLine[] } | { ok: false; short: ShortLine[] };

/**
 * Every line or none. A variant's level is the stored one unless the request's catalog is a
 * later load than the one that level came from (or the variant is new): then the load restates
 * it. An earlier load (a Worker still reading the previous catalog) never overrides a later one.
 */
export function planReservation(request: ReserveRequest, stored: ReadonlyMap<string, StockRow>): ReservePlan {
  const rows: StockRow[] = [];
  const recorded: RecordedLine[] = [];
  const short: ShortLine[] = [];
  for (const { variantId, quantity } of request.lines) {
    const row = stored.get(variantId);
    const base =
      row && row.version >= request.catalogVersion
        ? row
        : { variantId, version: request.catalogVersion, level: request.levels.get(variantId) ?? null };
    if (base.level === null) {
      rows.push(base);
      recorded.push({ variantId, quantity, version: null });
    } else if (base.level < quantity) {
      short.push({ variantId, requested: quantity, available: base.level });
    } else {
      rows.push({ ...base, level: base.level - quantity });
      recorded.push({ variantId, quantity, version: base.version });
    }
  }
  return short.length > 0 ? { ok: false, short } : { ok: true, rows, recorded };
}

/** Whether a repeated reservation asks for what was recorded (same variants, same totals). */
export function sameLines(recorded: readonly RecordedLine[], lines: readonly ReserveLine[]): boolean {
  const key = (ls: readonly ReserveLine[]) => JSON.stringify(ls.map((l) => [l.variantId, l.quantity]));
  return key(recorded) === key(lines);
}

/**
 * The level a reservation would start from now, without reserving: the stored count unless a
 * later load restated it (the rule of planReservation). Carts and checkouts price with it.
 */
export function effectiveLevel(
  row: StockRow | undefined,
  catalogLevel: StockLevel | undefined,
  catalogVersion: string,
): { level: StockLevel; version: string } {
  if (row && row.version >= catalogVersion) return { level: row.level, version: row.version };
  return { level: catalogLevel ?? null, version: catalogVersion };
}

/** `replayed`: a repeated idempotency key, answered from the ledger; nothing changed. */
export type RestockOutcome =
  | { ok: true; variantId: string; level: number; version: string; replayed: boolean }
  | { ok: false; reason: "invalid_input"; issues: InputIssue[] }
  /** The idempotency key was already used for another variant or change: nothing changed. */
  | { ok: false; reason: "conflict" };

/** Checks a restock request; the admin route has already validated the JSON, bugs arrive as values too. */
export function parseRestock(
  variantId: unknown,
  change: unknown,
  catalogLevel: unknown,
  catalogVersion: unknown,
): Result<{ variantId: string; change: StockChange; catalogLevel: StockLevel; catalogVersion: string }, InputIssue[]> {
  const issues: InputIssue[] = [];
  if (!isId(variantId))
    issues.push({ path: "variantId", message: `must be a string of 1 to ${MAX_ID_LENGTH} characters` });
  if (typeof catalogVersion !== "string" || catalogVersion.length > 128 || !VERSION_FORM.test(catalogVersion))
    issues.push({
      path: "catalogVersion",
      message: "must start with the load's ISO time, e.g. stockVersion(manifest)",
    });
  if (!(catalogLevel === null || isUnits(catalogLevel)))
    issues.push({ path: "catalogLevel", message: "must be a non-negative integer or null" });
  const parsed = parseStockChange(change);
  if (!parsed.ok) issues.push(...parsed.error);
  if (issues.length > 0 || !parsed.ok) return err(issues);
  return ok({
    variantId: variantId as string,
    change: parsed.value,
    catalogLevel: catalogLevel as StockLevel,
    catalogVersion: catalogVersion as string,
  });
}

/** The level after a restock: never below zero (units held by reservations are already gone). */
export function restockedLevel(base: StockLevel, change: StockChange): number {
  if ("set" in change) return change.set;
  return Math.max(0, (base ?? 0) + change.add);
}
