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
import { INVENTORY_NAME, stockVersion } from "../../src/catalog/stock-keys";
import { err, ok, type Result } from "../../src/lib/result";

export type { InputIssue, StockChange };
// Shared with the Worker, which parses a restock and addresses the object the same way.
export { INVENTORY_NAME, MAX_QUANTITY, parseStockChange, stockVersion };

/** null = not tracked (backorder, preorder, unlimited): never blocks, never decrements. */
export type StockLevel = number | null;

export interface ReserveLine {
  readonly variantId: string;
  readonly quantity: number;
}

export interface ShortLine {
  readonly variantId: string;
  readonly requested: number;
  readonly available: number;
}

export type ReserveOutcome =
  | { ok: true; reservationId: string; replayed: boolean }
  | { ok: false; reservationId: string; reason: "out_of_stock"; short: ShortLine[] }
  | { ok: false; reservationId: string; reason: "invalid_input"; issues: InputIssue[] }
  /** The id was already used for other lines: nothing changed. */
  | { ok: false; reservationId: string; reason: "conflict" };

export type ReleaseOutcome = { released: true } | { released: false; reason: "not_found" | "already_released" };

export const MAX_LINES = 100;
export const MAX_ID_LENGTH = 256;
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

export interface ReserveRequest {
  readonly reservationId: string;
  /** One line per variant (quantities summed), sorted by variant id. */
  readonly lines: readonly ReserveLine[];
  readonly levels: ReadonlyMap<string, StockLevel>;
  readonly catalogVersion: string;
}

// A load's version starts with its Date#toISOString() (fixed width), so string order is load order.
const VERSION_FORM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/;

const isId = (v: unknown): v is string => typeof v === "string" && v.length > 0 && v.length <= MAX_ID_LENGTH;

/** Checks everything reserve() is given; RPC callers are typed, but bugs arrive as values too. */
export function parseReserve(
  reservationId: unknown,
  lines: unknown,
  levels: unknown,
  catalogVersion: unknown,
): Result<ReserveRequest, InputIssue[]> {
  const issues: InputIssue[] = [];
  const issue = (path: string, message: string) => issues.push({ path, message });
  if (!isId(reservationId)) issue("reservationId", `must be a string of 1 to ${MAX_ID_LENGTH} characters`);
  if (typeof catalogVersion !== "string" || catalogVersion.length > 128 || !VERSION_FORM.test(catalogVersion))
    issue("catalogVersion", "must start with the load's ISO time, e.g. stockVersion(manifest)");
  const levelMap = typeof levels === "object" && levels !== null && !Array.isArray(levels) ? levels : undefined;
  if (!levelMap) issue("levels", "must be an object of variant id to level");
  if (!Array.isArray(lines) || lines.length === 0 || lines.length > MAX_LINES) {
    issue("lines", `must hold 1 to ${MAX_LINES} lines`);
    return err(issues);
  }
  const summed = new Map<string, number>();
  const known = new Map<string, StockLevel>();
  for (const [i, line] of (lines as unknown[]).entries()) {
    const { variantId, quantity } = (typeof line === "object" && line !== null ? line : {}) as Record<string, unknown>;
    if (!isId(variantId)) {
      issue(`lines[${i}].variantId`, `must be a string of 1 to ${MAX_ID_LENGTH} characters`);
      continue;
    }
    if (typeof quantity !== "number" || !Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY) {
      issue(`lines[${i}].quantity`, `must be an integer from 1 to ${MAX_QUANTITY}`);
      continue;
    }
    summed.set(variantId, (summed.get(variantId) ?? 0) + quantity);
    if (!levelMap || known.has(variantId)) continue;
    const level = Object.hasOwn(levelMap, variantId) ? (levelMap as Record<string, unknown>)[variantId] : undefined;
    if (level === null || (typeof level === "number" && Number.isSafeInteger(level) && level >= 0))
      known.set(variantId, level);
    else issue(`levels[${JSON.stringify(variantId)}]`, "must be a non-negative integer or null");
  }
  if (issues.length > 0) return err(issues);
  const merged = [...summed].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return ok({
    reservationId: reservationId as string,
    lines: merged.map(([variantId, quantity]) => ({ variantId, quantity })),
    levels: known,
    catalogVersion: catalogVersion as string,
  });
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
