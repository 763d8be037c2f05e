/**
 * A catalog load run as a background job (durable-objects/catalog-load-object.ts): the
 * vocabulary the console and the object share, and the check of an uploaded file by the very
 * code `npm run catalog:load` runs (csv-records, csv-catalog, catalog-source, catalog-load).
 *
 * Phases: receiving (the browser sends the file into R2 in parts) → checking (every row,
 * every problem kept; any problem ends the job "refused" and nothing is written) → writing
 * (the products, a batch per alarm, under the load's own key prefix, the cursor persisted)
 * → cleaning (the manifest now names the new prefix: the one switch; the previous catalog's
 * keys are deleted a batch per alarm) → done. A step that fails is retried, then the job
 * pauses and the merchant resumes it from its cursor, or discards it.
 */
import { nextIoTurn } from "../lib/io-turn";
import { type ValidatedCatalog, validateSource } from "./catalog-load";
import { csvSource, jsonSource } from "./catalog-source";
import { readCatalogCsv } from "./csv-catalog";
import { readCsvRecords } from "./csv-records";

export type JobPhase = "receiving" | "checking" | "writing" | "cleaning" | "done" | "refused" | "discarded";
export type UploadKind = "csv" | "json";

export interface JobView {
  readonly id: string;
  readonly file_name: string;
  readonly kind: UploadKind;
  readonly bytes: number;
  readonly phase: JobPhase;
  /** Set when a step failed: the job waits for a retry (`retry_at`) or for the merchant (`paused`). */
  readonly error: string | null;
  readonly paused: boolean;
  readonly retry_at: number | null;
  readonly checked_rows: number;
  readonly products: number;
  readonly variants: number;
  readonly written: number;
  readonly problems: number;
  readonly removed: number;
  readonly version: string | null;
  readonly created_at: number;
  readonly updated_at: number;
  /** When the new catalog was switched in (served from then on). */
  readonly served_at: number | null;
  readonly finished_at: number | null;
}

export interface JobProblem {
  readonly where: string;
  readonly message: string;
}

/** The store-wide object that runs loads (one at a time). State: never rename. */
export const CATALOG_LOAD_NAME = "catalog-load";
/** Bytes per part the browser sends; the form without script sends the file whole. */
export const UPLOAD_PART_BYTES = 8 * 1024 * 1024;
/** The largest file a load takes (parts x part size); 100,000 products of a full CSV are ~117 MiB. */
export const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;
export const MAX_PARTS = Math.ceil(MAX_UPLOAD_BYTES / UPLOAD_PART_BYTES);
/**
 * Product documents written per alarm: each is one KV put, and an invocation may make 1,000
 * KV operations; the rest stay for the cursor's bookkeeping and a margin.
 */
export const WRITE_BATCH_PER_STEP = 500;
/** Keys deleted per alarm while cleaning (a list of up to 1,000 keys, then their deletes). */
export const CLEAN_BATCH_PER_STEP = 500;
/** Before the previous catalog's keys go: isolates re-read the manifest every 30 s, KV caches up to 60 s. */
export const CLEAN_DELAY_MS = 90_000;
/** Retries of a failed step (1 s, 4 s, 16 s) before the job pauses for the merchant. */
export const STEP_RETRIES = 3;

export function uploadPartKey(jobId: string, part: number): string {
  return `uploads/${jobId}/${String(part).padStart(5, "0")}`;
}

export function kindOf(name: string): UploadKind | undefined {
  const lower = name.toLowerCase();
  return lower.endsWith(".csv") ? "csv" : lower.endsWith(".json") ? "json" : undefined;
}

export function newJobId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => "0123456789abcdefghijklmnopqrstuvwxyz"[b % 36]).join("");
}

/** Whether the job still has work for the object (as opposed to waiting for the file or finished). */
export function running(phase: JobPhase): boolean {
  return phase === "checking" || phase === "writing" || phase === "cleaning";
}

/**
 * Reads and checks an uploaded catalog: every problem, as the command-line loader names it.
 * `onRows` reports CSV rows read (progress).
 */
export async function checkUpload(
  chunks: AsyncIterable<string>,
  kind: UploadKind,
  currency: string,
  onRows: (rows: number) => void,
): Promise<ValidatedCatalog> {
  if (kind === "csv") {
    const csv = await readCatalogCsv(readCsvRecords(chunks), onRows, 5_000);
    onRows(csv.rows);
    return validateSource(csvSource(csv), currency, () => {}, nextIoTurn);
  }
  let text = "";
  for await (const chunk of chunks) text += chunk;
  return validateSource(jsonSource(text, currency), currency, () => {}, nextIoTurn);
}
