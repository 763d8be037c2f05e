/** search_catalog: validated request → ranked page of products, one featured variant each. */
import { CATALOG_LIMITS, type SearchFilters, type SearchRequest } from "../../schemas/ucp/catalog";
import type { Message } from "../../schemas/ucp/common";
import type { Product } from "../../schemas/ucp/product";
import { err, ok, type Result } from "../lib/result";
import { liveProducts } from "./availability";
import { decodeCursor, encodeCursor, requestFingerprint } from "./cursor";
import type { CatalogSnapshot } from "./kv-catalog";
import { withVariants } from "./product-view";
import { normalizeFilter, searchIndex, type VariantFilter } from "./search-engine";

export interface SearchPage {
  products: Product[];
  pagination: { has_next_page: boolean; cursor?: string; total_count?: number };
  messages: Message[];
}

export type SearchFailure = { message: string; path: string };

/** Validates inputs the schema cannot express: at least one input, a cursor of this query. */
export function planSearch(request: SearchRequest, storeCurrency: string): Result<SearchPlan, SearchFailure> {
  const hasFilters = request.filters !== undefined && Object.keys(request.filters).length > 0;
  if (request.query === undefined && !hasFilters) {
    return err({ message: "A search needs a query or at least one filter", path: "$.catalog" });
  }
  const messages: Message[] = [];
  const filter = toVariantFilter(request.filters, request.context?.currency, storeCurrency, messages);
  const query = request.query?.trim() === "" && hasFilters ? undefined : request.query;
  const fingerprint = requestFingerprint({ query, filter });
  let offset = 0;
  const cursor = request.pagination?.cursor;
  if (cursor !== undefined) {
    const decoded = decodeCursor(cursor, fingerprint);
    if (decoded === undefined) {
      return err({ message: "Invalid or foreign pagination cursor", path: "$.catalog.pagination.cursor" });
    }
    offset = decoded;
  }
  const limit = Math.min(request.pagination?.limit ?? CATALOG_LIMITS.defaultPageSize, CATALOG_LIMITS.maxPageSize);
  return ok({ query, filter, offset, limit, fingerprint, messages });
}

export interface SearchPlan {
  query: string | undefined;
  filter: VariantFilter;
  offset: number;
  limit: number;
  fingerprint: string;
  messages: Message[];
}

export async function runSearch(
  kv: KVNamespace,
  snapshot: CatalogSnapshot | null,
  plan: SearchPlan,
  origin: string,
): Promise<SearchPage> {
  if (!snapshot) return { products: [], pagination: { has_next_page: false, total_count: 0 }, messages: plan.messages };
  const { hits, total } = searchIndex(snapshot.index, plan.query, plan.filter, plan.offset + plan.limit);
  const page = hits.slice(plan.offset, plan.offset + plan.limit);
  const ids = page.map((hit) => snapshot.index.docs[hit.doc]?.id ?? "");
  const docs = await liveProducts(kv, snapshot, ids);
  const products: Product[] = [];
  page.forEach((hit, i) => {
    const product = docs.get(ids[i] ?? "");
    const variant = product?.variants[hit.variant];
    if (product && variant) products.push(withVariants(product, origin, [variant]));
  });
  const next = plan.offset + page.length;
  const hasNext = next < total;
  return {
    products,
    pagination: hasNext
      ? { has_next_page: true, cursor: encodeCursor(next, plan.fingerprint), total_count: total }
      : { has_next_page: false, total_count: total },
    messages: plan.messages,
  };
}

/** Turns request filters into the engine's filter; notes filters it had to ignore. */
export function toVariantFilter(
  filters: SearchFilters | undefined,
  requestCurrency: string | undefined,
  storeCurrency: string,
  messages: Message[],
): VariantFilter {
  if (!filters) return {};
  const legacy = filters.category;
  const categories = [...(filters.categories ?? []), ...(typeof legacy === "string" ? [legacy] : (legacy ?? []))];
  let price = filters.price;
  if (price && requestCurrency && requestCurrency.toUpperCase() !== storeCurrency) {
    // No currency conversion: say so rather than filter on the wrong scale (catalog/search.md).
    messages.push({
      type: "info",
      code: "price_filter_ignored",
      content: `Prices are in ${storeCurrency}; the price filter in ${requestCurrency} was not applied.`,
      path: "$.catalog.filters.price",
    });
    price = undefined;
  }
  return normalizeFilter({
    ...(categories.length > 0 ? { categories } : {}),
    ...(price?.min !== undefined ? { minPrice: price.min } : {}),
    ...(price?.max !== undefined ? { maxPrice: price.max } : {}),
    ...(filters.available !== undefined ? { available: filters.available } : {}),
  });
}
