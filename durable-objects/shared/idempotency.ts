/**
 * The idempotency ledger inside a resource's Durable Object: key → request fingerprint and
 * the exact response body. Synchronous, so the check, the state change and the record
 * commit in one transaction. Keys live LEDGER_KEEP_MS (UCP: at least 24 h; 48 h advised).
 */
import { isStoreKey, STORE_KEY_SQL } from "../../src/lib/ledger-keys";
import type { ObjectReply } from "./object-reply";
export const LEDGER_KEEP_MS = 48 * 3600_000;

export const LEDGER_SCHEMA = `CREATE TABLE IF NOT EXISTS ledger (
  key TEXT PRIMARY KEY,
  request_hash TEXT NOT NULL,
  response TEXT NOT NULL,
  created_at INTEGER NOT NULL
)`;

export interface IdempotencyInput {
  /** Scoped by operation, e.g. `update:<key>`. */
  readonly key: string;
  /** SHA-256 of the canonical request. */
  readonly hash: string;
}

export type LedgerCheck = { kind: "fresh" } | { kind: "replay"; response: string } | { kind: "conflict" };

export function checkLedger(sql: SqlStorage, input: IdempotencyInput, now: number): LedgerCheck {
  const row = sql
    .exec<{ request_hash: string; response: string; created_at: number }>(
      "SELECT request_hash, response, created_at FROM ledger WHERE key = ?",
      input.key,
    )
    .toArray()[0];
  // An entry past its retention counts as gone even before the alarm prunes it.
  if (!row || now - row.created_at >= LEDGER_KEEP_MS) return { kind: "fresh" };
  return row.request_hash === input.hash ? { kind: "replay", response: row.response } : { kind: "conflict" };
}

/**
 * What one object's ledger may hold, in response characters, for each side that writes it:
 * the platform's keys, and the store's own (src/lib/ledger-keys.ts: the merchant's changes and
 * the processor's events to an order kept in its checkout's object). Tool arguments are
 * capped per caller (src/pipeline/argument-limits.ts), which bounds one entry; this bounds
 * their sum, so many keys cannot park megabytes in one session for 48 h. Ordinary sessions
 * stay far below it (a checkout response is a few KiB).
 */
export const LEDGER_MAX_CHARS = 4 * 1024 * 1024;

export function recordLedger(sql: SqlStorage, input: IdempotencyInput, response: string, now: number): void {
  sql.exec(
    "INSERT OR REPLACE INTO ledger (key, request_hash, response, created_at) VALUES (?, ?, ?, ?)",
    input.key,
    input.hash,
    response,
    now,
  );
  trimLedger(sql, input.key);
}

/**
 * Restates the answer recorded for `input` when work the recording transaction queued has
 * since changed it: an order's refunds and releases run after its change commits, and a
 * retry must get what the first caller got. Call it in the transaction that records that
 * work's outcome. Only the same request's entry (key and hash) changes; its age stays.
 */
export function restateAnswer(sql: SqlStorage, input: IdempotencyInput, response: string): void {
  sql.exec("UPDATE ledger SET response = ? WHERE key = ? AND request_hash = ?", response, input.key, input.hash);
  trimLedger(sql, input.key);
}

/**
 * Over budget, the oldest entries of the same side go first (never the one just written): a
 * platform's keys only ever push out that platform's, never the merchant's or the processor's.
 * A forgotten key is then answered afresh: the session's current state or a clear
 * invalid_status, never a second charge, since completion is keyed by the checkout's own
 * attempt id. Logged, so a trim is never silent.
 */
function trimLedger(sql: SqlStorage, keep: string): void {
  const side = isStoreKey(keep) ? STORE_KEY_SQL("key") : `NOT ${STORE_KEY_SQL("key")}`;
  const total = sql
    .exec<{ chars: number }>(`SELECT COALESCE(SUM(LENGTH(response)), 0) AS chars FROM ledger WHERE ${side}`)
    .one();
  let excess = total.chars - LEDGER_MAX_CHARS;
  if (excess <= 0) return;
  const oldest = sql
    .exec<{ key: string; chars: number }>(
      `SELECT key, LENGTH(response) AS chars FROM ledger WHERE key != ? AND ${side} ORDER BY created_at, key`,
      keep,
    )
    .toArray();
  let dropped = 0;
  for (const row of oldest) {
    if (excess <= 0) break;
    sql.exec("DELETE FROM ledger WHERE key = ?", row.key);
    excess -= row.chars;
    dropped += 1;
  }
  console.log(JSON.stringify({ log: "ledger_trimmed", dropped, limit_chars: LEDGER_MAX_CHARS }));
}

export function pruneLedger(sql: SqlStorage, now: number): void {
  sql.exec("DELETE FROM ledger WHERE created_at <= ?", now - LEDGER_KEEP_MS);
}

/** When the oldest entry may be forgotten, if there is one. */
export function ledgerDeadline(sql: SqlStorage): number | undefined {
  const row = sql.exec<{ oldest: number | null }>("SELECT MIN(created_at) AS oldest FROM ledger").one();
  return row.oldest === null ? undefined : row.oldest + LEDGER_KEEP_MS;
}

/** What a repeated key answers before anything runs: the stored body, a conflict, or nothing. */
export function priorAnswer(
  sql: SqlStorage,
  idempotency: IdempotencyInput | undefined,
  now: number,
): Extract<ObjectReply, { kind: "ok" | "conflict" }> | undefined {
  if (!idempotency) return undefined;
  const check = checkLedger(sql, idempotency, now);
  if (check.kind === "replay") return { kind: "ok", body: check.response };
  return check.kind === "conflict" ? { kind: "conflict" } : undefined;
}
