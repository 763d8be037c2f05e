/**
 * The store's catalog loads (one object, CATALOG_LOAD_NAME), run by its alarm a step at a
 * time (catalog-load/steps.ts; src/catalog/catalog-job.ts has the phases). The file is in R2
 * (CATALOG_UPLOADS); the checked product documents wait in this object's SQLite, and the
 * cursor moves past each batch in the transaction that deletes it, so a load resumes where it
 * stopped. The new catalog is written under its own key prefix while the old one is served,
 * and served from the moment the manifest names it (catalog-keys.ts): readers see one or the
 * other, never a mix. Its tables are the kernel's (shared/kernel.ts, catalog-load/jobs-sql.ts).
 */
import { DurableObject } from "cloudflare:workers";
import {
  CLEAN_DELAY_MS,
  type JobProblem,
  type JobView,
  STEP_RETRIES,
  UPLOAD_PART_BYTES,
  type UploadKind,
} from "../src/catalog/catalog-job";
import { loadPrefix } from "../src/catalog/catalog-keys";
import { nextIoTurn } from "../src/lib/io-turn";
import {
  busyJob,
  dueJob,
  forgetJob,
  insertJob,
  type JobRow,
  jobRow,
  MIGRATIONS,
  nextStepAt,
  oldJobs,
  problemRows,
  recentJobs,
  updateJob,
  viewOf,
} from "./catalog-load/jobs-sql";
import { deleteFile, type LoadContext, runStep, update } from "./catalog-load/steps";
import { ObjectStore } from "./shared/kernel";

export type StartOutcome =
  | { ok: true }
  | { ok: false; error: "not_found" | "not_receiving" | "busy"; running?: string };

/** Older finished loads are forgotten (their rows and problems) beyond this many. */
const KEEP_JOBS = 20;

export class CatalogLoadObject extends DurableObject<Env> {
  readonly #store = new ObjectStore(this.ctx.storage, MIGRATIONS);
  /** The catalog namespace the steps write; tests put a failing one here to stop a load midway. */
  kv: KVNamespace = this.env.CATALOG;
  /** Tests set these to 0 so cleaning and retries are due at once. */
  cleanDelayMs = CLEAN_DELAY_MS;
  retryBaseMs = 1000;

  /** A load waiting for its file. */
  async create(job: {
    id: string;
    fileName: string;
    kind: UploadKind;
    bytes: number;
    currency: string;
  }): Promise<JobView> {
    this.#store.transaction((sql) => insertJob(sql, job, Date.now()));
    await this.#forgetOld();
    return viewOf(this.#row(job.id) as JobRow);
  }

  /** The file is in R2 as `parts` parts: check it and load it. One load runs at a time. */
  async start(id: string, parts: number): Promise<StartOutcome> {
    const outcome = this.#store.transaction((sql): StartOutcome => {
      const row = jobRow(sql, id);
      if (!row) return { ok: false, error: "not_found" };
      if (row.phase !== "receiving") return { ok: false, error: "not_receiving" };
      const busy = busyJob(sql);
      if (busy) return { ok: false, error: "busy", running: busy };
      updateJob(sql, id, { phase: "checking", parts });
      return { ok: true };
    });
    if (outcome.ok) await this.#schedule();
    return outcome;
  }

  async status(id: string): Promise<JobView | null> {
    const row = this.#row(id);
    return row ? viewOf(row) : null;
  }

  /** The newest loads first. */
  async recent(limit: number): Promise<JobView[]> {
    return this.#store.read([], (sql) => recentJobs(sql, limit));
  }

  async problems(id: string, offset: number, limit: number): Promise<JobProblem[]> {
    return this.#store.read([], (sql) => problemRows(sql, id, offset, limit));
  }

  /** A paused load goes on from its cursor. */
  async resume(id: string): Promise<boolean> {
    if (this.#row(id)?.paused !== 1) return false;
    update(this.#load, id, { paused: 0, attempts: 0, retry_at: null, error: null });
    await this.#schedule();
    return true;
  }

  /** A paused load that was never served is given up: what it wrote is deleted, the old catalog stays. */
  async discard(id: string): Promise<boolean> {
    const row = this.#row(id);
    if (row?.paused !== 1 || row.served_at !== null) return false;
    this.#store.transaction((sql) => {
      sql.exec("DELETE FROM staged WHERE job = ?", id);
      const retry = { paused: 0, attempts: 0, retry_at: null, error: null };
      updateJob(sql, id, { ...retry, phase: "cleaning", clean_prefix: loadPrefix(id), clean_after: Date.now() });
    });
    await this.#schedule();
    return true;
  }

  override async alarm(): Promise<void> {
    // Each step is a burst of work on the isolate; its first turn lets waiting requests in.
    await nextIoTurn();
    const job = this.#store.read(undefined, (sql) => dueJob(sql, Date.now()));
    if (job) {
      try {
        await runStep(this.#load, job);
        if (job.attempts > 0 || job.error) update(this.#load, job.id, { attempts: 0, error: null, retry_at: null });
      } catch (e) {
        const attempts = job.attempts + 1;
        const paused = attempts >= STEP_RETRIES;
        const failed = { event: "catalog_load_step_failed", job: job.id, phase: job.phase, attempts, error: String(e) };
        console.error(JSON.stringify(failed));
        update(this.#load, job.id, {
          attempts,
          error: String((e as Error)?.message ?? e).slice(0, 500),
          paused: paused ? 1 : 0,
          retry_at: paused ? null : Date.now() + this.retryBaseMs * 4 ** (attempts - 1),
        });
      }
    }
    await this.#schedule();
  }

  /** The alarm at the next due step (kept at none: finished loads stay listed). */
  async #schedule(): Promise<void> {
    await this.#store.arm([this.#store.read(undefined, (sql) => nextStepAt(sql))], "keep");
  }

  /** Read at each use: a test may replace `kv` between steps. */
  get #load(): LoadContext {
    return { env: this.env, kv: this.kv, store: this.#store, cleanDelayMs: this.cleanDelayMs };
  }

  #row(id: string): JobRow | undefined {
    return this.#store.read(undefined, (sql) => jobRow(sql, id));
  }

  async #forgetOld(): Promise<void> {
    for (const { id, phase, bytes } of this.#store.read([], (sql) => oldJobs(sql, KEEP_JOBS))) {
      // A load never started still holds the parts it received (receivePart takes no more than these).
      if (phase === "receiving") await deleteFile(this.env, { id, parts: Math.ceil(bytes / UPLOAD_PART_BYTES) });
      this.#store.transaction((sql) => forgetJob(sql, id));
    }
  }
}
