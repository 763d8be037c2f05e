/**
 * KV key layout of the CATALOG namespace (written by scripts/load-catalog.ts; catalog:availability
 * and availability:<variant id> by InventoryObject):
 *   catalog:manifest  {version, currency, products, loaded_at, index_parts}: written last by a load
 *   catalog:index:<i> SearchIndexData (search-index.ts) as JSON text cut into index_parts
 *                     parts (a KV value holds at most 25 MiB; 100,000 products make ~34 MB)
 *   catalog:index     the whole index in one value, when the manifest has no index_parts
 *                     (loads before issue 9; tests and the benchmark seed it this way)
 *   product:<id>      one Product in the UCP shape (no `url`: composed from the origin)
 *   catalog:stock     {variant id: units on hand}, for inventory (never served); loads since
 *                     issue 28 write it in parts, <prefix>stock:<i> (stock-parts.ts)
 *   catalog:availability  AvailabilityDoc, written only by the store-wide InventoryObject
 *                     (docs/inventory.md): live sell-outs and restocks that search and lookup
 *                     lay over the index. Since stock is sharded (issue 14) only releases of
 *                     reservations made before that rewrite it; kept and read so a store keeps
 *                     what it published
 *   availability:<variant id>  "" with VariantAvailability metadata, written by that variant's
 *                     stock shard when its sold-out/restocked state changes; read with one
 *                     list({prefix}) per refresh (metadata comes with the listing, no value
 *                     reads) and laid over catalog:availability: a key wins for its variant
 *   load:<load id>:…  a console load's catalog (product:<id>, index:<i>, stock), served once
 *                     the manifest names its prefix (catalog-keys.ts)
 * A load writes products, index and stock, then the manifest, then deletes the product
 * keys of products no longer in the file (the Worker reaches products only through the
 * index, so a removed product is not served even before its key is gone).
 */
export const KV_KEYS = {
  manifest: "catalog:manifest",
  index: "catalog:index",
  indexPart: (i: number) => `catalog:index:${i}`,
  stock: "catalog:stock",
  availability: "catalog:availability",
  variantAvailabilityPrefix: "availability:",
  variantAvailability: (variantId: string) => `availability:${variantId}`,
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
  /** The prefix of this catalog's keys (`load:<id>:`, catalog-keys.ts); absent: the unprefixed keys. */
  readonly keys?: string;
  /** The key of this catalog's D1 search tables (search-tables.ts); absent: search reads the KV index. */
  readonly search?: string;
  /** How many parts hold the stock map (`<prefix>stock:<i>`, stock-parts.ts); absent: the one `stock` value. */
  readonly stock_parts?: number;
}

/** UTF-16 units per index part: at most 3 UTF-8 bytes each, so a part stays under 25 MiB. */
export const INDEX_PART_CHARS = 8_000_000;

/**
 * What InventoryObject publishes: variant id → the catalog load (stockVersion) its count is
 * from. A variant counted from an older load than the current manifest's is ignored: that
 * load restated its stock.
 */
export interface AvailabilityDoc {
  readonly updated_at: string;
  /** Tracked variants with no unit left. */
  readonly sold_out: Readonly<Record<string, string>>;
  /** Variants a merchant restocked that have units again (the file may say out_of_stock). */
  readonly restocked: Readonly<Record<string, string>>;
}

/**
 * A stock shard's published state, the metadata of `availability:<variant id>` (kept short:
 * metadata is at most 1,024 bytes). `s`: sold_out (tracked, none left), restocked (a merchant
 * restocked it and it has units), in_stock (neither; written so it overrides an entry the
 * store-wide document still holds). `v`: the catalog load (stockVersion) the count is from.
 */
export interface VariantAvailability {
  readonly s: "sold_out" | "restocked" | "in_stock";
  readonly v: string;
}
