/**
 * KV key layout of the CATALOG namespace (written only by scripts/load-catalog.ts):
 *   catalog:manifest  {version, currency, products, loaded_at, index_parts}: written last by a load
 *   catalog:index:<i> SearchIndexData (search-index.ts) as JSON text cut into index_parts
 *                     parts (a KV value holds at most 25 MiB; 100,000 products make ~34 MB)
 *   catalog:index     the whole index in one value, when the manifest has no index_parts
 *                     (loads before issue 9; tests and the benchmark seed it this way)
 *   product:<id>      one Product in the UCP shape (no `url`: composed from the origin)
 *   catalog:stock     {variant id: units on hand}, for inventory (never served)
 * A load writes products, index and stock, then the manifest, then deletes the product
 * keys of products no longer in the file (the Worker reaches products only through the
 * index, so a removed product is not served even before its key is gone).
 */
export const KV_KEYS = {
  manifest: "catalog:manifest",
  index: "catalog:index",
  indexPart: (i: number) => `catalog:index:${i}`,
  stock: "catalog:stock",
  productPrefix: "product:",
  product: (id: string) => `product:${id}`,
} as const;

export interface CatalogManifest {
  readonly version: string;
  readonly currency: string;
  readonly products: number;
  readonly loaded_at: string;
  /** How many catalog:index:<i> values hold the index; absent: it is in catalog:index. */
  readonly index_parts?: number;
}

/** UTF-16 units per index part: at most 3 UTF-8 bytes each, so a part stays under 25 MiB. */
export const INDEX_PART_CHARS = 8_000_000;
