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
import type { CatalogManifest } from "./kv-layout";
import { type HydratedIndex, hydrate } from "./search-engine";
import type { IndexDoc, IndexVariant } from "./search-index";
import { searchTable } from "./search-tables";

/** A few hundred bytes each: the products of one request's lines. */
const ENTRIES = 1_000;
const cache = new Lru<string, HydratedIndex>(ENTRIES);

type Row = {
  doc: number;
  id: string;
  handle: string | null;
  cats: string;
  vid: string;
  sku: string | null;
  price: number;
  available: number;
};

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
        `WITH hit AS (
          SELECT d.doc FROM json_each(?1) j JOIN ${d} d ON d.id = j.value
          UNION SELECT d.doc FROM json_each(?1) j JOIN ${d} d ON d.handle = j.value
          UNION SELECT x.doc FROM json_each(?1) j JOIN ${v} x ON x.id = j.value
          UNION SELECT x.doc FROM json_each(?1) j JOIN ${v} x ON x.sku = j.value)
        SELECT d.doc, d.id, d.handle, d.cats, x.id AS vid, x.sku, x.price, x.available
        FROM hit JOIN ${d} d ON d.doc = hit.doc JOIN ${v} x ON x.doc = d.doc
        ORDER BY d.doc, x.pos`,
      )
      .bind(wanted)
      .all<Row>()
      .catch(unavailableUnlessCorrupt("catalog"))
  ).results;
  const docs: IndexDoc[] = [];
  let last: { doc: number; v: IndexVariant[] } | undefined;
  for (const r of rows) {
    if (last?.doc !== r.doc) {
      last = { doc: r.doc, v: [] };
      docs.push({ id: r.id, ...(r.handle ? { h: r.handle } : {}), cats: JSON.parse(r.cats) as string[], v: last.v });
    }
    last.v.push([r.vid, r.sku, r.price, r.available === 1 ? 1 : 0]);
  }
  return cache.set(key, hydrate({ format: 1, docs, terms: {} }));
}

/** Test hook (and a catalog switch): forget every kept entry. */
export function forgetNamedIndexes(): void {
  cache.clear();
}
