/**
 * Loading a catalog into the CATALOG namespace, shared by `catalog:load`, `npm start` and the
 * console's upload. Two passes over the parsed source: the first validates every product
 * (and builds the search index and stock map), the second writes product documents in
 * batches. Nothing is written when any problem was found. After the manifest, keys of
 * products that are no longer in the source are deleted, so the store serves exactly it.
 */
import { createHash } from "node:crypto";
import { LOAD_KEY_PREFIX } from "./catalog-keys";
import type { CatalogSource, ReadResult } from "./catalog-source";
import { type CatalogManifest, INDEX_PART_CHARS, KV_KEYS } from "./kv-layout";
import { type CatalogProblem, CatalogValidator, type KvPair, servedProduct } from "./merchant-catalog";
import { buildSearchIndex, type IndexableProduct } from "./search-index";

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
}

export type Progress = (message: string) => void;

const PROGRESS_EVERY = 10_000;
/** Product documents per write: bounded memory, and well under the 10,000 of a remote bulk put. */
export const WRITE_BATCH = 5_000;

/** Validates a read source; `problems` is empty only for a catalog fit to load. */
export function validateSource(read: ReadResult, currency: string, progress: Progress): ValidatedCatalog {
  const { source, problems } = read;
  const validator = new CatalogValidator(currency);
  const hash = createHash("sha256");
  const ids = new Set<string>();
  let products = 0;
  let variants = 0;
  function* valid(): Generator<IndexableProduct> {
    for (const item of source.items()) {
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
      yield result.product;
    }
  }
  const index = JSON.stringify(buildSearchIndex(valid()));
  const stock = JSON.stringify(validator.stock);
  hash.update(stock);
  const version = hash.digest("hex").slice(0, 16);
  return { source, problems, products, variants, version, index, stock, ids };
}

export interface LoadResult {
  readonly written: number;
  readonly removed: number;
}

export interface WriteOptions {
  readonly now?: Date;
  /** Called after each batch is written (the loader collects garbage there). */
  readonly afterBatch?: () => void;
  /** Product documents per put; the console keeps it small so each put stays one request. */
  readonly batch?: number;
}

/** Keys a write of this catalog puts: its documents, the index parts, the stock map and the manifest. */
export function keysToWrite(catalog: ValidatedCatalog): number {
  return catalog.products + indexParts(catalog.index).length + 2;
}

/** Writes a catalog that validated without problems, then removes what the source no longer has. */
export async function writeCatalog(
  catalog: ValidatedCatalog,
  store: CatalogStore,
  currency: string,
  progress: Progress,
  options: WriteOptions = {},
): Promise<LoadResult> {
  if (catalog.problems.length > 0) throw new Error("refusing to write a catalog with problems");
  const size = options.batch ?? WRITE_BATCH;
  const total = catalog.products + Math.ceil(catalog.index.length / INDEX_PART_CHARS) + 1;
  let written = 0;
  let batch: KvPair[] = [];
  const flush = async () => {
    await store.put(batch);
    written += batch.length;
    batch = [];
    options.afterBatch?.();
    progress(`wrote ${written}/${total} keys`);
  };
  for (const item of catalog.source.items()) {
    const product = servedProduct(item.raw);
    batch.push({ key: KV_KEYS.product(product.id), value: JSON.stringify(product) });
    if (batch.length >= size) await flush();
  }
  const parts = indexParts(catalog.index);
  for (const [i, value] of parts.entries()) batch.push({ key: KV_KEYS.indexPart(i), value });
  batch.push({ key: KV_KEYS.stock, value: catalog.stock });
  await flush();
  const manifest: CatalogManifest = {
    version: catalog.version,
    currency,
    products: catalog.products,
    loaded_at: (options.now ?? new Date()).toISOString(),
    index_parts: parts.length,
  };
  // The manifest goes last: a reader that sees the new version finds its documents.
  await store.put([{ key: KV_KEYS.manifest, value: JSON.stringify(manifest) }]);
  // Stale documents go after it: the new index no longer names them, so nothing asks for them.
  const staleProducts = (await store.list(KV_KEYS.productPrefix)).filter(
    (key) => !catalog.ids.has(key.slice(KV_KEYS.productPrefix.length)),
  );
  // The one-value index of older loads, and parts beyond this load's count.
  const current = new Set(parts.map((_, i) => KV_KEYS.indexPart(i)));
  const staleIndex = (await store.list(KV_KEYS.index)).filter((key) => !current.has(key));
  // A console load's prefixed catalog (catalog-keys.ts): this unprefixed load replaced it.
  const staleLoads = await store.list(LOAD_KEY_PREFIX);
  const stale = [...staleProducts, ...staleIndex, ...staleLoads];
  for (let start = 0; start < stale.length; start += size) {
    await store.delete(stale.slice(start, start + size));
  }
  if (staleProducts.length > 0) progress(`removed ${staleProducts.length} products no longer in the file`);
  return { written, removed: staleProducts.length };
}

/** The index JSON cut for KV's value limit, never inside a surrogate pair. */
export function indexParts(json: string): string[] {
  const parts: string[] = [];
  for (let start = 0; start < json.length; ) {
    let end = Math.min(start + INDEX_PART_CHARS, json.length);
    const last = json.charCodeAt(end - 1);
    if (end < json.length && last >= 0xd800 && last <= 0xdbff) end--;
    parts.push(json.slice(start, end));
    start = end;
  }
  return parts.length > 0 ? parts : [json];
}
