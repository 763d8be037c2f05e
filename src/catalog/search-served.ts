/**
 * search_catalog for a catalog whose manifest names D1 search tables (`search`, kv-layout.ts):
 * the manifest alone is cached per isolate, D1 answers the ranked, filtered page, and the page's
 * documents come from KV under the same manifest's prefix, so one read of the pointer decides
 * both: never a mix of two catalogs. Per-isolate memory is the manifest, the live availability
 * sets and a bounded document cache, whatever the catalog's size.
 */
import type { Product } from "../../schemas/ucp/product";
import { Lru } from "../lib/lru";
import { unavailableUnlessCorrupt } from "../lib/storage-unavailable";
import { AVAILABILITY_REFRESH_MS, liveFromD1, withLiveAvailability } from "./availability";
import { type PartialSnapshot, partialSnapshot } from "./catalog-d1";
import { catalogKeys } from "./catalog-keys";
import { encodeCursor } from "./cursor";
import { type CatalogManifest, KV_KEYS } from "./kv-layout";
import type { NamedCatalog } from "./named-catalog";
import { namedIndex } from "./named-index";
import { withVariants } from "./product-view";
import type { SearchPage, SearchPlan } from "./search";
import { searchD1 } from "./search-d1";
import { stockVersion } from "./stock-keys";

const REFRESH_MS = 30_000;
const DOCUMENT_CACHE_ENTRIES = 2_000;

let manifestCache: { manifest: CatalogManifest | null; checkedAt: number } | undefined;
/** Keyed by the catalog's prefix and id: a switch never serves the old catalog's document. */
const documents = new Lru<string, Product>(DOCUMENT_CACHE_ENTRIES);
const failed = unavailableUnlessCorrupt("catalog");

/** The served manifest, re-read at most every 30 s (as the KV index's snapshot is). */
export async function servedManifest(kv: KVNamespace, now: number): Promise<CatalogManifest | null> {
  if (manifestCache && now - manifestCache.checkedAt < REFRESH_MS) return manifestCache.manifest;
  try {
    const manifest = await kv.get<CatalogManifest>(KV_KEYS.manifest, "json").catch(failed);
    manifestCache = { manifest, checkedAt: now };
  } catch (e) {
    if (!manifestCache?.manifest) throw e;
    console.error("catalog manifest refresh failed; serving the one read before", e);
  }
  return manifestCache?.manifest ?? null;
}

/** Minor-unit digits of a currency (USD 2, JPY 0), for price words in queries. */
export function fractionDigits(currency: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * The page from D1 when the served manifest names search tables; undefined when it does not
 * (the caller searches the KV index). Tables dropped under an isolate's cached manifest (a
 * version collected while this isolate still served it) mean a newer manifest: read it, once.
 */
export async function searchServed(
  kv: KVNamespace,
  db: D1Database,
  now: number,
  plan: SearchPlan,
  origin: string,
): Promise<SearchPage | undefined> {
  for (let attempt = 0; ; attempt++) {
    const manifest = await servedManifest(kv, now);
    const key = manifest?.search;
    if (!manifest || !key) return undefined;
    try {
      return await runD1Search(kv, db, { ...manifest, search: key }, plan, origin);
    } catch (e) {
      if (attempt > 0 || !/no such table/.test(String(e))) throw e;
      manifestCache = undefined;
    }
  }
}

/**
 * lookup_catalog's and get_product's catalog when the served manifest names search tables: a
 * snapshot of only the products `ids` name (catalog-d1.ts); undefined: the KV index serves.
 */
export async function servedSnapshot(
  kv: KVNamespace,
  db: D1Database,
  now: number,
  ids: readonly string[],
): Promise<PartialSnapshot | undefined> {
  for (let attempt = 0; ; attempt++) {
    const manifest = await servedManifest(kv, now);
    const key = manifest?.search;
    if (!manifest || !key) return undefined;
    try {
      return await partialSnapshot(db, { ...manifest, search: key }, ids, (docIds) => productsOf(kv, manifest, docIds));
    } catch (e) {
      if (attempt > 0 || !/no such table/.test(String(e))) throw e;
      manifestCache = undefined;
    }
  }
}

/**
 * namedCatalog's view of a D1 catalog: the named products' index entries (kept per isolate,
 * named-index.ts) and their documents; undefined: the KV index serves. Retried once on
 * dropped tables, as servedSnapshot is.
 */
export async function servedNamedCatalog(
  kv: KVNamespace,
  db: D1Database,
  now: number,
  ids: readonly string[],
): Promise<NamedCatalog | undefined> {
  for (let attempt = 0; ; attempt++) {
    const manifest = await servedManifest(kv, now);
    const key = manifest?.search;
    if (!manifest || !key) return undefined;
    try {
      const index = await namedIndex(db, { ...manifest, search: key }, ids);
      return { manifest, index, documents: (docIds) => productsOf(kv, manifest, docIds) };
    } catch (e) {
      if (attempt > 0 || !/no such table/.test(String(e))) throw e;
      manifestCache = undefined;
    }
  }
}

export async function runD1Search(
  kv: KVNamespace,
  db: D1Database,
  manifest: CatalogManifest & { search: string },
  plan: SearchPlan,
  origin: string,
): Promise<SearchPage> {
  const result = await searchD1(db, {
    key: manifest.search,
    stockVersion: stockVersion(manifest),
    query: plan.query,
    filter: plan.filter,
    offset: plan.offset,
    limit: plan.limit,
    fractionDigits: fractionDigits(manifest.currency),
  });
  const docs = await productsOf(
    kv,
    manifest,
    result.hits.map((h) => h.id),
  );
  // Shown as the filter saw them: the same table, read now (unless it holds nothing for this
  // load, which an isolate re-checks every AVAILABILITY_REFRESH_MS: one query fewer a search).
  const version = stockVersion(manifest);
  const live = (await anyLive(db, version, Date.now()))
    ? await liveFromD1(
        db,
        version,
        [...docs.values()].flatMap((p) => p.variants.map((v) => v.id)),
      )
    : { soldOut: new Set<string>(), restocked: new Set<string>() };
  const products: Product[] = [];
  for (const hit of result.hits) {
    const product = docs.get(hit.id);
    const variant = product ? withLiveAvailability(product, live).variants[hit.variant] : undefined;
    if (product && variant) products.push(withVariants(product, origin, [variant]));
  }
  const next = plan.offset + result.hits.length;
  const hasNext = result.more;
  const counted = result.total === undefined ? {} : { total_count: result.total };
  return {
    products,
    pagination: hasNext
      ? { has_next_page: true, cursor: encodeCursor(next, plan.fingerprint), ...counted }
      : { has_next_page: false, ...counted },
    messages: plan.messages,
  };
}

let liveSeen: { version: string; any: boolean; checkedAt: number } | undefined;

/** Whether any shard published a state counted from this load or later (cached for seconds). */
async function anyLive(db: D1Database, version: string, now: number): Promise<boolean> {
  if (liveSeen && liveSeen.version === version && now - liveSeen.checkedAt < AVAILABILITY_REFRESH_MS)
    return liveSeen.any;
  const row = await db
    .prepare("SELECT EXISTS(SELECT 1 FROM search_live WHERE v >= ? AND s <> 'in_stock') AS any")
    .bind(version)
    .first<{ any: number }>()
    .catch(() => null);
  liveSeen = { version, any: row?.any === 1, checkedAt: now };
  return liveSeen.any;
}

/** The documents under this manifest's keys (documents are stored validated: catalog-load.ts). */
export async function productsOf(kv: KVNamespace, manifest: CatalogManifest, ids: readonly string[]) {
  const keys = catalogKeys(manifest);
  const found = new Map<string, Product>();
  const missing = ids.filter((id) => {
    const hit = documents.get(keys.product(id));
    if (hit) found.set(id, hit);
    return !hit;
  });
  if (missing.length === 0) return found;
  const raw = await kv.get<Product>(missing.map(keys.product), "json").catch(failed);
  for (const id of missing) {
    const product = raw.get(keys.product(id));
    if (!product) continue;
    found.set(id, product);
    documents.set(keys.product(id), product);
  }
  return found;
}

/** The next request re-reads the manifest (the isolate that saw a load switch the catalog). */
export function forgetServedManifest(): void {
  manifestCache = undefined;
}

/** Test hook. */
export function resetServedManifest(): void {
  manifestCache = undefined;
  liveSeen = undefined;
  documents.clear();
}
