/**
 * A D1 catalog version's index entries as its search tables hold them (search-tables.ts): one
 * row per variant, joined to its product, ordered by product then variant position. Shared by
 * the readers that rebuild IndexDocs from those rows (catalog-d1.ts, named-index.ts,
 * catalog-browse-d1.ts).
 */
import type { IndexDoc, IndexVariant } from "./search-index";

export type IndexRow = {
  doc: number;
  id: string;
  handle: string | null;
  cats: string;
  vid: string;
  sku: string | null;
  price: number;
  available: number;
};

/** `WITH hit AS (…)`: the docs any id in the JSON array ?1 names, as product id, handle, variant id or SKU. */
export function namedHitsSql(docTable: string, varTable: string): string {
  return `WITH hit AS (
          SELECT d.doc FROM json_each(?1) j JOIN ${docTable} d ON d.id = j.value
          UNION SELECT d.doc FROM json_each(?1) j JOIN ${docTable} d ON d.handle = j.value
          UNION SELECT x.doc FROM json_each(?1) j JOIN ${varTable} x ON x.id = j.value
          UNION SELECT x.doc FROM json_each(?1) j JOIN ${varTable} x ON x.sku = j.value)`;
}

/** The rows' products by doc number, variants in row order; the map keeps the rows' product order. */
export function indexDocsByDoc(rows: readonly IndexRow[]): Map<number, IndexDoc & { v: IndexVariant[] }> {
  const byDoc = new Map<number, IndexDoc & { v: IndexVariant[] }>();
  for (const r of rows) {
    let doc = byDoc.get(r.doc);
    if (!doc) {
      doc = { id: r.id, ...(r.handle ? { h: r.handle } : {}), cats: JSON.parse(r.cats) as string[], v: [] };
      byDoc.set(r.doc, doc);
    }
    doc.v.push([r.vid, r.sku, r.price, r.available === 1 ? 1 : 0]);
  }
  return byDoc;
}
