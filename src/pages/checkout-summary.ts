/**
 * The checkout's lines and totals as the API computed them: every line with its image, unit
 * price, quantity and line total; every totals entry in the API's order, labelled by its
 * display_text. Editable (the quantities form) while the session is open, read-only after.
 */

import { totalLabel } from "../i18n/total-labels";
import { type Translate, translator } from "../i18n/translate";
import type { PageCheckout, PageLine, PageTotal } from "./checkout-data";
import { type Feedback, fieldAttrs, fieldError } from "./checkout-feedback";
import { type FormValues, quantityField, REMOVE_LINE_FIELD } from "./checkout-fields";
import type { PageContext } from "./context";
import { html, type SafeHtml, safeUrl } from "./html";
import { includedTaxRows } from "./included-tax-rows";
import { formatMoney } from "./money";

export function money(ctx: PageContext, checkout: PageCheckout, minor: number): string {
  return formatMoney(minor, checkout.currency, ctx.config.storefront.locale);
}

function lineTotal(line: PageLine): number {
  return line.totals.find((x) => x.type === "total")?.amount ?? line.item.price * line.quantity;
}

function thumb(line: PageLine): SafeHtml {
  const src = safeUrl(line.item.image_url);
  return src
    ? html`<img class="thumb" src="${src}" alt="" width="64" height="64" loading="lazy">`
    : html`<span class="thumb" aria-hidden="true"></span>`;
}

function lineDiscount(ctx: PageContext, t: Translate, checkout: PageCheckout, line: PageLine): SafeHtml | "" {
  const off = line.totals.find((x) => x.type === "items_discount");
  return off
    ? html`<br><span class="muted">${t("checkout.lineDiscount", { amount: money(ctx, checkout, off.amount) })}</span>`
    : "";
}

/** The lines are editable inside the checkout's one form (quantities, Remove). */
export interface EditableLines {
  readonly values: FormValues;
  readonly feedback?: Feedback;
}

function lineRow(
  ctx: PageContext,
  t: Translate,
  checkout: PageCheckout,
  line: PageLine,
  editable: EditableLines | undefined,
): SafeHtml {
  const field = quantityField(line.id);
  const quantity = editable
    ? html`<label class="visually-hidden" for="${field}">${t("cart.quantityOf", { item: line.item.title })}</label>${fieldError(editable.feedback, field)}<input id="${field}" name="${field}" type="number" inputmode="numeric" min="0" max="999" step="1" value="${editable.values[field] ?? String(line.quantity)}"${fieldAttrs(editable.feedback, field)}>
<button class="link" type="submit" name="${REMOVE_LINE_FIELD}" value="${line.id}">${t("checkout.remove")}<span class="visually-hidden"> ${line.item.title}</span></button>`
    : html`${line.quantity}`;
  return html`<tr>
<td><div class="row line">${thumb(line)}<div><span class="line-title">${line.item.title}</span><br><span class="muted">${t("cart.each", { price: money(ctx, checkout, line.item.price) })}</span>${lineDiscount(ctx, t, checkout, line)}</div></div></td>
<td>${quantity}</td>
<td class="num">${money(ctx, checkout, lineTotal(line))}</td>
</tr>`;
}

/** The lines: editable (quantity fields of the page's one form) while `editable` is given. */
export function itemsTable(ctx: PageContext, checkout: PageCheckout, editable?: EditableLines): SafeHtml {
  const t = translator(ctx);
  if (checkout.line_items.length === 0) return html`<p>${t("checkout.noItems")}</p>`;
  const table = html`<table class="items">
<caption class="visually-hidden">${t("checkout.itemsCaption")}</caption>
<thead><tr><th scope="col">${t("cart.item")}</th><th scope="col">${t("product.quantity")}</th><th scope="col" class="num">${t("product.price")}</th></tr></thead>
<tbody>${checkout.line_items.map((line) => lineRow(ctx, t, checkout, line, editable))}</tbody>
</table>`;
  if (!editable) return table;
  return html`${table}
<p class="muted">${t("cart.removeHint")}</p>
<button type="submit" name="action" value="apply" class="secondary">${t("checkout.updateQuantities")}</button>`;
}

/** The checkout distinguishes item discounts from order discounts; the rest as on every page. */
function label(t: Translate, total: PageTotal): string {
  if (total.type === "items_discount") return total.display_text ?? t("checkout.itemDiscounts");
  return totalLabel(t, total);
}

/** Every totals entry exactly as the API lists it; the total last and emphasised. */
export function totalsTable(ctx: PageContext, checkout: PageCheckout): SafeHtml {
  const t = translator(ctx);
  return html`<table class="totals">
<caption class="visually-hidden">${t("order.totals")}</caption>
<tbody>${checkout.totals.map(
    (total) =>
      html`<tr class="${total.type === "total" ? "total" : ""}" data-total="${total.type}"><th scope="row">${label(t, total)}</th><td class="num">${money(ctx, checkout, total.amount)}</td></tr>`,
  )}${includedTaxRows(checkout.totals, (a) => money(ctx, checkout, a), true, t)}</tbody>
</table>`;
}
