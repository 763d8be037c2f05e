/**
 * Loading a catalog into the CATALOG namespace, shared by `catalog:load`, `npm start` and the
 * console's upload. Two passes over the parsed source: the first validates every product
 * (and builds the search index and stock map), the second writes product documents and D1
 * search rows in batches, as a new version under its own keys. Nothing is written when any
 * problem was found. The manifest naming the version is the one switch (catalog-versions.ts).
 */
import { createHash } from "node:crypto";
import { keysUnder, loadPrefix } from "./catalog-keys";
import type { CatalogSource, ReadResult } from "./catalog-source";
import { collect, retire, type VersionStores } from "./catalog-versions";
import { type CatalogManifest, INDEX_PART_CHARS, KV_KEYS } from "./kv-layout";
import { type CatalogProblem, CatalogValidator, type KvPair, servedProduct } from "./merchant-catalog";
import { SearchIndexBuilder } from "./search-index";
import {
  createTablesSql,
  dropTablesSql,
  finishTablesSql,
  insertSql,
  newSearchKey,
  type SearchRows,
  STORE_TABLES_SQL,
  searchRows,
} from "./search-tables";
import {
  assertValueFits,
  KV_VALUE_LIMIT,
  stockPartCount,
  stockPartValues,
  VARIANTS_PER_STOCK_PART,
} from "./stock-parts";

export interface ValidatedCatalog {
  readonly source: CatalogSource;
  readonly problems: CatalogProblem[];
  readonly products: number;
  readonly variants: number;
  readonly version: string;
  /** Serialized: the search index and stock map are written as they are. */
  readonly index: string;
  readonly stock: string;
  readonly ids: ReadonlySet<string>;
}

/** Where a load writes: the local or remote namespace for the loader, the binding for the console. */
export interface CatalogStore {
  put(pairs: readonly KvPair[]): Promise<void>;
  /** Every key that starts with prefix. */
  list(prefix: string): Promise<string[]>;
  delete(keys: readonly string[]): Promise<void>;
  get(key: string): Promise<string | null>;
}

/** Where a load writes its D1 search tables: statements run in order as one batch (one transaction). */
export interface SearchStore {
  batch(statements: ReadonlyArray<{ statement: string; param?: string }>): Promise<void>;
  /** Products per insert batch this store takes (remote D1 statements hold at most 100 KB). */
  readonly rowsPerBatch: number;
}

export type Progress = (message: string) => void;

const PROGRESS_EVERY = 10_000;
const PAUSE_EVERY = 1_000;
/** Product documents per write: bounded memory, and well under the 10,000 of a remote bulk put. */
export const WRITE_BATCH = 5_000;

/** Validates a read source; `problems` is empty only for a catalog fit to load. */
export async function validateSource(
  read: ReadResult,
  currency: string,
  progress: Progress,
  /** Awaited every PAUSE_EVERY products: the console's load lets its isolate's other requests in. */
  pause?: () => Promise<void>,
): Promise<ValidatedCatalog> {
  const { source, problems } = read;
  const validator = new CatalogValidator(currency);
  const hash = createHash("sha256");
  const ids = new Set<string>();
  const index = new SearchIndexBuilder();
  let products = 0;
  let variants = 0;
  let seen = 0;
  for (const item of source.items()) {
    if (pause && ++seen % PAUSE_EVERY === 0) await pause();
    const result = validator.check(item.raw);
    if (result.problems) {
      for (const p of result.problems) problems.push({ where: item.where(p.variant), message: p.message });
      continue;
    }
    const json = JSON.stringify(result.product);
    hash.update(json);
    ids.add(result.product.id);
    products++;
    variants += result.product.variants.length;
    if (products % PROGRESS_EVERY === 0) progress(`validated ${products}/${source.products} products`);
    index.add(result.product);
  }
  const indexJson = JSON.stringify(index.data());
  const stock = JSON.stringify(validator.stock);
  hash.update(stock);
  const version = hash.digest("hex").slice(0, 16);
  return { source, problems, products, variants, version, index: indexJson, stock, ids };
}

export interface LoadResult {
  readonly written: number;
  /** Product documents of replaced versions deleted by this load's collection. */
  readonly removed: number;
  /** The key of this load's version: its KV prefix is load:<key>:, its search tables s_<key>_*. */
  readonly key: string;
  /** Replaced versions still inside their grace period (collected by a later load or --collect). */
  readonly waiting: number;
}

export interface WriteOptions {
  readonly now?: Date;
  /** Called after each batch is written (the loader collects garbage there). */
  readonly afterBatch?: () => void;
  /** Product documents per put; the console keeps it small so each put stays one request. */
  readonly batch?: number;
  /** How long a replaced version stays before it is collected (default GRACE_MS). */
  readonly graceMs?: number;
  /** The most one KV value may hold (default KV's 25 MiB): a load over it fails, unswitched. */
  readonly valueLimit?: number;
  /** Variants per part of the stock map (default VARIANTS_PER_STOCK_PART). */
  readonly variantsPerStockPart?: number;
}

/** Keys a write of this catalog puts: its documents, the index parts, the stock map's parts and the manifest. */
export function keysToWrite(catalog: ValidatedCatalog): number {
  return catalog.products + indexParts(catalog.index).length + stockPartCount(catalog.variants) + 1;
}

/**
 * Writes a catalog that validated without problems as a new version (issue 27 item 3): its
 * documents, index and stock under its own prefix and its search tables in D1, in batches with
 * progress, while the old version is served; then the manifest naming both, the one switch.
 * The replaced version is retired and collected after the grace period, with older ones.
 */
export async function writeCatalog(
  catalog: ValidatedCatalog,
  store: CatalogStore,
  search: SearchStore,
  currency: string,
  progress: Progress,
  options: WriteOptions = {},
): Promise<LoadResult> {
  if (catalog.problems.length > 0) throw new Error("refusing to write a catalog with problems");
  const now = options.now ?? new Date();
  const key = newSearchKey();
  const keys = keysUnder(loadPrefix(key));
  const size = options.batch ?? WRITE_BATCH;
  const limit = options.valueLimit ?? KV_VALUE_LIMIT;
  // Values KV would refuse fail the load before its first write (documents are checked as written).
  const stockCount = stockPartCount(catalog.variants, options.variantsPerStockPart ?? VARIANTS_PER_STOCK_PART);
  const stockParts = stockPartValues(JSON.parse(catalog.stock) as Record<string, number>, stockCount, limit);
  const parts = indexParts(catalog.index, Math.min(INDEX_PART_CHARS, Math.floor(limit / 3)));
  await search.batch(
    [
      ...STORE_TABLES_SQL,
      ...createTablesSql(key),
      "INSERT OR REPLACE INTO search_versions (key, created_at, products, retired_at) VALUES ('" +
        key +
        "', '" +
        now.toISOString() +
        "', 0, NULL)",
    ].map((statement) => ({ statement })),
  );
  let written = 0;
  let batch: KvPair[] = [];
  let rows: SearchRows[] = [];
  const flushRows = async () => {
    if (rows.length > 0) await search.batch(insertSql(key, rows));
    rows = [];
  };
  const flush = async () => {
    for (const { key, value } of batch) assertValueFits(key, value, limit);
    await store.put(batch);
    written += batch.length;
    batch = [];
    options.afterBatch?.();
    progress(`wrote ${written}/${catalog.products} products (documents and search rows)`);
  };
  let doc = 0;
  for (const item of catalog.source.items()) {
    const product = servedProduct(item.raw);
    batch.push({ key: keys.product(product.id), value: JSON.stringify(product) });
    rows.push(searchRows(doc++, product));
    if (rows.length >= search.rowsPerBatch) await flushRows();
    if (batch.length >= size) {
      await flushRows();
      await flush();
    }
  }
  await flushRows();
  if (batch.length > 0) await flush();
  progress("indexing the search tables");
  await search.batch(finishTablesSql(key).map((statement) => ({ statement })));
  await store.put([
    ...parts.map((value, i) => ({ key: keys.indexPart(i), value })),
    ...stockParts.map((value, i) => ({ key: keys.stockPart(i), value })),
  ]);
  const previousText = await store.get(KV_KEYS.manifest);
  const previous = previousText ? (JSON.parse(previousText) as CatalogManifest) : null;
  const manifest: CatalogManifest = {
    version: catalog.version,
    currency,
    products: catalog.products,
    loaded_at: now.toISOString(),
    index_parts: parts.length,
    keys: keys.prefix,
    search: key,
    stock_parts: stockParts.length,
  };
  // The one switch: readers see the old version whole, or this one whole.
  await store.put([{ key: KV_KEYS.manifest, value: JSON.stringify(manifest) }]);
  const stores = versionStores(store, search);
  await retire(stores, previous, now);
  const collected = await collect(stores, now, options.graceMs);
  if (collected.products > 0)
    progress(`removed ${collected.products} product documents of ${collected.versions} replaced catalog version(s)`);
  return { written, removed: collected.products, key, waiting: collected.waiting };
}

/** KV and D1 as a collection uses them. */
export function versionStores(store: CatalogStore, search: SearchStore): VersionStores {
  return {
    get: (k) => store.get(k),
    put: (pairs) => store.put(pairs),
    list: (prefix) => store.list(prefix),
    delete: (keys) => store.delete(keys),
    dropSearch: (k) =>
      search.batch([
        ...dropTablesSql(k).map((statement) => ({ statement })),
        ...STORE_TABLES_SQL.map((statement) => ({ statement })),
        { statement: `DELETE FROM search_versions WHERE key = '${k.replace(/[^0-9a-z]/g, "")}'` },
      ]),
  };
}

/** The index JSON cut for KV's value limit, never inside a surrogate pair. */
export function indexParts(json: string, maxChars = INDEX_PART_CHARS): string[] {
  const parts: string[] = [];
  for (let start = 0; start < json.length; ) {
    let end = Math.min(start + maxChars, json.length);
    const last = json.charCodeAt(end - 1);
    if (end < json.length && last >= 0xd800 && last <= 0xdbff) end--;
    parts.push(json.slice(start, end));
    start = end;
  }
  return parts.length > 0 ? parts : [json];
}
