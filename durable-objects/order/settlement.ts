/**
 * What an adjustment obliges outside the order: a refund through the payment processor, a
 * stock release in the inventory object. Queued as `effects` rows in the adjustment's own
 * transaction, then run (right away, and by the alarm until they succeed): at most one
 * refund and one release per adjustment, and a row marked done is never run again.
 */

import type { Effect } from "../../src/order/adjustments";
import type { AdjustmentStatus } from "../../src/order/order-state";
import { claim, dueJobs, finish, JOB_COLUMNS, type JobTable, jobsDeadline } from "./jobs";

const EFFECTS: JobTable = { table: "effects", doneColumn: "done_at" };

export const EFFECTS_SCHEMA = `CREATE TABLE IF NOT EXISTS effects (
  id TEXT PRIMARY KEY,
  adjustment_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('refund', 'release')),
  target TEXT NOT NULL,
  amount INTEGER NOT NULL,
  done_at INTEGER,
  ${JOB_COLUMNS}
)`;

/**
 * The units of a release that gives back only part of the reservation (a refund with
 * restock): one row per such effect. A table of its own, so `effects` (and its CHECK on
 * kind) stays as deployed; a release without a row here is the whole reservation.
 */
export const RELEASE_LINES_SCHEMA = `CREATE TABLE IF NOT EXISTS release_lines (
  effect_id TEXT PRIMARY KEY,
  lines_json TEXT NOT NULL
)`;

type ReleaseLines = ReadonlyArray<{ variantId: string; quantity: number }>;

/** The outside world as the effects need it (the processor and the inventory object). */
export interface SettlementPorts {
  refund(chargeId: string, amount: number, idempotencyKey: string): Promise<{ readonly ok: boolean }>;
  /** Any answer counts: released, already released, or unknown (nothing left to return). */
  release(reservationId: string): Promise<unknown>;
  /** Part of the reservation back, once per key (the effect's id); any answer counts, as for release. */
  restock(reservationId: string, lines: ReleaseLines, key: string): Promise<unknown>;
}

export function queueEffects(sql: SqlStorage, adjustmentId: string, effects: readonly Effect[], now: number): void {
  for (const effect of effects) {
    sql.exec(
      "INSERT OR IGNORE INTO effects (id, adjustment_id, kind, target, amount, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?)",
      `${adjustmentId}:${effect.kind}`,
      adjustmentId,
      effect.kind,
      effect.kind === "refund" ? effect.chargeId : effect.reservationId,
      effect.kind === "refund" ? effect.amount : 0,
      now,
    );
    if (effect.kind === "release" && effect.lines)
      sql.exec(
        "INSERT OR IGNORE INTO release_lines (effect_id, lines_json) VALUES (?, ?)",
        `${adjustmentId}:release`,
        JSON.stringify(effect.lines),
      );
  }
}

function releaseLines(sql: SqlStorage, effectId: string): ReleaseLines | undefined {
  const row = sql
    .exec<{ lines_json: string }>("SELECT lines_json FROM release_lines WHERE effect_id = ?", effectId)
    .toArray()[0];
  return row ? (JSON.parse(row.lines_json) as ReleaseLines) : undefined;
}

/** Runs the due effects; returns the adjustments they belong to (whose status may change). */
export async function runDueEffects(sql: SqlStorage, ports: SettlementPorts, now: number): Promise<Set<string>> {
  const touched = new Set<string>();
  for (const id of dueJobs(sql, EFFECTS, now)) {
    const attempt = claim(sql, EFFECTS, id, now);
    const row = sql
      .exec<{ adjustment_id: string; kind: string; target: string; amount: number }>(
        "SELECT adjustment_id, kind, target, amount FROM effects WHERE id = ?",
        id,
      )
      .toArray()[0];
    if (attempt === undefined || !row) continue;
    let ok = false;
    try {
      // The effect's id is the refund's idempotency key: a retried effect refunds once.
      if (row.kind === "refund") ok = (await ports.refund(row.target, row.amount, id)).ok;
      else {
        const lines = releaseLines(sql, id);
        // The effect's id keys the partial release too: a retry restocks nothing twice.
        await (lines ? ports.restock(row.target, lines, id) : ports.release(row.target));
        ok = true;
      }
    } catch (e) {
      console.error("order effect failed", id, e instanceof Error ? e.message : e);
    }
    finish(sql, EFFECTS, id, attempt, ok, now);
    touched.add(row.adjustment_id);
  }
  return touched;
}

/** An adjustment is completed once all its effects are done, failed once one gave up. */
export function effectsStatus(sql: SqlStorage, adjustmentId: string): AdjustmentStatus {
  const rows = sql
    .exec<{ done_at: number | null; failed_at: number | null }>(
      "SELECT done_at, failed_at FROM effects WHERE adjustment_id = ?",
      adjustmentId,
    )
    .toArray();
  if (rows.some((r) => r.failed_at !== null)) return "failed";
  return rows.every((r) => r.done_at !== null) ? "completed" : "pending";
}

export const effectsDeadline = (sql: SqlStorage): number | undefined => jobsDeadline(sql, EFFECTS);
