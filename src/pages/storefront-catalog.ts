/** How catalog data reads on the storefront and product pages: prices, availability, images, descriptions. */
import type { MessageKey } from "../i18n/messages/en";
import type { Translate } from "../i18n/translate";
import type { PageContext } from "./context";
import { html, type SafeHtml, safeUrl } from "./html";
import { formatMoney } from "./money";

export interface Money {
  readonly amount: number;
  readonly currency: string;
}

/** Catalog payloads as the tools return them (already validated by their output schemas). */
export interface CatalogVariant {
  readonly id: string;
  readonly title: string;
  readonly price: Money;
  readonly availability?: { readonly available?: boolean; readonly status?: string };
  readonly options?: ReadonlyArray<{ readonly name: string; readonly label: string }>;
  readonly media?: readonly CatalogMedia[];
}

export interface CatalogMedia {
  readonly type: string;
  readonly url: string;
  readonly alt_text?: string;
}

export interface CatalogProduct {
  readonly id: string;
  readonly handle?: string;
  readonly title: string;
  readonly url?: string;
  readonly description?: { readonly plain?: string; readonly markdown?: string; readonly html?: string };
  readonly price_range?: { readonly min: Money; readonly max: Money };
  readonly media?: readonly CatalogMedia[];
  readonly categories?: ReadonlyArray<{ readonly value: string }>;
  readonly variants: readonly CatalogVariant[];
}

export function money(ctx: PageContext, value: Money): string {
  return formatMoney(value.amount, value.currency, ctx.config.storefront.locale);
}

/** "$120.00" or "$120.00 – $150.00". */
export function priceRange(ctx: PageContext, product: CatalogProduct): string {
  const range = product.price_range;
  const first = product.variants[0];
  if (!range) return first ? money(ctx, first.price) : "";
  if (range.min.amount === range.max.amount) return money(ctx, range.min);
  return `${money(ctx, range.min)} – ${money(ctx, range.max)}`;
}

const STATUS_TEXT: Readonly<Record<string, MessageKey>> = {
  in_stock: "stock.inStock",
  backorder: "stock.backorder",
  preorder: "stock.preorder",
  out_of_stock: "stock.outOfStock",
  discontinued: "stock.discontinued",
};

/** Said in words (never colour alone): whether the variant can be bought now. */
export function availabilityText(t: Translate, variant: CatalogVariant): string {
  const status = variant.availability?.status;
  const known = status ? STATUS_TEXT[status] : undefined;
  if (variant.availability?.available === false) return t(status !== "in_stock" && known ? known : "stock.outOfStock");
  return t(known ?? "stock.inStock");
}

export function isAvailable(variant: CatalogVariant): boolean {
  return variant.availability?.available !== false;
}

export function images(media: readonly CatalogMedia[] | undefined): CatalogMedia[] {
  return (media ?? []).filter((m) => m.type === "image" && safeUrl(m.url) !== undefined);
}

/** An image from the catalog; `alt` empty when the title next to it already says what it shows. */
export function catalogImage(media: CatalogMedia | undefined, className: string, alt?: string): SafeHtml {
  const src = safeUrl(media?.url);
  if (!media || !src) return html``;
  return html`<img class="${className}" src="${src}" alt="${alt ?? media.alt_text ?? ""}" loading="lazy" decoding="async" width="400" height="400">`;
}

/**
 * The description as plain text, whatever form the catalog holds it in: HTML is reduced
 * to its text (script and style bodies dropped) and then escaped like any other text, so
 * a merchant's or an importer's markup can never run on the page.
 */
export function descriptionText(description: CatalogProduct["description"]): string {
  if (!description) return "";
  if (description.plain !== undefined) return description.plain;
  if (description.markdown !== undefined) return description.markdown;
  return htmlToText(description.html ?? "");
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: " " };

export function htmlToText(markup: string): string {
  return markup
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<br\s*\/?>|<\/(p|div|li|h[1-6])>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => ENTITIES[name] ?? "")
    .replace(/[ \t]+/g, " ")
    .replace(/\n\s*\n+/g, "\n\n")
    .trim();
}

/** Paragraphs of text (blank lines separate them), each escaped. */
export function paragraphs(text: string): SafeHtml[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
    .map((p) => html`<p>${p}</p>`);
}
