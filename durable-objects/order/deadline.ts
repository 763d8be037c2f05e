/**
 * The order object's single alarm time: the earliest of the outbox's and the effects' next
 * tries, the head webhook's next try and the index feed's in one statement, each term the
 * same rule as its table's own `…Deadline` function (outbox.ts, settlement.ts, webhooks.ts,
 * index-feed.ts), and the ledger's first expiry from shared/idempotency.ts (the one place
 * that spells the ledger's SQL). Two queries instead of five, one for a new order (no
 * ledger yet), because the order re-arms after every change. `has` leaves terms out: the
 * order's #arm leaves the ledger's to the kernel's arm, which reads it anyway.
 */
import { ledgerDeadline } from "../shared/idempotency";

const TERMS: ReadonlyArray<readonly [table: string, term: string]> = [
  ["outbox", "SELECT MIN(next_attempt_at) FROM outbox"],
  ["effects", "SELECT MIN(next_attempt_at) FROM effects"],
  ["captures", "SELECT MIN(next_attempt_at) FROM captures"],
  [
    "webhooks",
    "SELECT next_attempt_at FROM webhooks WHERE delivered_at IS NULL AND failed_at IS NULL ORDER BY seq LIMIT 1",
  ],
  ["index_feed", "SELECT next_attempt_at FROM index_feed"],
];

const statements = new Map<string, string>();

/** `has`: whether a table's term is wanted (default: all are). */
export function orderDeadline(sql: SqlStorage, has: (table: string) => boolean = () => true): number | undefined {
  const ledger = has("ledger") ? ledgerDeadline(sql) : undefined;
  const terms = TERMS.filter(([table]) => has(table));
  if (terms.length === 0) return ledger;
  const key = terms.map(([table]) => table).join(",");
  let text = statements.get(key);
  if (text === undefined) {
    text = `SELECT MIN(at) AS next FROM (${terms.map(([, term]) => `SELECT (${term}) AS at`).join(" UNION ALL ")})`;
    statements.set(key, text);
  }
  const next = sql.exec<{ next: number | null }>(text).one().next ?? undefined;
  return next === undefined || ledger === undefined ? (next ?? ledger) : Math.min(next, ledger);
}
