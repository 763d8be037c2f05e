/**
 * The order's feed to the store's order index: one row holding the order's latest index
 * entry and its version, written in the same transaction as every change the entry shows
 * (creation, fulfillment, adjustments and their settlement, webhook outcomes). Sending is
 * at-least-once: the entry goes out after the transaction and again from the alarm until
 * the index took that version; the index keeps the highest version, so repeats and
 * reordering are harmless. It never gives up: a lost entry would be a wrong list.
 */

import { nextAttemptAt, type RetryPolicy } from "../../src/lib/retry";
import type { OrderIndexEntry } from "../../src/order/index-entry";

export const INDEX_FEED_SCHEMA = `CREATE TABLE IF NOT EXISTS index_feed (
  slot INTEGER PRIMARY KEY CHECK (slot = 1),
  version INTEGER NOT NULL,
  entry TEXT NOT NULL,
  sent_version INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER
)`;

const FEED_RETRY: RetryPolicy = { firstDelayMs: 10_000, maxDelayMs: 3600_000, maxAttempts: Number.POSITIVE_INFINITY };

type FeedRow = {
  version: number;
  entry: string;
  sent_version: number;
  attempts: number;
  next_attempt_at: number | null;
};

const row = (sql: SqlStorage): FeedRow | undefined =>
  sql.exec<FeedRow>("SELECT version, entry, sent_version, attempts, next_attempt_at FROM index_feed").toArray()[0];

/** Queues the entry as the next version, due now; nothing when it equals the last one. Inside the change's transaction. */
export function feedIndex(sql: SqlStorage, entry: OrderIndexEntry, now: number): void {
  const text = JSON.stringify(entry);
  const current = row(sql);
  if (current?.entry === text) return;
  sql.exec(
    `INSERT INTO index_feed (slot, version, entry, next_attempt_at) VALUES (1, 1, ?, ?)
     ON CONFLICT (slot) DO UPDATE SET version = version + 1, entry = excluded.entry, attempts = 0,
       next_attempt_at = excluded.next_attempt_at`,
    text,
    now,
  );
}

/** The latest entry and its version (what a rebuild pulls), if the order has fed one. */
export function fedEntry(sql: SqlStorage): { entry: OrderIndexEntry; version: number } | undefined {
  const current = row(sql);
  return current ? { entry: JSON.parse(current.entry) as OrderIndexEntry, version: current.version } : undefined;
}

/**
 * Sends the entry if due. The claim (next try pushed out by the backoff) is written before
 * the await, so an overlapping run skips it; a change during the await re-queues it at once.
 */
export async function sendIndexFeed(
  sql: SqlStorage,
  /** `logged`: an earlier version reached the index (so the id is in the log already). */
  send: (entry: OrderIndexEntry, version: number, logged: boolean) => Promise<void>,
  now: () => number,
): Promise<void> {
  for (let round = 0; round < 3; round++) {
    const current = row(sql);
    const started = now();
    if (!current || current.next_attempt_at === null || current.next_attempt_at > started) return;
    const attempt = current.attempts + 1;
    sql.exec(
      "UPDATE index_feed SET attempts = ?, next_attempt_at = ?",
      attempt,
      nextAttemptAt(attempt, started, FEED_RETRY),
    );
    try {
      await send(JSON.parse(current.entry) as OrderIndexEntry, current.version, current.sent_version > 0);
    } catch (e) {
      console.error("order index feed failed", e instanceof Error ? e.message : e);
      return;
    }
    sql.exec(
      `UPDATE index_feed SET sent_version = MAX(sent_version, ?1), attempts = CASE WHEN version = ?1 THEN 0 ELSE attempts END,
         next_attempt_at = CASE WHEN version = ?1 THEN NULL ELSE next_attempt_at END`,
      current.version,
    );
  }
}

export function indexFeedDeadline(sql: SqlStorage): number | undefined {
  return row(sql)?.next_attempt_at ?? undefined;
}

/** Failed delivery attempts of the order's webhooks (no answer, or not 2xx), for its entry. */
export function webhookFailures(sql: SqlStorage): { failures: number; lastFailureAt: number | null } {
  const r = sql
    .exec<{ failures: number; last: number | null }>(
      "SELECT COUNT(*) AS failures, MAX(at) AS last FROM webhook_deliveries WHERE status IS NULL OR status < 200 OR status > 299",
    )
    .one();
  return { failures: r.failures, lastFailureAt: r.last };
}
