/**
 * lookup_catalog and get_product for a catalog searched on D1 (issue 28): the products a
 * request names (by product id, variant id, SKU or handle) are read from the version's search
 * tables into a snapshot holding only them, with their live availability, so these tools never
 * load the KV index into the isolate. The tools' own resolution rules run on it unchanged.
 */
import type { Product } from "../../schemas/ucp/product";
import { unavailableUnlessCorrupt } from "../lib/storage-unavailable";
import type { LiveSnapshot } from "./availability";
import { type IndexRow, indexDocsByDoc, namedHitsSql } from "./d1-index-rows";
import type { CatalogManifest } from "./kv-layout";
import { hydrate } from "./search-engine";
import { searchTable } from "./search-tables";
import { stockVersion } from "./stock-keys";

export interface PartialSnapshot extends LiveSnapshot {
  /** The documents of this catalog version (its own KV keys). */
  readonly documents: (ids: readonly string[]) => Promise<Map<string, Product>>;
}

type Row = IndexRow & { s: string | null };

export async function partialSnapshot(
  db: D1Database,
  manifest: CatalogManifest & { search: string },
  ids: readonly string[],
  documents: PartialSnapshot["documents"],
): Promise<PartialSnapshot> {
  const d = searchTable(manifest.search, "doc");
  const v = searchTable(manifest.search, "var");
  const version = stockVersion(manifest);
  const wanted = JSON.stringify([...new Set(ids)]);
  // Every product any id names (as product id, handle, variant id or SKU), with all its variants.
  const rows = (
    await db
      .prepare(
        `${namedHitsSql(d, v)}
        SELECT d.doc, d.id, d.handle, d.cats, x.id AS vid, x.sku, x.price,
          CASE WHEN l.v >= ?2 AND l.s = 'sold_out' THEN 0 WHEN l.v >= ?2 AND l.s = 'restocked' THEN 1 ELSE x.available END AS available,
          CASE WHEN l.v >= ?2 THEN l.s END AS s
        FROM hit JOIN ${d} d ON d.doc = hit.doc JOIN ${v} x ON x.doc = d.doc
          LEFT JOIN search_live l ON l.variant_id = x.id
        ORDER BY d.doc, x.pos`,
      )
      .bind(wanted, version)
      .all<Row>()
      .catch(unavailableUnlessCorrupt("catalog"))
  ).results;
  const docs = [...indexDocsByDoc(rows).values()];
  const soldOut = new Set<string>();
  const restocked = new Set<string>();
  for (const r of rows) {
    if (r.s === "sold_out") soldOut.add(r.vid);
    if (r.s === "restocked") restocked.add(r.vid);
  }
  return {
    manifest,
    index: hydrate({ format: 1, docs, terms: {} }),
    live: { soldOut, restocked },
    documents,
  };
}
