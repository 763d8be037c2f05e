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
  /** handles → their product (a secondary identifier: ids and SKUs are looked up first) */
  readonly handles: ReadonlyMap<string, number>;
}

export function hydrate(data: SearchIndexData): HydratedIndex {
  const productIds = new Map<string, number>();
  const variantRefs = new Map<string, VariantRef>();
  const handles = new Map<string, number>();
  data.docs.forEach((doc, docIndex) => {
    productIds.set(doc.id, docIndex);
    if (doc.h && !handles.has(doc.h)) handles.set(doc.h, docIndex);
    doc.v.forEach(([id, sku], variant) => {
      variantRefs.set(id, { doc: docIndex, variant });
      if (sku && !variantRefs.has(sku)) variantRefs.set(sku, { doc: docIndex, variant });
    });
  });
  return { docs: data.docs, terms: new Map(Object.entries(data.terms)), productIds, variantRefs, handles };
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

export interface SearchResult {
  /** The best `want` hits, best first (ties in catalog order). */
  readonly hits: SearchHit[];
  /** How many products match in all. */
  readonly total: number;
}

const isEmpty = (f: VariantFilter) =>
  (f.categories === undefined || f.categories.length === 0) &&
  f.minPrice === undefined &&
  f.maxPrice === undefined &&
  f.available === undefined;

/** Per-isolate scratch space for scores: searches are synchronous, so one buffer serves all. */
const scratch = new WeakMap<HydratedIndex, Float64Array>();

/**
 * Ranked matches. A product matches when any query token does; its score sums, per token,
 * the weight of the best tier the token appears in. `query === undefined` browses in
 * catalog order. Only the first `want` hits are ordered; the total is exact.
 */
export function searchIndex(
  index: HydratedIndex,
  query: string | undefined,
  filter: VariantFilter,
  want: number,
): SearchResult {
  const pick = isEmpty(filter)
    ? (doc: IndexDoc) => (doc.v.length > 0 ? 0 : -1)
    : (doc: IndexDoc) => (docPassesCategories(doc, filter) ? featuredVariant(doc, filter) : -1);
  if (query === undefined) return browse(index, pick, want);
  const tokens = [...new Set(tokenize(query))];
  if (tokens.length === 0) return { hits: [], total: 0 };

  const scores = scratch.get(index) ?? new Float64Array(index.docs.length);
  scratch.set(index, scores);
  const touched: number[] = [];
  for (const token of tokens) {
    const postings = index.terms.get(token);
    if (!postings) continue;
    for (const posting of postings) {
      const doc = posting >> 2;
      if (scores[doc] === 0) touched.push(doc);
      scores[doc] = (scores[doc] ?? 0) + (TIER_WEIGHT[(posting & 3) as 0 | 1 | 2] ?? 0);
    }
  }
  const top = new TopK(want);
  let total = 0;
  for (const docIndex of touched) {
    const score = scores[docIndex] ?? 0;
    scores[docIndex] = 0;
    const doc = index.docs[docIndex];
    const variant = doc ? pick(doc) : -1;
    if (variant < 0) continue;
    total++;
    top.offer({ doc: docIndex, variant, score });
  }
  return { hits: top.sorted(), total };
}

function browse(index: HydratedIndex, pick: (doc: IndexDoc) => number, want: number): SearchResult {
  const hits: SearchHit[] = [];
  let total = 0;
  index.docs.forEach((doc, docIndex) => {
    const variant = pick(doc);
    if (variant < 0) return;
    total++;
    if (hits.length < want) hits.push({ doc: docIndex, variant });
  });
  return { hits, total };
}

type Scored = SearchHit & { score: number };
const better = (a: Scored, b: Scored) => a.score > b.score || (a.score === b.score && a.doc < b.doc);

/** The k best hits seen so far, as a min-heap (worst on top) so each offer is O(log k). */
class TopK {
  readonly #heap: Scored[] = [];
  constructor(readonly k: number) {}

  offer(hit: Scored): void {
    const heap = this.#heap;
    if (heap.length < this.k) {
      heap.push(hit);
      this.#up(heap.length - 1);
    } else if (heap[0] && better(hit, heap[0])) {
      heap[0] = hit;
      this.#down(0);
    }
  }

  sorted(): SearchHit[] {
    return [...this.#heap].sort((a, b) => (better(a, b) ? -1 : 1)).map(({ doc, variant }) => ({ doc, variant }));
  }

  #up(i: number): void {
    const heap = this.#heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!better(heap[parent] as Scored, heap[i] as Scored)) break;
      [heap[parent], heap[i]] = [heap[i] as Scored, heap[parent] as Scored];
      i = parent;
    }
  }

  #down(i: number): void {
    const heap = this.#heap;
    for (;;) {
      let worst = i;
      for (const child of [2 * i + 1, 2 * i + 2]) {
        if (child < heap.length && better(heap[worst] as Scored, heap[child] as Scored)) worst = child;
      }
      if (worst === i) return;
      [heap[worst], heap[i]] = [heap[i] as Scored, heap[worst] as Scored];
      i = worst;
    }
  }
}
