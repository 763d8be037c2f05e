/**
 * The CheckoutObject's record of its running completion attempt (at most one): written in
 * the transaction that marks the session complete_in_progress, updated after each step,
 * deleted in the transaction that records the outcome. While it exists the session is
 * complete_in_progress, and its deadline is when the alarm resumes or undoes it. The table is
 * part of the checkout's layout (checkout-object.ts MIGRATIONS, shared/kernel.ts).
 */
import type { AttemptProgress, CompletionAttempt } from "../../src/checkout/completion-steps";
export const ATTEMPT_SCHEMA = `CREATE TABLE IF NOT EXISTS completion_attempt (
  slot INTEGER PRIMARY KEY CHECK (slot = 1),
  attempt TEXT NOT NULL,
  progress TEXT NOT NULL,
  deadline INTEGER NOT NULL
)`;

/** Returns the stored attempt text (a caller's loadAttempt memo may start from it). */
export function startAttempt(sql: SqlStorage, attempt: CompletionAttempt): string {
  const { progress, deadline, ...rest } = attempt;
  const text = JSON.stringify(rest);
  sql.exec(
    "INSERT OR REPLACE INTO completion_attempt (slot, attempt, progress, deadline) VALUES (1, ?, ?, ?)",
    text,
    JSON.stringify(progress),
    deadline,
  );
  return text;
}

/**
 * The stored attempt. `parsed` is the caller's memo of the last attempt text it parsed (the
 * attempt holds the whole session, and a completion reads it several times while only its
 * progress and deadline change): the text is still read every time, so a rolled-back write
 * is never served; only an unchanged text skips the parse. Attempts are never mutated in place.
 */
/** A caller's memo of the attempt text it parsed last (loadAttempt). */
export interface ParsedAttempt {
  text?: string;
  attempt?: Omit<CompletionAttempt, "progress" | "deadline">;
}

export function loadAttempt(sql: SqlStorage, parsed?: ParsedAttempt): CompletionAttempt | undefined {
  const row = sql
    .exec<{ attempt: string; progress: string; deadline: number }>(
      "SELECT attempt, progress, deadline FROM completion_attempt WHERE slot = 1",
    )
    .toArray()[0];
  if (!row) return undefined;
  let base = parsed?.text === row.attempt ? parsed.attempt : undefined;
  if (!base) {
    base = JSON.parse(row.attempt) as Omit<CompletionAttempt, "progress" | "deadline">;
    if (parsed) {
      parsed.text = row.attempt;
      parsed.attempt = base;
    }
  }
  return { ...base, progress: JSON.parse(row.progress), deadline: row.deadline };
}

export function noteProgress(sql: SqlStorage, attemptId: string, progress: AttemptProgress): void {
  // Only the attempt that made the progress is updated (a finished attempt stays finished).
  sql.exec(
    "UPDATE completion_attempt SET progress = ? WHERE slot = 1 AND json_extract(attempt, '$.id') = ?",
    JSON.stringify(progress),
    attemptId,
  );
}

/** Moves the recovery deadline (a recovery that failed is tried again later, never in the past). */
export function postponeAttempt(sql: SqlStorage, deadline: number): void {
  sql.exec("UPDATE completion_attempt SET deadline = ? WHERE slot = 1", deadline);
}

export function endAttempt(sql: SqlStorage): void {
  sql.exec("DELETE FROM completion_attempt");
}
