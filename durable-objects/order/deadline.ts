/**
 * The order object's single alarm time in one statement: the earliest of the outbox's and the
 * effects' next tries, the ledger's first expiry, the head webhook's next try and the index
 * feed's. Each term is the same rule as its table's own `…Deadline` function (outbox.ts,
 * settlement.ts, idempotency.ts, webhooks.ts, index-feed.ts); one query instead of five,
 * because the order re-arms after every change. Needs every table (the callers ensure them).
 */
import { LEDGER_KEEP_MS } from "../shared/idempotency";

const NEXT = `SELECT MIN(at) AS next FROM (
  SELECT (SELECT MIN(next_attempt_at) FROM outbox) AS at
  UNION ALL SELECT (SELECT MIN(next_attempt_at) FROM effects)
  UNION ALL SELECT (SELECT MIN(created_at) FROM ledger) + ?
  UNION ALL SELECT (SELECT next_attempt_at FROM webhooks WHERE delivered_at IS NULL AND failed_at IS NULL ORDER BY seq LIMIT 1)
  UNION ALL SELECT (SELECT next_attempt_at FROM index_feed)
)`;

export function orderDeadline(sql: SqlStorage): number | undefined {
  return sql.exec<{ next: number | null }>(NEXT, LEDGER_KEEP_MS).one().next ?? undefined;
}
