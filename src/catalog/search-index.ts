/**
 * The search structure: built once by the catalog loader, stored in KV as JSON, hydrated
 * once per isolate. Ranking tiers: title, then tags/categories/options, then description.
 */
import { normalizeCategory, tokenize } from "./text";

/** [variant id, sku, price in minor units, available (1) or not (0)] */
export type IndexVariant = [id: string, sku: string | null, price: number, available: 0 | 1];

export interface IndexDoc {
  readonly id: string;
  /** The product's handle: its page is /products/<handle> (absent in indexes loaded before pages existed). */
  readonly h?: string;
  readonly cats: readonly string[];
  readonly v: readonly IndexVariant[];
}

export interface SearchIndexData {
  readonly format: 1;
  readonly docs: readonly IndexDoc[];
  /** token → postings, each `docIndex * 4 + tier` (tier 0 title, 1 attributes, 2 description). */
  readonly terms: Readonly<Record<string, readonly number[]>>;
}

export const TIER_WEIGHT = [100, 10, 1] as const;

export interface IndexableProduct {
  id: string;
  handle?: string;
  title: string;
  description?: { plain?: string; markdown?: string; html?: string };
  categories?: ReadonlyArray<{ value: string }>;
  tags?: readonly string[];
  options?: ReadonlyArray<{ name: string; values: ReadonlyArray<{ label: string }> }>;
  variants: ReadonlyArray<{
    id: string;
    sku?: string;
    title?: string;
    price: { amount: number };
    availability?: { available?: boolean };
  }>;
}

/** Any iterable: the catalog loader streams products through without holding them all. */
export function buildSearchIndex(products: Iterable<IndexableProduct>): SearchIndexData {
  const index = new SearchIndexBuilder();
  for (const product of products) index.add(product);
  return index.data();
}

/** The index a product at a time, so a loader can let other work in between (catalog-load.ts). */
export class SearchIndexBuilder {
  readonly #terms = new Map<string, number[]>();
  readonly #docs: IndexDoc[] = [];

  add(product: IndexableProduct): void {
    const terms = this.#terms;
    const docs = this.#docs;
    const docIndex = docs.length;
    const best = new Map<string, number>();
    const see = (text: string | undefined, tier: number) => {
      if (!text) return;
      for (const token of tokenize(text)) {
        const seen = best.get(token);
        if (seen === undefined || tier < seen) best.set(token, tier);
      }
    };
    see(product.title, 0);
    for (const tag of product.tags ?? []) see(tag, 1);
    for (const category of product.categories ?? []) see(category.value, 1);
    for (const option of product.options ?? []) for (const value of option.values) see(value.label, 1);
    see(descriptionText(product.description), 2);
    for (const [token, tier] of best) {
      const postings = terms.get(token) ?? [];
      postings.push(docIndex * 4 + tier);
      terms.set(token, postings);
    }
    docs.push({
      id: product.id,
      ...(product.handle ? { h: product.handle } : {}),
      cats: (product.categories ?? []).map((c) => normalizeCategory(c.value)),
      v: product.variants.map(
        (variant): IndexVariant => [
          variant.id,
          variant.sku ?? null,
          variant.price.amount,
          variant.availability?.available === false ? 0 : 1,
        ],
      ),
    });
  }

  data(): SearchIndexData {
    return { format: 1, docs: this.#docs, terms: Object.fromEntries(this.#terms) };
  }
}

function descriptionText(d: IndexableProduct["description"]): string | undefined {
  if (!d) return undefined;
  return d.plain ?? d.markdown ?? d.html?.replace(/<[^>]*>/g, " ");
}
