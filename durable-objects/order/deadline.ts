/**
 * The order object's single alarm time in one statement: the earliest of the outbox's and the
 * effects' next tries, the ledger's first expiry, the head webhook's next try and the index
 * feed's. Each term is the same rule as its table's own `…Deadline` function (outbox.ts,
 * settlement.ts, idempotency.ts, webhooks.ts, index-feed.ts); one query instead of five,
 * because the order re-arms after every change. A new order has only some of the tables
 * (order-object.ts, CREATION_TABLES): `has` leaves the others' terms out.
 */
import { LEDGER_KEEP_MS } from "../shared/idempotency";

const TERMS: ReadonlyArray<readonly [table: string, term: string]> = [
  ["outbox", "SELECT MIN(next_attempt_at) FROM outbox"],
  ["effects", "SELECT MIN(next_attempt_at) FROM effects"],
  ["ledger", `SELECT MIN(created_at) + ${LEDGER_KEEP_MS} FROM ledger`],
  [
    "webhooks",
    "SELECT next_attempt_at FROM webhooks WHERE delivered_at IS NULL AND failed_at IS NULL ORDER BY seq LIMIT 1",
  ],
  ["index_feed", "SELECT next_attempt_at FROM index_feed"],
];

const statements = new Map<string, string>();

/** `has`: whether a table exists (default: all do). */
export function orderDeadline(sql: SqlStorage, has: (table: string) => boolean = () => true): number | undefined {
  const terms = TERMS.filter(([table]) => has(table));
  if (terms.length === 0) return undefined;
  const key = terms.map(([table]) => table).join(",");
  let text = statements.get(key);
  if (text === undefined) {
    text = `SELECT MIN(at) AS next FROM (${terms.map(([, term]) => `SELECT (${term}) AS at`).join(" UNION ALL ")})`;
    statements.set(key, text);
  }
  return sql.exec<{ next: number | null }>(text).one().next ?? undefined;
}
