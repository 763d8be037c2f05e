/**
 * A load's steps, one per alarm run (src/catalog/catalog-job.ts has the phases): check the
 * file and stage its documents, write a batch of them under the load's own prefix, switch the
 * manifest to it, clean what it replaced. Each reads its row as the alarm found it and
 * records its progress in the object's store, so a step that fails is run again from there.
 */
import {
  CLEAN_BATCH_PER_STEP,
  checkUpload,
  type UploadKind,
  uploadPartKey,
  WRITE_BATCH_PER_STEP,
} from "../../src/catalog/catalog-job";
import { keysUnder, LOAD_KEY_PREFIX, loadPrefix } from "../../src/catalog/catalog-keys";
import { indexParts } from "../../src/catalog/catalog-load";
import { type CatalogManifest, KV_KEYS } from "../../src/catalog/kv-layout";
import { servedProduct } from "../../src/catalog/merchant-catalog";
import type { IndexableProduct } from "../../src/catalog/search-index";
import {
  createSearchTables,
  dropTablesSql,
  finishSearchTables,
  searchRows,
  writeSearchRows,
} from "../../src/catalog/search-tables";
import { forgetServedCatalog } from "../../src/catalog/served-cache";
import { stockPartCount, stockPartValues } from "../../src/catalog/stock-parts";
import { nextIoTurn } from "../../src/lib/io-turn";
import type { ObjectStore } from "../shared/kernel";
import { type JobRow, saveProblems, stage, stagedAfter, updateJob } from "./jobs-sql";

const KV_CONCURRENCY = 32;
/** Documents staged per transaction (stageAll). */
const STAGE_BATCH = 2_000;

/** What the steps work with: the object's env, store and the catalog namespace its tests may replace. */
export interface LoadContext {
  readonly env: Env;
  readonly kv: KVNamespace;
  readonly store: ObjectStore;
  readonly cleanDelayMs: number;
}

/** The step `job`'s phase is at. */
export function runStep(load: LoadContext, job: JobRow): Promise<void> {
  if (job.phase === "checking") return check(load, job);
  if (job.phase === "writing") return write(load, job);
  return clean(load, job);
}

export function update(load: LoadContext, id: string, fields: Partial<JobRow>): void {
  load.store.transaction((sql) => updateJob(sql, id, fields));
}

async function check(load: LoadContext, job: JobRow): Promise<void> {
  let catalog: Awaited<ReturnType<typeof checkUpload>>;
  try {
    catalog = await checkUpload(fileText(load.env, job), job.kind as UploadKind, job.currency, (rows) =>
      update(load, job.id, { checked_rows: rows }),
    );
  } catch (e) {
    if (!(e instanceof MissingPart)) throw e;
    catalog = { problems: [{ where: "file", message: e.message }] } as Awaited<ReturnType<typeof checkUpload>>;
  }
  if (catalog.problems.length > 0) {
    load.store.transaction((sql) => {
      saveProblems(sql, job.id, catalog.problems);
      updateJob(sql, job.id, { phase: "refused", problems: catalog.problems.length, finished_at: Date.now() });
    });
    return deleteFile(load.env, job);
  }
  const keys = keysUnder(loadPrefix(job.id));
  await stageAll(load, job.id, catalog.source.items());
  const parts = indexParts(catalog.index);
  // The stock map in parts (stock-parts.ts), sized from the variant count the switch reads back.
  const stock = stockPartValues(JSON.parse(catalog.stock), stockPartCount(catalog.variants));
  await inGroups(
    [
      ...parts.map((value, i) => ({ key: keys.indexPart(i), value })),
      ...stock.map((value, i) => ({ key: keys.stockPart(i), value })),
    ],
    (p) => load.kv.put(p.key, p.value),
  );
  // The load's D1 search tables (issue 28), filled a batch per step beside the documents.
  await createSearchTables(load.env.CATALOG_DB, job.id, new Date());
  const { products, variants, version } = catalog;
  update(load, job.id, {
    phase: "writing",
    products,
    variants,
    version,
    index_parts: parts.length,
    cursor: 0,
    written: 0,
  });
}

async function write(load: LoadContext, job: JobRow): Promise<void> {
  const rows = load.store.read([], (sql) => stagedAfter(sql, job.id, job.cursor, WRITE_BATCH_PER_STEP));
  if (rows.length === 0) return switchTo(load, job);
  const keys = keysUnder(loadPrefix(job.id));
  await inGroups(rows, (r) => load.kv.put(keys.product(r.id), r.doc));
  const search = rows.map((r) => searchRows(r.seq - 1, JSON.parse(r.doc) as IndexableProduct));
  await writeSearchRows(load.env.CATALOG_DB, job.id, search);
  const last = rows[rows.length - 1]?.seq ?? job.cursor;
  load.store.transaction((sql) => {
    sql.exec("DELETE FROM staged WHERE job = ? AND seq <= ?", job.id, last);
    updateJob(sql, job.id, { cursor: last, written: last });
  });
}

/** The one switch: the manifest names the new prefix. What it replaced is recorded first, so a retry never takes itself for the old catalog. */
async function switchTo(load: LoadContext, job: JobRow): Promise<void> {
  const prefix = loadPrefix(job.id);
  let servedAt = job.served_at;
  if (servedAt === null) {
    const previous = await load.kv.get<CatalogManifest>(KV_KEYS.manifest, "json");
    const old = previous ? (previous.keys ?? "") : null;
    servedAt = Date.now();
    update(load, job.id, { clean_prefix: old === prefix ? null : old, served_at: servedAt });
  }
  await finishSearchTables(load.env.CATALOG_DB, job.id, job.products);
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
  await load.kv.put(KV_KEYS.manifest, JSON.stringify(manifest));
  forgetServedCatalog();
  console.log(JSON.stringify({ event: "catalog_loaded", job: job.id, products: job.products, version: job.version }));
  update(load, job.id, { phase: "cleaning", clean_after: Date.now() + load.cleanDelayMs });
}

/** Deletes a batch of the replaced (or discarded) catalog's keys; never those the manifest serves. */
async function clean(load: LoadContext, job: JobRow): Promise<void> {
  const target = job.clean_prefix;
  const served = await load.kv.get<CatalogManifest>(KV_KEYS.manifest, "json");
  if (target === null || (served?.keys ?? "") === target) return finish(load, job);
  const keys = keysUnder(target);
  const lists = target === "" ? [keys.productPrefix, keys.index] : [target];
  for (const prefix of lists) {
    const page = await load.kv.list({ prefix, limit: CLEAN_BATCH_PER_STEP });
    if (page.keys.length === 0) continue;
    await inGroups(page.keys, (k) => load.kv.delete(k.name));
    const products = page.keys.filter((k) => k.name.startsWith(keys.productPrefix)).length;
    update(load, job.id, { removed: job.removed + products });
    return;
  }
  await load.kv.delete(keys.stock);
  // Its search tables last: the key of a load's tables is its id (loadPrefix(id)).
  if (target.startsWith(LOAD_KEY_PREFIX)) {
    const db = load.env.CATALOG_DB;
    await db.batch(dropTablesSql(target.slice(LOAD_KEY_PREFIX.length, -1)).map((statement) => db.prepare(statement)));
  }
  return finish(load, job);
}

async function finish(load: LoadContext, job: JobRow): Promise<void> {
  update(load, job.id, { phase: job.served_at === null ? "discarded" : "done", finished_at: Date.now() });
  await deleteFile(load.env, job);
}

/** The upload's parts in R2: deleted once a load no longer needs them. */
export async function deleteFile(env: Env, job: Pick<JobRow, "id" | "parts">): Promise<void> {
  const keys = Array.from({ length: job.parts }, (_, part) => uploadPartKey(job.id, part));
  if (keys.length > 0) await env.CATALOG_UPLOADS.delete(keys);
}

async function* fileText(env: Env, job: JobRow): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  for (let part = 0; part < job.parts; part++) {
    const object = await env.CATALOG_UPLOADS.get(uploadPartKey(job.id, part));
    if (!object) throw new MissingPart(part);
    for await (const chunk of object.body as unknown as AsyncIterable<Uint8Array>) {
      yield decoder.decode(chunk, { stream: true });
      // Parsing a chunk is all CPU: a turn between chunks lets the isolate's other requests in.
      await nextIoTurn();
    }
  }
  yield decoder.decode();
}

class MissingPart extends Error {
  constructor(part: number) {
    super(`part ${part + 1} of the file never arrived; upload the file again`);
  }
}

/**
 * The checked documents into the staging table, STAGE_BATCH to a transaction with a turn of
 * the event loop between: one transaction of every product held the object (and, locally,
 * every request the isolate serves) for the whole of it. The first batch clears what an
 * earlier try of this step staged, and the phase moves on only after the last.
 */
async function stageAll(load: LoadContext, job: string, items: Iterable<{ raw: unknown }>): Promise<void> {
  let seq = 0;
  let batch: Array<{ id: string }> = [];
  const flush = async () => {
    const from = seq;
    const docs = batch;
    batch = [];
    seq += docs.length;
    load.store.transaction((sql) => stage(sql, job, docs, from));
    await nextIoTurn();
  };
  for (const item of items) {
    batch.push(servedProduct(item.raw));
    if (batch.length === STAGE_BATCH) await flush();
  }
  await flush();
}

async function inGroups<T>(items: readonly T[], run: (item: T) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < items.length; start += KV_CONCURRENCY) {
    await Promise.all(items.slice(start, start + KV_CONCURRENCY).map(run));
  }
}
