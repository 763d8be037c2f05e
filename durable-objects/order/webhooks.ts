/**
 * Order webhooks to the placing platform (spec-digest §7.5), as a durable outbox in the
 * order's own SQLite: each event is a row written in the same transaction as the change it
 * announces, holding the exact body to send (the full order as of that event) and its
 * Webhook-Id, reused by every retry. The object's alarm delivers them one at a time in
 * event order: a later snapshot never overtakes an earlier one, and an event that exhausts
 * its retries stops blocking the ones behind it. Every attempt is logged.
 */

import type { RetryPolicy } from "../../src/lib/retry";
import type { AttemptResult, WebhookEvent, WebhookRow } from "../../src/order/webhook-row";
import { claim, finish, JOB_COLUMNS, type JobTable } from "./jobs";

export type { AttemptResult, WebhookEvent, WebhookRow };

export const WEBHOOKS_SCHEMA = `CREATE TABLE IF NOT EXISTS webhooks (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  event TEXT NOT NULL,
  url TEXT NOT NULL,
  body TEXT NOT NULL,
  occurred_at INTEGER NOT NULL,
  delivered_at INTEGER,
  ${JOB_COLUMNS}
)`;

export const DELIVERIES_SCHEMA = `CREATE TABLE IF NOT EXISTS webhook_deliveries (
  webhook_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  at INTEGER NOT NULL,
  status INTEGER,
  error TEXT,
  PRIMARY KEY (webhook_id, attempt)
)`;

export type DeliveryAttempt = {
  readonly attempt: number;
  readonly at: number;
  /** The receiver's HTTP status, absent when no response came. */
  readonly status: number | null;
  readonly error: string | null;
};

export type WebhookPost = (row: WebhookRow) => Promise<AttemptResult>;

/** Backoff from a first delay (WEBHOOK_RETRY_BASE_SECONDS, default 10 s) doubling to 1 h; 20 attempts, about 13 h. */
export function webhookRetry(baseSeconds: number): RetryPolicy {
  return { firstDelayMs: baseSeconds * 1000, maxDelayMs: 3600_000, maxAttempts: 20 };
}

const table = (retry: RetryPolicy): JobTable => ({ table: "webhooks", doneColumn: "delivered_at", retry });

/** Queues one event, due now. Call inside the transaction that made the change. */
export function enqueueWebhook(
  sql: SqlStorage,
  event: { event: WebhookEvent; url: string; body: string },
  now: number,
): string {
  const id = crypto.randomUUID();
  const seq = sql.exec<{ next: number }>("SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM webhooks").one().next;
  sql.exec(
    `INSERT INTO webhooks (id, seq, event, url, body, occurred_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    id,
    seq,
    event.event,
    event.url,
    event.body,
    now,
    now,
  );
  return id;
}

/** The oldest open event: the only one that may be sent now. */
function head(sql: SqlStorage): WebhookRow | undefined {
  return sql
    .exec<WebhookRow>("SELECT * FROM webhooks WHERE delivered_at IS NULL AND failed_at IS NULL ORDER BY seq LIMIT 1")
    .toArray()[0];
}

/**
 * Sends due events in order until one fails or none is due. Returns how many attempts failed
 * (the order's index entry counts them; none failed: the entry is unchanged).
 */
export async function deliverWebhooks(
  sql: SqlStorage,
  post: WebhookPost,
  retry: RetryPolicy,
  now: () => number,
): Promise<number> {
  const jobs = table(retry);
  for (let sent = 0; sent < 50; sent++) {
    const row = head(sql);
    if (!row || row.next_attempt_at === null || row.next_attempt_at > now()) return 0;
    const started = now();
    const attempt = claim(sql, jobs, row.id, started);
    if (attempt === undefined) return 0;
    let result: AttemptResult;
    try {
      result = await post(row);
    } catch (e) {
      result = { delivered: false, error: e instanceof Error ? e.message : String(e) };
    }
    sql.exec(
      "INSERT OR REPLACE INTO webhook_deliveries (webhook_id, attempt, at, status, error) VALUES (?, ?, ?, ?, ?)",
      row.id,
      attempt,
      started,
      result.status ?? null,
      result.error?.slice(0, 500) ?? null,
    );
    finish(sql, jobs, row.id, attempt, result.delivered, now());
    if (!result.delivered) return 1;
  }
  return 0;
}

/**
 * "Retry now" (merchant admin): every undelivered event is due at once, including ones that
 * had given up. Attempts keep counting, so the log keeps every earlier attempt.
 */
export function reopenWebhooks(sql: SqlStorage, now: number): number {
  return sql.exec("UPDATE webhooks SET next_attempt_at = ?, failed_at = NULL WHERE delivered_at IS NULL", now)
    .rowsWritten;
}

/** When the head event is next due (the object's alarm), or undefined when none is open. */
export function webhooksDeadline(sql: SqlStorage): number | undefined {
  return head(sql)?.next_attempt_at ?? undefined;
}

/** The delivery log: every event with its attempts, oldest first. */
export function webhookLog(sql: SqlStorage): Array<Omit<WebhookRow, "body"> & { deliveries: DeliveryAttempt[] }> {
  const rows = sql.exec<WebhookRow>("SELECT * FROM webhooks ORDER BY seq").toArray();
  return rows.map(({ body: _body, ...row }) => ({
    ...row,
    deliveries: sql
      .exec<DeliveryAttempt>(
        "SELECT attempt, at, status, error FROM webhook_deliveries WHERE webhook_id = ? ORDER BY attempt",
        row.id,
      )
      .toArray(),
  }));
}
