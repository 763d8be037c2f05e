/**
 * `/products/<handle>`: the agent's `get_product` for the handle the catalog's product URL
 * names, with every variant's price and live availability and an "Add to cart" form that
 * posts to `/cart` (cart-page.ts).
 */
import { callAsBuyer } from "./buyer-tools";
import type { PageContext } from "./context";
import { html, type SafeHtml } from "./html";
import { csrfInput, renderPage } from "./layout";
import { notFoundPage } from "./not-found";
import {
  availabilityText,
  type CatalogProduct,
  type CatalogVariant,
  catalogImage,
  descriptionText,
  images,
  isAvailable,
  money,
  paragraphs,
  priceRange,
} from "./storefront-catalog";

interface DetailOption {
  readonly name: string;
  readonly values: ReadonlyArray<{ readonly label: string }>;
}

type DetailProduct = CatalogProduct & { readonly options?: readonly DetailOption[] };

/** What a failed add-to-cart brings back to the product page. */
export interface AddProblem {
  readonly status: number;
  readonly messages: readonly string[];
  readonly variant?: string;
  readonly quantity?: number;
}

export async function productPage(ctx: PageContext, rawHandle: string): Promise<Response> {
  // The catalog publishes encodeURIComponent(handle); the router hands over the raw segment.
  let handle: string;
  try {
    handle = decodeURIComponent(rawHandle);
  } catch {
    return notFoundPage(ctx);
  }
  const product = await loadProduct(ctx, handle);
  if (!product) return notFoundPage(ctx);
  return renderProduct(ctx, product);
}

/** The product by handle through get_product; undefined when the catalog has no such product. */
export async function loadProduct(ctx: PageContext, handle: string): Promise<DetailProduct | undefined> {
  if (handle.length === 0 || handle.length > 256) return undefined;
  const result = await callAsBuyer(ctx, "get_product", { catalog: { id: handle } });
  if (!result.ok) return undefined;
  const product = result.value.product as DetailProduct | undefined;
  return product && product.handle === handle ? product : undefined;
}

export function renderProduct(ctx: PageContext, product: DetailProduct, problem?: AddProblem): Response {
  const pictures = images(product.media);
  const text = descriptionText(product.description);
  const anyAvailable = product.variants.some(isAvailable);
  return renderPage(ctx, {
    title: product.title,
    status: problem?.status ?? 200,
    // The add-to-cart form carries this browser's CSRF token and a fresh idempotency key: a
    // page kept by a cache (or brought back by Back) would replay the last add, not add again.
    personal: true,
    body: html`<div class="split">
<section aria-label="Images">${
      pictures.length > 0
        ? html`${catalogImage(pictures[0], "product-img")}${
            pictures.length > 1
              ? html`<ul class="row gallery">${pictures.slice(1, 8).map((m) => html`<li>${catalogImage(m, "thumb")}</li>`)}</ul>`
              : ""
          }`
        : ""
    }</section>
<section>
<h1>${product.title}</h1>
<p class="price">${priceRange(ctx, product)}</p>
${anyAvailable ? "" : html`<p class="stock out">Out of stock</p>`}
${addToCartForm(ctx, product, problem)}
${paragraphs(text)}
${options(product.options, product.variants)}
</section>
</div>
${variantTable(ctx, product.variants)}`,
  });
}

function addToCartForm(ctx: PageContext, product: DetailProduct, problem: AddProblem | undefined): SafeHtml {
  const buyable = product.variants.filter(isAvailable);
  const chosen = problem?.variant ?? buyable[0]?.id;
  const errorId = "add-error";
  const described = problem ? html` aria-describedby="${errorId}" aria-invalid="true"` : "";
  return html`<form class="card" method="post" action="/cart">
${csrfInput(ctx)}
<input type="hidden" name="product" value="${product.handle ?? ""}">
<input type="hidden" name="key" value="${crypto.randomUUID()}">
${
  problem
    ? html`<div id="${errorId}" class="notice error" role="alert">${problem.messages.map((m) => html`<p>${m}</p>`)}</div>`
    : ""
}
<label for="variant">${product.variants.length > 1 ? "Choose an option" : "Item"}</label>
<select id="variant" name="variant"${described}>
${product.variants.map((v) => {
  const ok = isAvailable(v);
  return html`<option value="${v.id}"${v.id === chosen ? html` selected` : ""}${ok ? "" : html` disabled`}>${v.title} — ${money(ctx, v.price)}${ok ? "" : " — Out of stock"}</option>`;
})}
</select>
<label for="quantity">Quantity</label>
<input id="quantity" type="number" name="quantity" min="1" max="999" step="1" value="${problem?.quantity ?? 1}" inputmode="numeric"${described}>
<p><button type="submit"${buyable.length === 0 ? html` disabled` : ""}>Add to cart</button></p>
</form>`;
}

/**
 * Each option's values, "sold out" when no variant with that value can be bought. Read from
 * the variants rather than get_product's per-value signals: those are relative to one
 * selection (the featured variant's), and this page shows every variant at once.
 */
function options(list: readonly DetailOption[] | undefined, variants: readonly CatalogVariant[]): SafeHtml {
  if (!list || list.length === 0) return html``;
  const label = (option: string, value: string) => {
    const having = variants.filter((v) => v.options?.some((o) => o.name === option && o.label === value));
    if (having.length === 0) return undefined;
    return having.some(isAvailable) ? value : `${value} (sold out)`;
  };
  return html`<h2>Options</h2><dl class="options">${list.map(
    (option) =>
      html`<dt>${option.name}</dt><dd>${option.values
        .map((v) => label(option.name, v.label))
        .filter((text) => text !== undefined)
        .join(", ")}</dd>`,
  )}</dl>`;
}

function variantTable(ctx: PageContext, variants: readonly CatalogVariant[]): SafeHtml {
  if (variants.length < 2) return html``;
  return html`<h2>All options</h2>
<div class="card fit"><table>
<thead><tr><th scope="col">Option</th><th scope="col" class="num">Price</th><th scope="col">Availability</th></tr></thead>
<tbody>${variants.map(
    (v) =>
      html`<tr><th scope="row">${v.title}</th><td class="num">${money(ctx, v.price)}</td><td>${availabilityText(v)}</td></tr>`,
  )}</tbody>
</table></div>`;
}
