/**
 * The catalog as a request that names its products needs it (cart pricing, completion's stock
 * levels, an order's line facts, a stock change): for a catalog searched on D1, a snapshot of
 * only the named products from the version's tables (catalog-d1.ts), so the isolate never
 * loads the KV index, which is ~340 MB at a million products (issue 28); for a catalog loaded
 * before issue 28 (its manifest names no tables), the KV index as before. Either way prices
 * and documents come from the served catalog, never from the request.
 */
import type { Product } from "../../schemas/ucp/product";
import { catalogSnapshot, getProducts } from "./kv-catalog";
import type { CatalogManifest } from "./kv-layout";
import type { HydratedIndex } from "./search-engine";
import { servedManifest, servedNamedCatalog } from "./search-served";

export interface NamedCatalog {
  readonly manifest: CatalogManifest;
  /** The named products' entries (a D1 catalog), or the whole KV index (an older one). */
  readonly index: HydratedIndex;
  /** Product documents by id, from this catalog's keys. */
  documents(ids: readonly string[]): Promise<Map<string, Product>>;
}

/** The catalog holding at least every product `ids` name (product id, variant id, SKU or handle). */
export async function namedCatalog(
  env: Pick<Env, "CATALOG" | "CATALOG_DB">,
  now: number,
  ids: readonly string[],
): Promise<NamedCatalog | null> {
  const named = await servedNamedCatalog(env.CATALOG, env.CATALOG_DB, now, ids);
  if (named) return named;
  const snapshot = await catalogSnapshot(env.CATALOG, now);
  return snapshot && { ...snapshot, documents: (docIds) => getProducts(env.CATALOG, docIds) };
}

/** The served catalog's manifest, without the KV index for a D1 catalog (as namedCatalog decides). */
export async function namedCatalogManifest(kv: KVNamespace, now: number): Promise<CatalogManifest | null> {
  const manifest = await servedManifest(kv, now);
  if (manifest?.search) return manifest;
  return (await catalogSnapshot(kv, now))?.manifest ?? null;
}
