/**
 * `/products/<handle>`: the agent's `get_product` for the handle the catalog's product URL
 * names, with every variant's price and live availability and an "Add to cart" form that
 * posts to `/cart` (cart-page.ts).
 */
import { type Translate, translator } from "../i18n/translate";
import { callAsBuyer } from "./buyer-tools";
import type { PageContext } from "./context";
import { html, type SafeHtml } from "./html";
import { csrfInput, renderPage } from "./layout";
import { notFoundPage } from "./not-found";
import { type OptionAxis, optionAxes, PICKER_CSS, PICKER_SCRIPT, pickers, selectionOf } from "./product-options";
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
  /** The option values the buyer chose (kept when no variant has them). */
  readonly selection?: readonly string[];
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
  const t = translator(ctx);
  const pictures = images(product.media);
  const text = descriptionText(product.description);
  const anyAvailable = product.variants.some(isAvailable);
  const axes = optionAxes(product.options, product.variants);
  return renderPage(ctx, {
    title: product.title,
    status: problem?.status ?? 200,
    // The add-to-cart form carries this browser's CSRF token and a fresh idempotency key: a
    // page kept by a cache (or brought back by Back) would replay the last add, not add again.
    personal: true,
    ...(axes ? { script: PICKER_SCRIPT, css: PICKER_CSS } : {}),
    body: html`<div class="split">
<section aria-label="${t("product.images")}">${
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
${anyAvailable ? "" : html`<p class="stock out">${t("stock.outOfStock")}</p>`}
${addToCartForm(ctx, t, product, axes, problem)}
${paragraphs(text)}
</section>
</div>
${variantTable(ctx, t, product.variants, axes)}`,
  });
}

function addToCartForm(
  ctx: PageContext,
  t: Translate,
  product: DetailProduct,
  axes: readonly OptionAxis[] | undefined,
  problem: AddProblem | undefined,
): SafeHtml {
  const buyable = product.variants.filter(isAvailable);
  const chosen = problem?.variant ?? buyable[0]?.id;
  const errorId = "add-error";
  const described = problem ? html` aria-describedby="${errorId}" aria-invalid="true"` : "";
  const price = (v: CatalogVariant) => `${money(ctx, v.price)} — ${availabilityText(t, v)}`;
  const selection =
    problem?.selection ??
    selectionOf(
      product.variants.find((v) => v.id === chosen),
      axes ?? [],
    );
  return html`<form class="card" method="post" action="/cart">
${csrfInput(ctx)}
<input type="hidden" name="product" value="${product.handle ?? ""}">
<input type="hidden" name="key" value="${crypto.randomUUID()}">
${
  problem
    ? html`<div id="${errorId}" class="notice error" role="alert">${problem.messages.map((m) => html`<p>${m}</p>`)}</div>`
    : ""
}
${axes ? pickers(t, axes, product.variants, selection, price) : variantSelect(ctx, t, product, chosen, described)}
<label for="quantity">${t("product.quantity")}</label>
<input id="quantity" type="number" name="quantity" min="1" max="999" step="1" value="${problem?.quantity ?? 1}" inputmode="numeric"${described}>
<p><button type="submit"${buyable.length === 0 ? html` disabled` : ""}>${t("product.addToCart")}</button></p>
</form>`;
}

/** Variants without options to pick by (one variant, or options that do not describe them all). */
function variantSelect(
  ctx: PageContext,
  t: Translate,
  product: DetailProduct,
  chosen: string | undefined,
  described: SafeHtml | "",
): SafeHtml {
  return html`<label for="variant">${product.variants.length > 1 ? t("product.chooseOption") : t("product.item")}</label>
<select id="variant" name="variant"${described}>
${product.variants.map((v) => {
  const ok = isAvailable(v);
  return html`<option value="${v.id}"${v.id === chosen ? html` selected` : ""}${ok ? "" : html` disabled`}>${v.title} — ${money(ctx, v.price)}${ok ? "" : ` — ${t("stock.outOfStock")}`}</option>`;
})}
</select>`;
}

/** Every variant with its price and availability; with pickers, the rows also feed their script. */
function variantTable(
  ctx: PageContext,
  t: Translate,
  variants: readonly CatalogVariant[],
  axes: readonly OptionAxis[] | undefined,
): SafeHtml {
  if (variants.length < 2) return html``;
  const data = (v: CatalogVariant) =>
    axes
      ? html` data-options="${JSON.stringify(selectionOf(v, axes))}" data-available="${isAvailable(v) ? "1" : "0"}"`
      : "";
  return html`<h2>${t("product.allOptions")}</h2>
<div class="card fit"><table>
<thead><tr><th scope="col">${t("product.option")}</th><th scope="col" class="num">${t("product.price")}</th><th scope="col">${t("product.availability")}</th></tr></thead>
<tbody>${variants.map(
    (v) =>
      html`<tr${data(v)}><th scope="row">${v.title}</th><td class="num">${money(ctx, v.price)}</td><td>${availabilityText(t, v)}</td></tr>`,
  )}</tbody>
</table></div>`;
}
