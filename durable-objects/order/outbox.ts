/**
 * The notification outbox: a message to the buyer is a row written in the same transaction
 * as the change it announces, and delivered later by the object's alarm through a
 * NotificationSender, with retries. A row marked sent is never sent again; a row the sender
 * calls permanently refused gets failed_at at once (a retry would be refused the same way).
 */
import type { NotificationMessage, NotificationSender, SendResult } from "../../src/notify/sender";
import { claim, dueJobs, finish, JOB_COLUMNS, type JobTable, jobsDeadline } from "./jobs";

const OUTBOX: JobTable = { table: "outbox", doneColumn: "sent_at" };

// `to` is an SQL keyword: the column is `recipient`, shown as `to` by outboxRows().
export const OUTBOX_SCHEMA = `CREATE TABLE IF NOT EXISTS outbox (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  recipient TEXT NOT NULL,
  order_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  sent_at INTEGER,
  ${JOB_COLUMNS}
)`;

export interface OutboxRow {
  readonly id: string;
  readonly kind: string;
  readonly to: string;
  readonly order_id: string;
  readonly created_at: number;
  readonly attempts: number;
  readonly sent_at: number | null;
  readonly failed_at: number | null;
  readonly next_attempt_at: number | null;
}

/** Queues one message; its id is per kind and order, so a repeat queues nothing. Due now. */
export function enqueue(sql: SqlStorage, message: { kind: string; to: string; orderId: string }, now: number): void {
  sql.exec(
    `INSERT OR IGNORE INTO outbox (id, kind, recipient, order_id, created_at, next_attempt_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
    `${message.kind}:${message.orderId}`,
    message.kind,
    message.to,
    message.orderId,
    now,
    now,
  );
}

export function outboxRows(sql: SqlStorage): OutboxRow[] {
  return sql
    .exec<Omit<OutboxRow, "to"> & { recipient: string }>("SELECT * FROM outbox ORDER BY created_at, id")
    .toArray()
    .map(({ recipient, ...row }) => ({ ...row, to: recipient }));
}

/** Sends what is due. `compose` turns a row into the message (built from the order now). */
export async function deliverDue(
  sql: SqlStorage,
  sender: NotificationSender,
  compose: (row: { kind: string; to: string }) => NotificationMessage,
  now: number,
): Promise<void> {
  // The sender's backoff (EMAIL_RETRY_BASE_SECONDS) applies from the claim on.
  const table: JobTable = sender.retry ? { ...OUTBOX, retry: sender.retry } : OUTBOX;
  for (const id of dueJobs(sql, table, now)) {
    const attempt = claim(sql, table, id, now);
    const row = sql.exec<{ kind: string; recipient: string }>("SELECT kind, recipient FROM outbox WHERE id = ?", id);
    const stored = row.toArray()[0];
    if (attempt === undefined || !stored) continue;
    let result: SendResult = { ok: false };
    try {
      result = await sender.send(compose({ kind: stored.kind, to: stored.recipient }));
    } catch (e) {
      console.error("notification send failed", id, e instanceof Error ? e.message : e);
    }
    if (result.ok !== true && result.permanent === true) giveUp(sql, id, now);
    else finish(sql, table, id, attempt, result.ok === true, now);
  }
}

function giveUp(sql: SqlStorage, id: string, now: number): void {
  sql.exec("UPDATE outbox SET failed_at = ?, next_attempt_at = NULL WHERE id = ?", now, id);
}

/** Where a message of `kind` stands: sent, failed (given up), pending (queued or retrying), or none queued. */
export function messageState(sql: SqlStorage, kind: string): "sent" | "failed" | "pending" | "none" {
  const row = sql
    .exec<{ sent_at: number | null; failed_at: number | null }>(
      "SELECT sent_at, failed_at FROM outbox WHERE kind = ? ORDER BY created_at LIMIT 1",
      kind,
    )
    .toArray()[0];
  if (!row) return "none";
  return row.sent_at !== null ? "sent" : row.failed_at !== null ? "failed" : "pending";
}

export const outboxDeadline = (sql: SqlStorage): number | undefined => jobsDeadline(sql, OUTBOX);
