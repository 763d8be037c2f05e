/**
 * The order list's query as the console and the JSON admin API send it (status, date range,
 * search, keyset cursor), parsed once at the edge into a typed OrderListQuery. Pure.
 */
import { ORDER_STATUSES, type OrderStatus } from "./index-entry";

export const LIST_LIMIT_DEFAULT = 50;
const LIST_LIMIT_MAX = 200;
const DAY_MS = 86_400_000;

/** Where the previous page stopped: newest first, so the next page is strictly older. */
export interface ListCursor {
  readonly created_at: number;
  readonly id: string;
}

export interface OrderListQuery {
  readonly status?: OrderStatus;
  /** Inclusive lower bound on created_at, ms. */
  readonly from?: number;
  /** Exclusive upper bound on created_at, ms. */
  readonly to?: number;
  /** An order id (or its beginning, `ord_…`), a buyer email, or an email's beginning. */
  readonly search?: { kind: "id" | "email" | "email_prefix" | "number"; value: string };
  readonly cursor?: ListCursor;
  readonly limit: number;
}

export type QueryIssue = { path: string; message: string };

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function day(value: string | null, path: string, issues: QueryIssue[]): number | undefined {
  if (!value) return undefined;
  const ms = DATE.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(ms)) issues.push({ path, message: "a date as YYYY-MM-DD" });
  return Number.isNaN(ms) ? undefined : ms;
}

/** `status`, `from`/`to` (dates, UTC, `to` inclusive), `q`, `cursor`, `limit`; issues name each bad one. */
export function parseListQuery(params: URLSearchParams): { query: OrderListQuery } | { issues: QueryIssue[] } {
  const issues: QueryIssue[] = [];
  const status = params.get("status") || undefined;
  if (status && !(ORDER_STATUSES as readonly string[]).includes(status)) {
    issues.push({ path: "status", message: `one of ${ORDER_STATUSES.join(", ")}` });
  }
  const from = day(params.get("from"), "from", issues);
  const toDay = day(params.get("to"), "to", issues);
  const limitText = params.get("limit");
  const limit = limitText ? Number(limitText) : LIST_LIMIT_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > LIST_LIMIT_MAX) {
    issues.push({ path: "limit", message: `an integer from 1 to ${LIST_LIMIT_MAX}` });
  }
  const cursorText = params.get("cursor");
  const cursor = cursorText ? decodeCursor(cursorText) : undefined;
  if (cursorText && !cursor) issues.push({ path: "cursor", message: "a cursor from a previous page" });
  const q = (params.get("q") ?? "").trim();
  if (q.length > 320) issues.push({ path: "q", message: "at most 320 characters" });
  if (issues.length > 0) return { issues };
  return {
    query: {
      ...(status ? { status: status as OrderStatus } : {}),
      ...(from !== undefined ? { from } : {}),
      ...(toDay !== undefined ? { to: toDay + DAY_MS } : {}),
      ...(q ? { search: searchOf(q) } : {}),
      ...(cursor ? { cursor } : {}),
      limit,
    },
  };
}

function searchOf(q: string): NonNullable<OrderListQuery["search"]> {
  if (q.startsWith("ord_")) return { kind: "id", value: q };
  // "#1001" or "1001": the short order number people quote.
  if (/^#?\d{1,12}$/.test(q)) return { kind: "number", value: q.replace("#", "") };
  return { kind: q.includes("@") ? "email" : "email_prefix", value: q.toLowerCase() };
}

export function encodeCursor(cursor: ListCursor): string {
  return btoa(`${cursor.created_at}:${cursor.id}`).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

export function decodeCursor(text: string): ListCursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(text)) return undefined;
  let plain: string;
  try {
    plain = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    return undefined;
  }
  const match = /^(\d{1,16}):([A-Za-z0-9_-]{1,200})$/.exec(plain);
  return match?.[1] && match[2] ? { created_at: Number(match[1]), id: match[2] } : undefined;
}

/** One order in the list (the index row, without its lines). */
export interface OrderListRow {
  readonly id: string;
  /** null: an order placed before numbers. */
  readonly number: number | null;
  readonly created_at: number;
  readonly status: string;
  readonly total: number;
  readonly refunded: number;
  readonly currency: string;
  readonly buyer_email: string | null;
  readonly platform: string;
  readonly webhook_failures: number;
}

export interface OrderListPage {
  readonly orders: readonly OrderListRow[];
  /** Present when older orders follow: pass it back as `cursor`. */
  readonly next_cursor?: string;
}

/** Cuts the limit + 1 rows a list query fetched into the page and its next cursor. */
export function pageOf(rows: readonly OrderListRow[], limit: number): OrderListPage {
  const orders = rows.slice(0, limit);
  const last = orders.at(-1);
  return rows.length > limit && last ? { orders, next_cursor: encodeCursor(last) } : { orders };
}

/** The dashboard's figures over the last 30 days (and counts by status over all time). */
export interface OrderStats {
  readonly since: number;
  readonly per_day: ReadonlyArray<{ day: string; orders: number; revenue: number }>;
  readonly by_status: Readonly<Record<string, number>>;
  readonly top_products: ReadonlyArray<{ item_id: string; title: string; quantity: number; amount: number }>;
  readonly webhook_failures: {
    readonly orders: number;
    readonly attempts: number;
    readonly recent: ReadonlyArray<{
      id: string;
      created_at: number;
      platform: string;
      webhook_failures: number;
      last_webhook_failure_at: number;
    }>;
  };
}

export const STATS_DAYS = 30;

const DAY = 86_400_000;

/** The start of the UTC day `days - 1` days before `now`'s: a window of `days` whole days. */
export const statsSince = (now: number, days = STATS_DAYS) => (Math.floor(now / DAY) - (days - 1)) * DAY;

/** Every day of the window, zeros where no order was placed. */
export function fillDays(
  rows: ReadonlyArray<{ day: number; orders: number; revenue: number }>,
  since: number,
  days = STATS_DAYS,
): OrderStats["per_day"] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return Array.from({ length: days }, (_, i) => {
    const day = Math.floor(since / DAY) + i;
    const row = byDay.get(day);
    return {
      day: new Date(day * DAY).toISOString().slice(0, 10),
      orders: row?.orders ?? 0,
      revenue: row?.revenue ?? 0,
    };
  });
}
