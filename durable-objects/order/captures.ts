/**
 * The order's capture at shipment (src/order/capture.ts) as a job row: queued in the
 * shipment's own transaction, run right after and by the alarm until the processor takes it
 * or the retries give up. One row per order (its id is the capture's idempotency key), so
 * a second shipment, a replayed request or an overlapping alarm never captures twice.
 */
import { claim, dueJobs, finish, JOB_COLUMNS, type JobTable, jobsDeadline } from "./jobs";

const CAPTURES: JobTable = { table: "captures", doneColumn: "done_at" };

export const CAPTURES_SCHEMA = `CREATE TABLE IF NOT EXISTS captures (
  id TEXT PRIMARY KEY,
  charge_id TEXT NOT NULL,
  amount INTEGER NOT NULL,
  done_at INTEGER,
  ${JOB_COLUMNS}
)`;

export type CapturePort = (
  chargeId: string,
  amount: number,
  idempotencyKey: string,
) => Promise<{ readonly ok: boolean }>;

/** Inside the shipment's transaction. `orderId:capture` is the row's id and Stripe's Idempotency-Key. */
export function queueCapture(sql: SqlStorage, orderId: string, chargeId: string, amount: number, now: number): void {
  sql.exec(
    "INSERT OR IGNORE INTO captures (id, charge_id, amount, next_attempt_at) VALUES (?, ?, ?, ?)",
    `${orderId}:capture`,
    chargeId,
    amount,
    now,
  );
}

/** Runs the due capture; its outcome once final (taken, or given up), else undefined. */
export async function runDueCapture(
  sql: SqlStorage,
  capture: CapturePort,
  now: number,
): Promise<"captured" | "failed" | undefined> {
  let outcome: "captured" | "failed" | undefined;
  for (const id of dueJobs(sql, CAPTURES, now)) {
    const attempt = claim(sql, CAPTURES, id, now);
    const row = sql
      .exec<{ charge_id: string; amount: number }>("SELECT charge_id, amount FROM captures WHERE id = ?", id)
      .toArray()[0];
    if (attempt === undefined || !row) continue;
    let ok = false;
    try {
      ok = (await capture(row.charge_id, row.amount, id)).ok;
    } catch (e) {
      console.error("order capture failed", id, e instanceof Error ? e.message : e);
    }
    finish(sql, CAPTURES, id, attempt, ok, now);
    const done = sql
      .exec<{ done_at: number | null; failed_at: number | null }>(
        "SELECT done_at, failed_at FROM captures WHERE id = ?",
        id,
      )
      .one();
    if (done.done_at !== null) outcome = "captured";
    else if (done.failed_at !== null) outcome = "failed";
  }
  return outcome;
}

export const capturesDeadline = (sql: SqlStorage): number | undefined => jobsDeadline(sql, CAPTURES);
