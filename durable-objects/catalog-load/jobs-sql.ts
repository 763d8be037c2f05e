/**
 * The catalog load object's tables: one row per load (its phase and cursor), the problems a
 * refused load found (every one), and the checked product documents waiting to be written
 * (each row is deleted in the transaction that moves the cursor past it).
 */
import type { JobPhase, JobProblem, JobView, UploadKind } from "../../src/catalog/catalog-job";

export const SCHEMA = [
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
