/**
 * `/`: the store's front page. Search and browse are the agent's `search_catalog`, run for
 * the buyer: the same ranking, filters and cursor pagination, shown as cards linking to the
 * product URLs the catalog publishes.
 */
import { type Translate, translator } from "../i18n/translate";
import { callAsBuyer, errorMessages, type ToolPayload } from "./buyer-tools";
import type { PageContext } from "./context";
import { html, type SafeHtml, safeUrl } from "./html";
import { renderPage } from "./layout";
import {
  availabilityText,
  type CatalogProduct,
  catalogImage,
  images,
  isAvailable,
  priceRange,
} from "./storefront-catalog";

const PAGE_SIZE = 24;

interface Query {
  readonly q: string;
  readonly category: string;
  readonly inStock: boolean;
  readonly cursor: string;
}

function readQuery(url: URL): Query {
  const param = (name: string, max: number) => (url.searchParams.get(name) ?? "").trim().slice(0, max);
  return {
    q: param("q", 200),
    category: param("category", 200),
    inStock: url.searchParams.get("available") === "1",
    cursor: param("cursor", 512),
  };
}

/** The search_catalog request for a query; with no words and no filter it browses the whole catalog. */
function searchRequest(query: Query) {
  const filters = {
    ...(query.category ? { categories: [query.category] } : {}),
    ...(query.inStock ? { available: true } : {}),
  };
  const browse = !query.q && Object.keys(filters).length === 0;
  return {
    catalog: {
      ...(query.q ? { query: query.q } : {}),
      // A search needs a query or a filter: "any price" is the filter that keeps everything.
      filters: browse ? { price: { min: 0 } } : filters,
      pagination: { limit: PAGE_SIZE, ...(query.cursor ? { cursor: query.cursor } : {}) },
    },
  };
}

export async function storefrontPage(ctx: PageContext): Promise<Response> {
  const query = readQuery(ctx.url);
  const result = await callAsBuyer(ctx, "search_catalog", searchRequest(query));
  if (!result.ok) {
    // A stale or edited cursor (or an over-long query): say so and offer the first page.
    const problem = result.error.kind === "invalid" ? result.error.message : result.error.error.message;
    return page(ctx, query, html`<p class="notice error" role="alert">${problem}</p>`, 400);
  }
  return page(ctx, query, results(ctx, query, result.value));
}

function page(ctx: PageContext, query: Query, content: SafeHtml, status = 200): Response {
  const t = translator(ctx);
  const title = query.q
    ? t("store.searchTitle", { query: query.q })
    : query.category
      ? query.category
      : t("layout.shop");
  return renderPage(ctx, {
    title,
    status,
    body: html`<h1>${query.q || query.category ? title : ctx.config.name}</h1>
${searchForm(t, query)}
${content}`,
  });
}

function searchForm(t: Translate, query: Query): SafeHtml {
  return html`<form class="card search" method="get" action="/" role="search">
<label for="q">${t("store.searchLabel")}</label>
<div class="row"><input id="q" type="search" name="q" value="${query.q}" maxlength="200" autocomplete="off">
<button type="submit">${t("store.search")}</button></div>
<div class="row"><input id="available" type="checkbox" name="available" value="1"${query.inStock ? html` checked` : ""}><label for="available" class="inline">${t("store.inStockOnly")}</label></div>
${query.category ? html`<input type="hidden" name="category" value="${query.category}"><p class="muted">${t("store.inCategory", { category: query.category })} · <a href="/">${t("store.allProducts")}</a></p>` : ""}
</form>`;
}

function results(ctx: PageContext, query: Query, payload: ToolPayload): SafeHtml {
  const t = translator(ctx);
  const products = (Array.isArray(payload.products) ? payload.products : []) as CatalogProduct[];
  const pagination = payload.pagination as
    | { cursor?: string; has_next_page?: boolean; total_count?: number }
    | undefined;
  const notes = errorMessages(payload).map((m) => html`<p class="notice error" role="alert">${m.content ?? ""}</p>`);
  if (products.length === 0) {
    return html`${notes}<p class="notice" role="status">${query.q ? t("store.noMatch", { query: query.q }) : t("store.noProducts")} <a href="/">${t("store.seeAll")}</a></p>`;
  }
  const total = pagination?.total_count;
  return html`${notes}<h2 class="visually-hidden">${t("store.products")}</h2>
<p class="muted" role="status">${total === undefined ? "" : t("store.productCount", { count: total })}</p>
<ul class="grid products">${products.map((p) => card(ctx, t, p))}</ul>
${pager(t, query, pagination)}`;
}

function card(ctx: PageContext, t: Translate, product: CatalogProduct): SafeHtml {
  const href = safeUrl(product.url);
  const featured = product.variants[0];
  const available = featured ? isAvailable(featured) : false;
  const image = images(product.media)[0] ?? images(featured?.media)[0];
  const title = href ? html`<a href="${href}">${product.title}</a>` : html`${product.title}`;
  return html`<li class="card product-card">
${catalogImage(image, "product-img", "")}
<h3>${title}</h3>
<p class="price">${priceRange(ctx, product)}</p>
${featured ? html`<p class="${available ? "stock" : "stock out"}">${availabilityText(t, featured)}</p>` : ""}
</li>`;
}

/** The cursor is opaque and only runs forward: next, and back to the start. */
function pager(
  t: Translate,
  query: Query,
  pagination: { cursor?: string; has_next_page?: boolean } | undefined,
): SafeHtml {
  const next = pagination?.has_next_page && pagination.cursor ? pagination.cursor : undefined;
  if (!next && !query.cursor) return html``;
  const link = (cursor?: string) => {
    const params = new URLSearchParams();
    if (query.q) params.set("q", query.q);
    if (query.category) params.set("category", query.category);
    if (query.inStock) params.set("available", "1");
    if (cursor) params.set("cursor", cursor);
    const search = params.toString();
    return search ? `/?${search}` : "/";
  };
  return html`<nav class="row pager" aria-label="${t("store.pages")}">
${query.cursor ? html`<a class="button secondary" href="${link()}">${t("store.firstPage")}</a>` : ""}
${next ? html`<a class="button" href="${link(next)}" rel="next">${t("store.nextPage")}</a>` : ""}
</nav>`;
}
