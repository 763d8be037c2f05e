/**
 * What a stock reservation is and how its input is checked: shared by the InventoryObject,
 * which checks every RPC argument again, and the Worker's shard coordinator (stock-shards.ts),
 * which must refuse a bad request before it splits it across objects. Pure.
 */
import { err, ok, type Result } from "../lib/result";
import { type InputIssue, MAX_QUANTITY } from "./stock-change";

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

export interface ReserveRequest {
  readonly reservationId: string;
  /** One line per variant (quantities summed), sorted by variant id. */
  readonly lines: readonly ReserveLine[];
  readonly levels: ReadonlyMap<string, StockLevel>;
  readonly catalogVersion: string;
}

// A load's version starts with its Date#toISOString() (fixed width), so string order is load order.
export const VERSION_FORM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/;

export const isId = (v: unknown): v is string => typeof v === "string" && v.length > 0 && v.length <= MAX_ID_LENGTH;

/** reserve()'s answer to input parseReserve refused: the id as given, when it is a string. */
export function refusedReserve(reservationId: unknown, issues: InputIssue[]): ReserveOutcome {
  const id = typeof reservationId === "string" ? reservationId : "";
  return { ok: false, reservationId: id, reason: "invalid_input", issues };
}

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
