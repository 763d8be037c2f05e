/**
 * The catalog load object's tables: one row per load (its phase and cursor), the problems a
 * refused load found (every one), and the checked product documents waiting to be written
 * (each row is deleted in the transaction that moves the cursor past it). Every function
 * here runs inside the object's ObjectStore read or transaction (shared/kernel.ts).
 */
import { type JobPhase, type JobProblem, type JobView, running, type UploadKind } from "../../src/catalog/catalog-job";
import { type Migration, tables } from "../shared/kernel";

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS jobs (
  id TEXT PRIMARY KEY,
  file_name TEXT NOT NULL,
  kind TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  parts INTEGER NOT NULL DEFAULT 0,
  currency TEXT NOT NULL,
  phase TEXT NOT NULL,
  error TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  paused INTEGER NOT NULL DEFAULT 0,
  retry_at INTEGER,
  checked_rows INTEGER NOT NULL DEFAULT 0,
  products INTEGER NOT NULL DEFAULT 0,
  variants INTEGER NOT NULL DEFAULT 0,
  written INTEGER NOT NULL DEFAULT 0,
  cursor INTEGER NOT NULL DEFAULT 0,
  problems INTEGER NOT NULL DEFAULT 0,
  removed INTEGER NOT NULL DEFAULT 0,
  version TEXT,
  index_parts INTEGER NOT NULL DEFAULT 0,
  clean_prefix TEXT,
  clean_after INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  served_at INTEGER,
  finished_at INTEGER
)`,
  `CREATE TABLE IF NOT EXISTS problems (
  job TEXT NOT NULL,
  seq INTEGER NOT NULL,
  place TEXT NOT NULL,
  message TEXT NOT NULL,
  PRIMARY KEY (job, seq)
)`,
  `CREATE TABLE IF NOT EXISTS staged (
  job TEXT NOT NULL,
  seq INTEGER NOT NULL,
  id TEXT NOT NULL,
  doc TEXT NOT NULL,
  PRIMARY KEY (job, seq)
)`,
];

/**
 * The layout, step by step (shared/kernel.ts). Loads stored before the version row have all
 * three tables (the constructor made them on every start): step 1 finds them there.
 */
export const MIGRATIONS: readonly Migration[] = [tables(1, "loads, their problems and staged documents", SCHEMA)];

export interface JobRow extends Record<string, SqlStorageValue> {
  id: string;
  file_name: string;
  kind: string;
  bytes: number;
  parts: number;
  currency: string;
  phase: string;
  error: string | null;
  attempts: number;
  paused: number;
  retry_at: number | null;
  checked_rows: number;
  products: number;
  variants: number;
  written: number;
  cursor: number;
  problems: number;
  removed: number;
  version: string | null;
  index_parts: number;
  /** Whose keys the cleaning phase deletes: a load prefix, "" for the unprefixed layout, null for none. */
  clean_prefix: string | null;
  clean_after: number | null;
  created_at: number;
  updated_at: number;
  served_at: number | null;
  finished_at: number | null;
}

export function viewOf(row: JobRow): JobView {
  return {
    id: row.id,
    file_name: row.file_name,
    kind: row.kind as UploadKind,
    bytes: row.bytes,
    phase: row.phase as JobPhase,
    error: row.error,
    paused: row.paused === 1,
    retry_at: row.retry_at,
    checked_rows: row.checked_rows,
    products: row.products,
    variants: row.variants,
    written: row.written,
    problems: row.problems,
    removed: row.removed,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
    served_at: row.served_at,
    finished_at: row.finished_at,
  };
}

export function problemRows(sql: SqlStorage, job: string, offset: number, limit: number): JobProblem[] {
  return sql
    .exec<{ place: string; message: string }>(
      "SELECT place, message FROM problems WHERE job = ? ORDER BY seq LIMIT ? OFFSET ?",
      job,
      limit,
      offset,
    )
    .toArray()
    .map((r) => ({ where: r.place, message: r.message }));
}

export function jobRow(sql: SqlStorage, id: string): JobRow | undefined {
  return sql.exec<JobRow>("SELECT * FROM jobs WHERE id = ?", id).toArray()[0];
}

export function updateJob(sql: SqlStorage, id: string, fields: Partial<JobRow>): void {
  const names = Object.keys(fields);
  const sets = names.map((n) => `${n} = ?`).join(", ");
  const values = names.map((n) => fields[n] as SqlStorageValue);
  sql.exec(`UPDATE jobs SET ${sets}, updated_at = ? WHERE id = ?`, ...values, Date.now(), id);
}

export function insertJob(
  sql: SqlStorage,
  job: { id: string; fileName: string; kind: UploadKind; bytes: number; currency: string },
  now: number,
): void {
  sql.exec(
    "INSERT INTO jobs (id, file_name, kind, bytes, currency, phase, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'receiving', ?, ?)",
    ...[job.id, job.fileName, job.kind, job.bytes, job.currency, now, now],
  );
}

/** The load checking or writing now, if any (one runs at a time). */
export function busyJob(sql: SqlStorage): string | undefined {
  return sql.exec<{ id: string }>("SELECT id FROM jobs WHERE phase IN ('checking', 'writing') LIMIT 1").toArray()[0]
    ?.id;
}

export function recentJobs(sql: SqlStorage, limit: number): JobView[] {
  return sql.exec<JobRow>("SELECT * FROM jobs ORDER BY created_at DESC LIMIT ?", limit).toArray().map(viewOf);
}

/** The step due at `now`: cleaning after the loads that are checking or writing. */
export function dueJob(sql: SqlStorage, now: number): JobRow | undefined {
  return sql
    .exec<JobRow>(
      `SELECT * FROM jobs WHERE phase IN ('checking', 'writing', 'cleaning') AND paused = 0
         AND COALESCE(retry_at, 0) <= ? AND (phase != 'cleaning' OR COALESCE(clean_after, 0) <= ?)
         ORDER BY phase = 'cleaning', created_at LIMIT 1`,
      now,
      now,
    )
    .toArray()[0];
}

/** The next due step's time: as soon as possible, a retry's time, or the cleaning delay. */
export function nextStepAt(sql: SqlStorage): number | undefined {
  return (
    sql
      .exec<{ at: number | null }>(
        `SELECT MIN(MAX(COALESCE(retry_at, 0), CASE WHEN phase = 'cleaning' THEN COALESCE(clean_after, 0) ELSE 0 END)) AS at
         FROM jobs WHERE phase IN ('checking', 'writing', 'cleaning') AND paused = 0`,
      )
      .toArray()[0]?.at ?? undefined
  );
}

/** A refused load's problems, every one, replacing any from an earlier try. */
export function saveProblems(sql: SqlStorage, job: string, problems: readonly JobProblem[]): void {
  sql.exec("DELETE FROM problems WHERE job = ?", job);
  for (const [i, p] of problems.entries())
    sql.exec("INSERT INTO problems (job, seq, place, message) VALUES (?, ?, ?, ?)", job, i, p.where, p.message);
}

/** The checked documents, numbered from 1 in the file's order, replacing any from an earlier try. */
/** Stages `products` after sequence number `from`; from 0, what the job staged before is cleared first. */
export function stage(sql: SqlStorage, job: string, products: Iterable<{ id: string }>, from = 0): void {
  if (from === 0) sql.exec("DELETE FROM staged WHERE job = ?", job);
  let seq = from;
  for (const product of products)
    sql.exec(
      "INSERT INTO staged (job, seq, id, doc) VALUES (?, ?, ?, ?)",
      job,
      ++seq,
      product.id,
      JSON.stringify(product),
    );
}

export function stagedAfter(sql: SqlStorage, job: string, cursor: number, limit: number) {
  return sql
    .exec<{ seq: number; id: string; doc: string }>(
      "SELECT seq, id, doc FROM staged WHERE job = ? AND seq > ? ORDER BY seq LIMIT ?",
      job,
      cursor,
      limit,
    )
    .toArray();
}

/** Finished loads beyond the newest `keep`: forgotten (their rows and problems) by forgetJob. */
export function oldJobs(sql: SqlStorage, keep: number): Array<Pick<JobRow, "id" | "phase" | "bytes">> {
  return sql
    .exec<{ id: string; phase: string; bytes: number }>(
      "SELECT id, phase, bytes FROM jobs ORDER BY created_at DESC LIMIT -1 OFFSET ?",
      keep,
    )
    .toArray()
    .filter((r) => !running(r.phase as JobPhase));
}

export function forgetJob(sql: SqlStorage, id: string): void {
  sql.exec("DELETE FROM problems WHERE job = ?", id);
  sql.exec("DELETE FROM jobs WHERE id = ?", id);
}
