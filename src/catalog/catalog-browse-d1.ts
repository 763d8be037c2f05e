/**
 * The console's catalog list for a catalog on D1 (issue 28): a page of products read from the
 * version's search tables, never the whole KV index. The same finds, in the same order, as
 * catalog-browse.ts: the product or variant whose id or SKU is exactly the text (any case);
 * products whose title holds every word of it; then ids and SKUs that contain it. Up to
 * MAX_MATCHES doc numbers are ranked per search (a merchant narrows a broader one); the list
 * without a search reads its page alone.
 */
import { unavailableUnlessCorrupt } from "../lib/storage-unavailable";
import type { BrowsePage } from "./catalog-browse";
import { type IndexRow, indexDocsByDoc } from "./d1-index-rows";
import type { IndexDoc } from "./search-index";
import { searchTable } from "./search-tables";
import { ftsTerm } from "./search-words";
import { tokenize } from "./text";

const MAX_MATCHES = 10_000;
/** D1 not answering is the catalog being unavailable (503), as a failed KV read is. */
const failed = unavailableUnlessCorrupt("catalog");

export async function browseCatalogD1(
  db: D1Database,
  key: string,
  products: number,
  query: string,
  requested: number,
  perPage: number,
): Promise<BrowsePage> {
  const q = query.trim();
  const matches = q === "" ? undefined : await search(db, key, q);
  const total = matches ? matches.length : products;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const page = Math.min(pages, Math.max(1, requested));
  const from = (page - 1) * perPage;
  const wanted = matches
    ? matches.slice(from, from + perPage)
    : (
        await db
          .prepare(`SELECT doc FROM ${searchTable(key, "doc")} ORDER BY doc LIMIT ?1 OFFSET ?2`)
          .bind(perPage, from)
          .all<{ doc: number }>()
          .catch(failed)
      ).results.map((r) => r.doc);
  return { docs: await docsOf(db, key, wanted), total, page, pages };
}

/** Doc numbers matching `q`, best first, at most MAX_MATCHES. */
async function search(db: D1Database, key: string, q: string): Promise<number[]> {
  const d = searchTable(key, "doc");
  const v = searchTable(key, "var");
  const fts = searchTable(key, "fts");
  const lower = q.toLowerCase();
  const like = `%${lower.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const words = tokenize(q);
  const titled = words.map((w) => `title : ${ftsTerm(w, false)}`).join(" AND ");
  const rows = await db
    .prepare(
      `WITH m(doc, tier) AS (
        SELECT doc, 0 FROM ${d} WHERE id = ?1
        UNION ALL SELECT doc, 0 FROM ${v} WHERE id = ?1 OR sku = ?1
        UNION ALL SELECT doc, CASE WHEN lower(id) = ?2 THEN 0 ELSE 2 END FROM ${d} WHERE id LIKE ?3 ESCAPE '\\'
        UNION ALL SELECT doc, CASE WHEN lower(id) = ?2 OR lower(sku) = ?2 THEN 0 ELSE 2 END FROM ${v}
          WHERE id LIKE ?3 ESCAPE '\\' OR sku LIKE ?3 ESCAPE '\\'
        ${titled ? `UNION ALL SELECT rowid, 1 FROM ${fts} WHERE ${fts} MATCH ?4` : ""})
      SELECT doc FROM m GROUP BY doc ORDER BY MIN(tier), doc LIMIT ${MAX_MATCHES}`,
    )
    .bind(q, lower, like, ...(titled ? [titled] : []))
    .all<{ doc: number }>()
    .catch(failed);
  return rows.results.map((r) => r.doc);
}

/** These products' index entries (id, handle, categories, variants in merchant order), in the given order. */
async function docsOf(db: D1Database, key: string, docs: readonly number[]): Promise<IndexDoc[]> {
  if (docs.length === 0) return [];
  const rows = (
    await db
      .prepare(
        `SELECT d.doc, d.id, d.handle, d.cats, x.id AS vid, x.sku, x.price, x.available
         FROM ${searchTable(key, "doc")} d JOIN ${searchTable(key, "var")} x ON x.doc = d.doc
         WHERE d.doc IN (SELECT value FROM json_each(?1)) ORDER BY d.doc, x.pos`,
      )
      .bind(JSON.stringify(docs))
      .all<IndexRow>()
      .catch(failed)
  ).results;
  const byDoc = indexDocsByDoc(rows);
  return docs.flatMap((n) => byDoc.get(n) ?? []);
}
