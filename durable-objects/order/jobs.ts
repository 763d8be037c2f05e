/**
 * Background work rows inside the order object (the notification outbox, refunds, stock
 * releases) share one life: due at next_attempt_at, claimed before the attempt, then done,
 * rescheduled with backoff, or given up after the policy's last attempt. Synchronous SQL only; the
 * caller awaits the attempt itself between claim() and finish().
 */
import { DEFAULT_RETRY, nextAttemptAt, type RetryPolicy } from "../../src/lib/retry";

export interface JobTable {
  readonly table: "outbox" | "effects" | "webhooks" | "captures";
  /** The column stamped when the work succeeded (sent_at, done_at, delivered_at). */
  readonly doneColumn: "sent_at" | "done_at" | "delivered_at";
  /** Backoff and give-up point; the order object's default when absent. */
  readonly retry?: RetryPolicy;
}

/** Columns every job table has, after its own. */
export const JOB_COLUMNS = `attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  failed_at INTEGER`;

/** Ids of open jobs whose time has come, oldest first. */
export function dueJobs(sql: SqlStorage, jobs: JobTable, now: number): string[] {
  return sql
    .exec<{ id: string }>(
      `SELECT id FROM ${jobs.table} WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT 50`,
      now,
    )
    .toArray()
    .map((r) => r.id);
}

/**
 * Takes a due job for one attempt: counts it and moves its next try out by the backoff. The
 * read and the write are synchronous (no await between), so another run (alarms are
 * at-least-once, and a request may overlap one) finds it not due and skips it, and a crash
 * mid-attempt retries after the backoff. Returns the attempt number, or undefined when the
 * job is no longer due (someone else took it, or it finished).
 */
export function claim(sql: SqlStorage, jobs: JobTable, id: string, now: number): number | undefined {
  const row = sql
    .exec<{ attempts: number }>(
      `SELECT attempts FROM ${jobs.table} WHERE id = ? AND next_attempt_at IS NOT NULL AND next_attempt_at <= ?`,
      id,
      now,
    )
    .toArray()[0];
  if (!row) return undefined;
  const attempt = row.attempts + 1;
  sql.exec(
    `UPDATE ${jobs.table} SET attempts = ?, next_attempt_at = ? WHERE id = ?`,
    attempt,
    nextAttemptAt(attempt, now, jobs.retry ?? DEFAULT_RETRY),
    id,
  );
  return attempt;
}

/** Records an attempt's outcome: done for good, or another try later (until maxAttempts). */
export function finish(sql: SqlStorage, jobs: JobTable, id: string, attempt: number, ok: boolean, now: number): void {
  if (ok) {
    sql.exec(`UPDATE ${jobs.table} SET ${jobs.doneColumn} = ?, next_attempt_at = NULL WHERE id = ?`, now, id);
  } else if (attempt >= (jobs.retry ?? DEFAULT_RETRY).maxAttempts) {
    sql.exec(`UPDATE ${jobs.table} SET failed_at = ?, next_attempt_at = NULL WHERE id = ?`, now, id);
  }
  // Otherwise the backoff claim() set stands as the next try.
}

/** The earliest next try among open jobs, for the object's single alarm. */
export function jobsDeadline(sql: SqlStorage, jobs: JobTable): number | undefined {
  const row = sql.exec<{ next: number | null }>(`SELECT MIN(next_attempt_at) AS next FROM ${jobs.table}`).one();
  return row.next ?? undefined;
}
