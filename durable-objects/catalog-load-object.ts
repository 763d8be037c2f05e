/**
 * The store's catalog loads (one object, CATALOG_LOAD_NAME), run by its alarm a step at a
 * time (src/catalog/catalog-job.ts has the phases). The file is in R2 (CATALOG_UPLOADS); the
 * checked product documents wait in this object's SQLite, and the cursor moves past each
 * batch in the transaction that deletes it, so a load resumes where it stopped. The new
 * catalog is written under its own key prefix while the old one is served, and served from
 * the moment the manifest names it (catalog-keys.ts): readers see one or the other, never a mix.
 */
import { DurableObject } from "cloudflare:workers";
import {
  CLEAN_BATCH_PER_STEP,
  CLEAN_DELAY_MS,
  checkUpload,
  type JobProblem,
  type JobView,
  running,
  STEP_RETRIES,
  UPLOAD_PART_BYTES,
  type UploadKind,
  uploadPartKey,
  WRITE_BATCH_PER_STEP,
} from "../src/catalog/catalog-job";
import { keysUnder, LOAD_KEY_PREFIX, loadPrefix } from "../src/catalog/catalog-keys";
import { indexParts } from "../src/catalog/catalog-load";
import { type CatalogManifest, KV_KEYS } from "../src/catalog/kv-layout";
import { servedProduct } from "../src/catalog/merchant-catalog";
import type { IndexableProduct } from "../src/catalog/search-index";
import {
  createSearchTables,
  dropTablesSql,
  finishSearchTables,
  searchRows,
  writeSearchRows,
} from "../src/catalog/search-tables";
import { forgetServedCatalog } from "../src/catalog/served-cache";
import { stockPartCount, stockPartValues } from "../src/catalog/stock-parts";
import { type JobRow, problemRows, SCHEMA, viewOf } from "./catalog-load/jobs-sql";
import { transaction } from "./shared/schema";

export type StartOutcome =
  | { ok: true }
  | { ok: false; error: "not_found" | "not_receiving" | "busy"; running?: string };

const KV_CONCURRENCY = 32;
/** Older finished loads are forgotten (their rows and problems) beyond this many. */
const KEEP_JOBS = 20;

export class CatalogLoadObject extends DurableObject<Env> {
  /** The catalog namespace the steps write; tests put a failing one here to stop a load midway. */
  kv: KVNamespace;
  /** Tests set these to 0 so cleaning and retries are due at once. */
  cleanDelayMs = CLEAN_DELAY_MS;
  retryBaseMs = 1000;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.kv = env.CATALOG;
    ctx.storage.sql.exec(SCHEMA.join(";\n"));
  }

  get #sql(): SqlStorage {
    return this.ctx.storage.sql;
  }

  #row(id: string): JobRow | undefined {
    return this.#sql.exec<JobRow>("SELECT * FROM jobs WHERE id = ?", id).toArray()[0];
  }

  #update(id: string, fields: Partial<JobRow>): void {
    const names = Object.keys(fields);
    const sets = names.map((n) => `${n} = ?`).join(", ");
    this.#sql.exec(
      `UPDATE jobs SET ${sets}, updated_at = ? WHERE id = ?`,
      ...names.map((n) => fields[n] as SqlStorageValue),
      Date.now(),
      id,
    );
  }

  /** A load waiting for its file. */
  async create(job: {
    id: string;
    fileName: string;
    kind: UploadKind;
    bytes: number;
    currency: string;
  }): Promise<JobView> {
    const now = Date.now();
    this.#sql.exec(
      "INSERT INTO jobs (id, file_name, kind, bytes, currency, phase, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'receiving', ?, ?)",
      job.id,
      job.fileName,
      job.kind,
      job.bytes,
      job.currency,
      now,
      now,
    );
    await this.#forgetOld();
    return viewOf(this.#row(job.id) as JobRow);
  }

  /** The file is in R2 as `parts` parts: check it and load it. One load runs at a time. */
  async start(id: string, parts: number): Promise<StartOutcome> {
    const row = this.#row(id);
    if (!row) return { ok: false, error: "not_found" };
    if (row.phase !== "receiving") return { ok: false, error: "not_receiving" };
    const busy = this.#sql
      .exec<{ id: string }>("SELECT id FROM jobs WHERE phase IN ('checking', 'writing') LIMIT 1")
      .toArray()[0];
    if (busy) return { ok: false, error: "busy", running: busy.id };
    this.#update(id, { phase: "checking", parts });
    await this.#schedule();
    return { ok: true };
  }

  async status(id: string): Promise<JobView | null> {
    const row = this.#row(id);
    return row ? viewOf(row) : null;
  }

  /** The newest loads first. */
  async recent(limit: number): Promise<JobView[]> {
    return this.#sql.exec<JobRow>("SELECT * FROM jobs ORDER BY created_at DESC LIMIT ?", limit).toArray().map(viewOf);
  }

  async problems(id: string, offset: number, limit: number): Promise<JobProblem[]> {
    return problemRows(this.#sql, id, offset, limit);
  }

  /** A paused load goes on from its cursor. */
  async resume(id: string): Promise<boolean> {
    const row = this.#row(id);
    if (row?.paused !== 1) return false;
    this.#update(id, { paused: 0, attempts: 0, retry_at: null, error: null });
    await this.#schedule();
    return true;
  }

  /** A paused load that was never served is given up: what it wrote is deleted, the old catalog stays. */
  async discard(id: string): Promise<boolean> {
    const row = this.#row(id);
    if (row?.paused !== 1 || row.served_at !== null) return false;
    transaction(this.ctx.storage, () => {
      this.#sql.exec("DELETE FROM staged WHERE job = ?", id);
      this.#update(id, {
        phase: "cleaning",
        paused: 0,
        attempts: 0,
        retry_at: null,
        error: null,
        clean_prefix: loadPrefix(id),
        clean_after: Date.now(),
      });
    });
    await this.#schedule();
    return true;
  }

  override async alarm(): Promise<void> {
    const now = Date.now();
    const job = this.#sql
      .exec<JobRow>(
        `SELECT * FROM jobs WHERE phase IN ('checking', 'writing', 'cleaning') AND paused = 0
         AND COALESCE(retry_at, 0) <= ? AND (phase != 'cleaning' OR COALESCE(clean_after, 0) <= ?)
         ORDER BY phase = 'cleaning', created_at LIMIT 1`,
        now,
        now,
      )
      .toArray()[0];
    if (job) {
      try {
        if (job.phase === "checking") await this.#check(job);
        else if (job.phase === "writing") await this.#write(job);
        else await this.#clean(job);
        if (job.attempts > 0 || job.error) this.#update(job.id, { attempts: 0, error: null, retry_at: null });
      } catch (e) {
        const attempts = job.attempts + 1;
        const paused = attempts >= STEP_RETRIES;
        console.error(
          JSON.stringify({
            event: "catalog_load_step_failed",
            job: job.id,
            phase: job.phase,
            attempts,
            error: String(e),
          }),
        );
        this.#update(job.id, {
          attempts,
          error: String((e as Error)?.message ?? e).slice(0, 500),
          paused: paused ? 1 : 0,
          retry_at: paused ? null : Date.now() + this.retryBaseMs * 4 ** (attempts - 1),
        });
      }
    }
    await this.#schedule();
  }

  /** The next due step's time: as soon as possible, a retry's time, or the cleaning delay. */
  async #schedule(): Promise<void> {
    const next = this.#sql
      .exec<{ at: number | null }>(
        `SELECT MIN(MAX(COALESCE(retry_at, 0), CASE WHEN phase = 'cleaning' THEN COALESCE(clean_after, 0) ELSE 0 END)) AS at
         FROM jobs WHERE phase IN ('checking', 'writing', 'cleaning') AND paused = 0`,
      )
      .toArray()[0]?.at;
    if (next === null || next === undefined) return;
    await this.ctx.storage.setAlarm(Math.max(next, Date.now()));
  }

  async *#fileText(job: JobRow): AsyncGenerator<string> {
    const decoder = new TextDecoder();
    for (let part = 0; part < job.parts; part++) {
      const object = await this.env.CATALOG_UPLOADS.get(uploadPartKey(job.id, part));
      if (!object) throw new MissingPart(part);
      for await (const chunk of object.body as unknown as AsyncIterable<Uint8Array>) {
        yield decoder.decode(chunk, { stream: true });
      }
    }
    yield decoder.decode();
  }

  async #check(job: JobRow): Promise<void> {
    let catalog: Awaited<ReturnType<typeof checkUpload>>;
    try {
      catalog = await checkUpload(this.#fileText(job), job.kind as UploadKind, job.currency, (rows) =>
        this.#update(job.id, { checked_rows: rows }),
      );
    } catch (e) {
      if (!(e instanceof MissingPart)) throw e;
      catalog = { problems: [{ where: "file", message: e.message }] } as Awaited<ReturnType<typeof checkUpload>>;
    }
    if (catalog.problems.length > 0) {
      transaction(this.ctx.storage, () => {
        this.#sql.exec("DELETE FROM problems WHERE job = ?", job.id);
        for (const [i, p] of catalog.problems.entries())
          this.#sql.exec(
            "INSERT INTO problems (job, seq, place, message) VALUES (?, ?, ?, ?)",
            job.id,
            i,
            p.where,
            p.message,
          );
        this.#update(job.id, { phase: "refused", problems: catalog.problems.length, finished_at: Date.now() });
      });
      await this.#deleteFile(job);
      return;
    }
    const keys = keysUnder(loadPrefix(job.id));
    let staged = 0;
    transaction(this.ctx.storage, () => {
      this.#sql.exec("DELETE FROM staged WHERE job = ?", job.id);
      for (const item of catalog.source.items()) {
        const product = servedProduct(item.raw);
        staged++;
        this.#sql.exec(
          "INSERT INTO staged (job, seq, id, doc) VALUES (?, ?, ?, ?)",
          job.id,
          staged,
          product.id,
          JSON.stringify(product),
        );
      }
    });
    const parts = indexParts(catalog.index);
    // The stock map in parts (stock-parts.ts), sized from the variant count the switch reads back.
    const stock = stockPartValues(JSON.parse(catalog.stock), stockPartCount(catalog.variants));
    await inGroups(
      [
        ...parts.map((value, i) => ({ key: keys.indexPart(i), value })),
        ...stock.map((value, i) => ({ key: keys.stockPart(i), value })),
      ],
      (p) => this.kv.put(p.key, p.value),
    );
    // The load's D1 search tables (issue 28), filled a batch per step beside the documents.
    await createSearchTables(this.env.CATALOG_DB, job.id, new Date());
    this.#update(job.id, {
      phase: "writing",
      products: catalog.products,
      variants: catalog.variants,
      version: catalog.version,
      index_parts: parts.length,
      cursor: 0,
      written: 0,
    });
  }

  async #write(job: JobRow): Promise<void> {
    const rows = this.#sql
      .exec<{ seq: number; id: string; doc: string }>(
        "SELECT seq, id, doc FROM staged WHERE job = ? AND seq > ? ORDER BY seq LIMIT ?",
        job.id,
        job.cursor,
        WRITE_BATCH_PER_STEP,
      )
      .toArray();
    if (rows.length === 0) return this.#switch(job);
    const keys = keysUnder(loadPrefix(job.id));
    await inGroups(rows, (r) => this.kv.put(keys.product(r.id), r.doc));
    await writeSearchRows(
      this.env.CATALOG_DB,
      job.id,
      rows.map((r) => searchRows(r.seq - 1, JSON.parse(r.doc) as IndexableProduct)),
    );
    const last = rows[rows.length - 1]?.seq ?? job.cursor;
    transaction(this.ctx.storage, () => {
      this.#sql.exec("DELETE FROM staged WHERE job = ? AND seq <= ?", job.id, last);
      this.#update(job.id, { cursor: last, written: last });
    });
  }

  /** The one switch: the manifest names the new prefix. What it replaced is recorded first, so a retry never takes itself for the old catalog. */
  async #switch(job: JobRow): Promise<void> {
    const prefix = loadPrefix(job.id);
    let servedAt = job.served_at;
    if (servedAt === null) {
      const previous = await this.kv.get<CatalogManifest>(KV_KEYS.manifest, "json");
      const old = previous ? (previous.keys ?? "") : null;
      servedAt = Date.now();
      this.#update(job.id, { clean_prefix: old === prefix ? null : old, served_at: servedAt });
    }
    await finishSearchTables(this.env.CATALOG_DB, job.id, job.products);
    const manifest: CatalogManifest = {
      version: job.version ?? "",
      currency: job.currency,
      products: job.products,
      loaded_at: new Date(servedAt).toISOString(),
      index_parts: job.index_parts,
      keys: prefix,
      search: job.id,
      stock_parts: stockPartCount(job.variants),
    };
    await this.kv.put(KV_KEYS.manifest, JSON.stringify(manifest));
    forgetServedCatalog();
    console.log(JSON.stringify({ event: "catalog_loaded", job: job.id, products: job.products, version: job.version }));
    this.#update(job.id, { phase: "cleaning", clean_after: Date.now() + this.cleanDelayMs });
  }

  /** Deletes a batch of the replaced (or discarded) catalog's keys; never those the manifest serves. */
  async #clean(job: JobRow): Promise<void> {
    const target = job.clean_prefix;
    const served = await this.kv.get<CatalogManifest>(KV_KEYS.manifest, "json");
    if (target === null || (served?.keys ?? "") === target) return this.#finish(job);
    const keys = keysUnder(target);
    const lists = target === "" ? [keys.productPrefix, keys.index] : [target];
    for (const prefix of lists) {
      const page = await this.kv.list({ prefix, limit: CLEAN_BATCH_PER_STEP });
      if (page.keys.length === 0) continue;
      await inGroups(page.keys, (k) => this.kv.delete(k.name));
      const products = page.keys.filter((k) => k.name.startsWith(keys.productPrefix)).length;
      this.#update(job.id, { removed: job.removed + products });
      return;
    }
    await this.kv.delete(keys.stock);
    // Its search tables last: the key of a load's tables is its id (loadPrefix(id)).
    if (target.startsWith(LOAD_KEY_PREFIX)) {
      const key = target.slice(LOAD_KEY_PREFIX.length, -1);
      await this.env.CATALOG_DB.batch(dropTablesSql(key).map((statement) => this.env.CATALOG_DB.prepare(statement)));
    }
    return this.#finish(job);
  }

  async #finish(job: JobRow): Promise<void> {
    this.#update(job.id, { phase: job.served_at === null ? "discarded" : "done", finished_at: Date.now() });
    await this.#deleteFile(job);
  }

  async #deleteFile(job: Pick<JobRow, "id" | "parts">): Promise<void> {
    const keys = Array.from({ length: job.parts }, (_, part) => uploadPartKey(job.id, part));
    if (keys.length > 0) await this.env.CATALOG_UPLOADS.delete(keys);
  }

  async #forgetOld(): Promise<void> {
    const old = this.#sql
      .exec<{ id: string; phase: string; bytes: number }>(
        "SELECT id, phase, bytes FROM jobs ORDER BY created_at DESC LIMIT -1 OFFSET ?",
        KEEP_JOBS,
      )
      .toArray()
      .filter((r) => !running(r.phase as JobView["phase"]));
    for (const { id, phase, bytes } of old) {
      // A load never started still holds the parts it received (receivePart takes no more than these).
      if (phase === "receiving") await this.#deleteFile({ id, parts: Math.ceil(bytes / UPLOAD_PART_BYTES) });
      this.#sql.exec("DELETE FROM problems WHERE job = ?", id);
      this.#sql.exec("DELETE FROM jobs WHERE id = ?", id);
    }
  }
}

class MissingPart extends Error {
  constructor(part: number) {
    super(`part ${part + 1} of the file never arrived; upload the file again`);
  }
}

async function inGroups<T>(items: readonly T[], run: (item: T) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < items.length; start += KV_CONCURRENCY) {
    await Promise.all(items.slice(start, start + KV_CONCURRENCY).map(run));
  }
}
