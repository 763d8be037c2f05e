/**
 * Loads one catalog file into the CATALOG namespace; shared by `catalog:load` and
 * `npm start`. Validation and the write order (documents, index, stock, manifest, then the
 * deletion of stale keys) are src/catalog/catalog-load.ts, which the console's upload runs too.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  type LoadResult,
  type Progress,
  type SearchStore,
  type ValidatedCatalog,
  validateSource,
  writeCatalog as writeToStore,
} from "../../src/catalog/catalog-load";
import { KV_KEYS } from "../../src/catalog/kv-layout";
import { readCatalogSource } from "./catalog-source";
import { type OpenSearchStore, openSearchStore } from "./d1-writer";
import { type KvStore, type KvTarget, openKvStore } from "./kv-writer";

export { type LoadResult, type Progress, type ValidatedCatalog, WRITE_BATCH } from "../../src/catalog/catalog-load";

/**
 * A full collection after each batch. Left alone, V8 let the garbage of writing 100,000
 * documents (Miniflare requests, JSON text) grow the process to 2 GB, though what it
 * keeps is about 350 MB; a collection per 5,000 documents costs a fraction of a second.
 */
const collectGarbage = (() => {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
})();

/** Reads and validates the whole file; `problems` is empty only for a catalog fit to load. */
export async function validateCatalogFile(file: string, currency: string, progress: Progress) {
  return validateSource(await readCatalogSource(file, currency, progress), currency, progress);
}

/** Writes a catalog that validated without problems as a new version, then collects replaced ones past their grace. */
export function writeCatalog(
  catalog: ValidatedCatalog,
  store: KvStore,
  search: SearchStore,
  currency: string,
  progress: Progress,
  options: { now?: Date; graceMs?: number } = {},
): Promise<LoadResult> {
  return writeToStore(catalog, store, search, currency, progress, { ...options, afterBatch: collectGarbage });
}

/** The local or remote CATALOG namespace and CATALOG_DB database, open for `run`. */
export async function withStores<T>(
  root: string,
  target: KvTarget,
  run: (store: KvStore, search: OpenSearchStore) => Promise<T>,
) {
  const store = await openKvStore(root, target);
  try {
    const search = await openSearchStore(root, target);
    try {
      return await run(store, search);
    } finally {
      await search.close();
    }
  } finally {
    await store.close();
  }
}

/** Whether the namespace holds a catalog (a manifest): `npm start` seeds only an empty one. */
export async function hasCatalog(store: KvStore): Promise<boolean> {
  return (await store.list(KV_KEYS.manifest)).includes(KV_KEYS.manifest);
}

export async function withKvStore<T>(root: string, target: KvTarget, run: (store: KvStore) => Promise<T>) {
  const store = await openKvStore(root, target);
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}
