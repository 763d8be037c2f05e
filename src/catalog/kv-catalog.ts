/**
 * Catalog reads from KV (layout in kv-layout.ts). The hydrated index and product documents
 * are cached per isolate; the manifest is re-read at most every REFRESH_MS, so a new load
 * is picked up without a redeploy.
 */
import { type Product, ProductSchema } from "../../schemas/ucp/product";
import { Lru } from "../lib/lru";
import { SharedLoad } from "../lib/shared-load";
import { StorageUnavailable, unavailableUnlessCorrupt } from "../lib/storage-unavailable";
import { catalogKeys } from "./catalog-keys";
import { type CatalogManifest, KV_KEYS } from "./kv-layout";

import { type HydratedIndex, hydrate } from "./search-engine";
import type { SearchIndexData } from "./search-index";

export interface CatalogSnapshot {
  readonly manifest: CatalogManifest;
  readonly index: HydratedIndex;
}

const REFRESH_MS = 30_000;
/** Past this a joined request stops waiting for another request's refresh and reads KV itself. */
export const REFRESH_JOIN_MS = 5_000;
const PRODUCT_CACHE_ENTRIES = 2_000;

let current: { snapshot: CatalogSnapshot | null; checkedAt: number } | undefined;
const refreshes = new SharedLoad<CatalogSnapshot | null>(REFRESH_JOIN_MS);
const productCache = new Lru<string, Product>(PRODUCT_CACHE_ENTRIES);

/**
 * The catalog as of the last manifest check; null when no catalog was ever loaded. A refresh
 * whose KV read fails keeps the catalog the isolate has (the next request tries again);
 * without one, StorageUnavailable.
 */
export async function catalogSnapshot(kv: KVNamespace, now: number): Promise<CatalogSnapshot | null> {
  if (current && now - current.checkedAt < REFRESH_MS) return current.snapshot;
  try {
    // One refresh per isolate at a time: concurrent requests share it.
    return await refreshes.run(now, () => refresh(kv, now));
  } catch (e) {
    // A snapshot of "no catalog" is not served for a failed read: the store would look empty.
    if (!(e instanceof StorageUnavailable) || !current?.snapshot) throw e;
    console.error("catalog refresh failed; serving the snapshot from", new Date(current.checkedAt).toISOString(), e);
    return current.snapshot;
  }
}

const failed = unavailableUnlessCorrupt("catalog");

async function refresh(kv: KVNamespace, now: number): Promise<CatalogSnapshot | null> {
  const manifest = await kv.get<CatalogManifest>(KV_KEYS.manifest, "json").catch(failed);
  if (!manifest) {
    current = { snapshot: null, checkedAt: now };
    return null;
  }
  const previous = current?.snapshot;
  if (previous && previous.manifest.version === manifest.version) {
    current = { snapshot: previous, checkedAt: now };
    return previous;
  }
  const keys = catalogKeys(manifest);
  const data =
    manifest.index_parts === undefined
      ? await kv.get<SearchIndexData>(keys.index, "json").catch(failed)
      : await readIndexParts(kv, manifest.index_parts, keys.indexPart);
  const snapshot = data ? { manifest, index: hydrate(data) } : null;
  productCache.clear();
  current = { snapshot, checkedAt: now };
  return snapshot;
}

/** The index cut into parts by the loader (kv-layout.ts), read in parallel and joined. */
async function readIndexParts(
  kv: KVNamespace,
  parts: number,
  key: (i: number) => string,
): Promise<SearchIndexData | null> {
  const texts = await Promise.all(Array.from({ length: parts }, (_, i) => kv.get(key(i), "text").catch(failed)));
  if (texts.some((t) => t === null)) return null;
  return JSON.parse(texts.join("")) as SearchIndexData;
}

/**
 * Product documents by id (unknown or unreadable ids are absent from the map), from the
 * catalog this isolate serves: callers found the ids in that snapshot's index.
 */
export async function getProducts(kv: KVNamespace, ids: readonly string[]): Promise<Map<string, Product>> {
  const found = new Map<string, Product>();
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const hit = productCache.get(id);
    if (hit) found.set(id, hit);
    else missing.push(id);
  }
  if (missing.length === 0) return found;
  const keys = catalogKeys(current?.snapshot?.manifest);
  const raw = await kv.get(missing.map(keys.product), "json").catch(failed);
  for (const id of missing) {
    const parsed = ProductSchema.safeParse(raw.get(keys.product(id)));
    if (!parsed.success) continue;
    found.set(id, parsed.data);
    productCache.set(id, parsed.data);
  }
  return found;
}

/** Test hook: drop the isolate caches so the next call re-reads KV. */
export function resetCatalogCache(): void {
  current = undefined;
  refreshes.clear();
  productCache.clear();
}
