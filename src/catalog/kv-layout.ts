/**
 * KV key layout of the CATALOG namespace (written only by scripts/load-catalog.ts):
 *   catalog:manifest  {version, currency, products, loaded_at}: written last by a load
 *   catalog:index     SearchIndexData (search-index.ts): ids, categories, variant prices, postings
 *   product:<id>      one Product in the UCP shape (no `url`: composed from the origin)
 *   catalog:stock     {variant id: units on hand}, for inventory (never served)
 * A load writes products, index and stock, then the manifest, then deletes the product
 * keys of products no longer in the file (the Worker reaches products only through the
 * index, so a removed product is not served even before its key is gone).
 */
export const KV_KEYS = {
  manifest: "catalog:manifest",
  index: "catalog:index",
  stock: "catalog:stock",
  productPrefix: "product:",
  product: (id: string) => `product:${id}`,
} as const;

export interface CatalogManifest {
  readonly version: string;
  readonly currency: string;
  readonly products: number;
  readonly loaded_at: string;
}
