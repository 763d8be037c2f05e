/**
 * The index entries of the products a request names, for namedCatalog (cart and checkout
 * pricing, an order's line facts, a console stock change) on a D1 catalog. A version's search
 * tables are written once, under a key no other load takes, before the manifest names them,
 * so the entries are kept per isolate (keyed by the tables' key and the ids): a checkout's
 * update reads D1 again only for ids it has not named before (issue 29, one binding call per
 * write fewer). Availability is not here: those callers take it from the inventory objects
 * (liveStock), never from the index; lookups and get_product read live states (catalog-d1.ts).
 */
import { Lru } from "../lib/lru";
import { unavailableUnlessCorrupt } from "../lib/storage-unavailable";
import { type IndexRow, indexDocsByDoc, namedHitsSql } from "./d1-index-rows";
import type { CatalogManifest } from "./kv-layout";
import { type HydratedIndex, hydrate } from "./search-engine";
import { searchTable } from "./search-tables";

/** A few hundred bytes each: the products of one request's lines. */
const ENTRIES = 1_000;
const cache = new Lru<string, HydratedIndex>(ENTRIES);

/**
 * Every product any id names (as product id, handle, variant id or SKU), with all its
 * variants, as catalog-d1.ts partialSnapshot finds them. A variant's availability flag is the
 * catalog file's, without the live states: no caller of this index reads it.
 */
export async function namedIndex(
  db: D1Database,
  manifest: CatalogManifest & { search: string },
  ids: readonly string[],
): Promise<HydratedIndex> {
  const wanted = JSON.stringify([...new Set(ids)].sort());
  const key = `${manifest.search}\n${wanted}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const d = searchTable(manifest.search, "doc");
  const v = searchTable(manifest.search, "var");
  const rows = (
    await db
      .prepare(
        `${namedHitsSql(d, v)}
        SELECT d.doc, d.id, d.handle, d.cats, x.id AS vid, x.sku, x.price, x.available
        FROM hit JOIN ${d} d ON d.doc = hit.doc JOIN ${v} x ON x.doc = d.doc
        ORDER BY d.doc, x.pos`,
      )
      .bind(wanted)
      .all<IndexRow>()
      .catch(unavailableUnlessCorrupt("catalog"))
  ).results;
  const docs = [...indexDocsByDoc(rows).values()];
  return cache.set(key, hydrate({ format: 1, docs, terms: {} }));
}

/** Test hook (and a catalog switch): forget every kept entry. */
export function forgetNamedIndexes(): void {
  cache.clear();
}
