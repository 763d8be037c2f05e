/**
 * Query-time side of the search index: id resolution and ranked, filtered matching.
 * Pure and synchronous; the hydrated structure lives for the isolate's lifetime.
 */
import type { IndexDoc, SearchIndexData } from "./search-index";
import { TIER_WEIGHT } from "./search-index";
import { categoryMatches, normalizeCategory, tokenize } from "./text";

export interface VariantRef {
  readonly doc: number;
  readonly variant: number;
}

export interface HydratedIndex {
  readonly docs: readonly IndexDoc[];
  readonly terms: ReadonlyMap<string, readonly number[]>;
  readonly productIds: ReadonlyMap<string, number>;
  /** variant ids and SKUs → the variant they name */
  readonly variantRefs: ReadonlyMap<string, VariantRef>;
}

export function hydrate(data: SearchIndexData): HydratedIndex {
  const productIds = new Map<string, number>();
  const variantRefs = new Map<string, VariantRef>();
  data.docs.forEach((doc, docIndex) => {
    productIds.set(doc.id, docIndex);
    doc.v.forEach(([id, sku], variant) => {
      variantRefs.set(id, { doc: docIndex, variant });
      if (sku && !variantRefs.has(sku)) variantRefs.set(sku, { doc: docIndex, variant });
    });
  });
  return { docs: data.docs, terms: new Map(Object.entries(data.terms)), productIds, variantRefs };
}

export interface VariantFilter {
  readonly categories?: readonly string[];
  readonly minPrice?: number;
  readonly maxPrice?: number;
  readonly available?: boolean;
}

export function normalizeFilter(filter: VariantFilter): VariantFilter {
  return filter.categories ? { ...filter, categories: filter.categories.map(normalizeCategory) } : filter;
}

export function docPassesCategories(doc: IndexDoc, filter: VariantFilter): boolean {
  const wanted = filter.categories;
  if (!wanted || wanted.length === 0) return true;
  return doc.cats.some((cat) => wanted.some((w) => categoryMatches(cat, w)));
}

export function variantPasses(doc: IndexDoc, variantIndex: number, filter: VariantFilter): boolean {
  const v = doc.v[variantIndex];
  if (!v) return false;
  const [, , price, available] = v;
  if (filter.minPrice !== undefined && price < filter.minPrice) return false;
  if (filter.maxPrice !== undefined && price > filter.maxPrice) return false;
  if (filter.available !== undefined && (available === 1) !== filter.available) return false;
  return true;
}

/** The first variant (merchant order) passing the filter, or -1. */
export function featuredVariant(doc: IndexDoc, filter: VariantFilter): number {
  for (let i = 0; i < doc.v.length; i++) if (variantPasses(doc, i, filter)) return i;
  return -1;
}

export interface SearchHit {
  readonly doc: number;
  readonly variant: number;
}

/**
 * Ranked matches. A product matches when any query token does; its score sums, per token,
 * the weight of the best tier the token appears in. `query === undefined` browses.
 */
export function searchIndex(index: HydratedIndex, query: string | undefined, filter: VariantFilter): SearchHit[] {
  if (query === undefined) return browse(index, filter);
  const tokens = [...new Set(tokenize(query))];
  if (tokens.length === 0) return [];
  const scores = new Map<number, number>();
  for (const token of tokens) {
    const postings = index.terms.get(token);
    if (!postings) continue;
    for (const posting of postings) {
      const doc = posting >> 2;
      scores.set(doc, (scores.get(doc) ?? 0) + (TIER_WEIGHT[posting & (3 as 0 | 1 | 2)] ?? 0));
    }
  }
  const hits: Array<SearchHit & { score: number }> = [];
  for (const [docIndex, score] of scores) {
    const doc = index.docs[docIndex];
    if (!doc || !docPassesCategories(doc, filter)) continue;
    const variant = featuredVariant(doc, filter);
    if (variant >= 0) hits.push({ doc: docIndex, variant, score });
  }
  hits.sort((a, b) => b.score - a.score || a.doc - b.doc);
  return hits;
}

function browse(index: HydratedIndex, filter: VariantFilter): SearchHit[] {
  const hits: SearchHit[] = [];
  index.docs.forEach((doc, docIndex) => {
    if (!docPassesCategories(doc, filter)) return;
    const variant = featuredVariant(doc, filter);
    if (variant >= 0) hits.push({ doc: docIndex, variant });
  });
  return hits;
}
