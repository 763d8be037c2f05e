/**
 * KV key layout of the CATALOG namespace (written only by scripts/load-catalog.ts):
 *   catalog:manifest  {version, currency, products, loaded_at}: written last by a load
 *   catalog:index     SearchIndexData (search-index.ts): ids, categories, variant prices, postings
 *   product:<id>      one Product in the UCP shape (no `url`: composed from the origin)
 *   catalog:stock     {variant id: units on hand}, for inventory (never served)
 */
export const KV_KEYS = {
  manifest: "catalog:manifest",
  index: "catalog:index",
  stock: "catalog:stock",
  product: (id: string) => `product:${id}`,
} as const;

export interface CatalogManifest {
  readonly version: string;
  readonly currency: string;
  readonly products: number;
  readonly loaded_at: string;
}
