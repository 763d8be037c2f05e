/**
 * The console's catalog list: every product in catalog order, or those a merchant's search
 * names, a page at a time. One function, so moving search to D1 (issue 28) replaces it here.
 *
 * A search finds, in this order: the product or variant whose id or SKU is exactly the text
 * (any case); products whose title holds every word of it (the buyer search's tokens); then
 * variant ids and SKUs that contain it. Linear in the catalog (100,000 products: a few ms).
 */
import type { HydratedIndex } from "./search-engine";
import type { IndexDoc } from "./search-index";
import { tokenize } from "./text";

export interface BrowsePage {
  readonly docs: readonly IndexDoc[];
  /** Products matching (all of them without a search). */
  readonly total: number;
  readonly page: number;
  readonly pages: number;
}

/** Past this many matches a search stops collecting: the merchant narrows it. */
const MAX_MATCHES = 10_000;

export function browseCatalog(index: HydratedIndex, query: string, page: number, perPage: number): BrowsePage {
  const q = query.trim();
  const matches = q === "" ? undefined : search(index, q);
  const total = matches ? matches.length : index.docs.length;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const at = Math.min(pages, Math.max(1, page));
  const slice = (from: number) =>
    matches
      ? matches.slice(from, from + perPage).map((i) => index.docs[i] as IndexDoc)
      : index.docs.slice(from, from + perPage);
  return { docs: slice((at - 1) * perPage), total, page: at, pages };
}

function search(index: HydratedIndex, q: string): number[] {
  const found: number[] = [];
  const seen = new Set<number>();
  const add = (doc: number | undefined) => {
    if (doc === undefined || seen.has(doc) || found.length >= MAX_MATCHES) return;
    seen.add(doc);
    found.push(doc);
  };
  const lower = q.toLowerCase();
  add(index.productIds.get(q));
  add(index.variantRefs.get(q)?.doc);
  for (const [i, doc] of index.docs.entries()) {
    if (
      doc.id.toLowerCase() === lower ||
      doc.v.some(([id, sku]) => id.toLowerCase() === lower || sku?.toLowerCase() === lower)
    )
      add(i);
  }
  for (const doc of titleMatches(index, q)) add(doc);
  for (const [i, doc] of index.docs.entries()) {
    if (found.length >= MAX_MATCHES) break;
    if (
      doc.id.toLowerCase().includes(lower) ||
      doc.v.some(([id, sku]) => id.toLowerCase().includes(lower) || sku?.toLowerCase().includes(lower))
    )
      add(i);
  }
  return found;
}

/** Products whose title has every token of the query (tier 0 of the index's postings), in catalog order. */
function titleMatches(index: HydratedIndex, q: string): number[] {
  const tokens = tokenize(q);
  if (tokens.length === 0) return [];
  let docs: Set<number> | undefined;
  for (const token of tokens) {
    const inTitle = new Set((index.terms.get(token) ?? []).filter((p) => p % 4 === 0).map((p) => p >> 2));
    docs = docs ? new Set([...docs].filter((d) => inTitle.has(d))) : inTitle;
    if (docs.size === 0) return [];
  }
  return [...(docs ?? [])].sort((a, b) => a - b);
}
