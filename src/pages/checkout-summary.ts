/**
 * The checkout's lines and totals as the API computed them: every line with its image, unit
 * price, quantity and line total; every totals entry in the API's order, labelled by its
 * display_text. Editable (the quantities form) while the session is open, read-only after.
 */
import type { PageCheckout, PageLine, PageTotal } from "./checkout-data";
import { type Feedback, fieldAttrs, fieldError } from "./checkout-feedback";
import { type FormValues, quantityField, REMOVE_LINE_FIELD } from "./checkout-fields";
import type { PageContext } from "./context";
import { html, type SafeHtml, safeUrl } from "./html";
import { includedTaxRows } from "./included-tax-rows";
import { formatMoney } from "./money";

const LABELS: Readonly<Record<string, string>> = {
  subtotal: "Subtotal",
  items_discount: "Item discounts",
  discount: "Order discounts",
  fulfillment: "Shipping",
  tax: "Tax",
  fee: "Fees",
  total: "Total",
};

export function money(ctx: PageContext, checkout: PageCheckout, minor: number): string {
  return formatMoney(minor, checkout.currency, ctx.config.storefront.locale);
}

function lineTotal(line: PageLine): number {
  return line.totals.find((t) => t.type === "total")?.amount ?? line.item.price * line.quantity;
}

function thumb(line: PageLine): SafeHtml {
  const src = safeUrl(line.item.image_url);
  return src
    ? html`<img class="thumb" src="${src}" alt="" width="64" height="64" loading="lazy">`
    : html`<span class="thumb" aria-hidden="true"></span>`;
}

function lineDiscount(ctx: PageContext, checkout: PageCheckout, line: PageLine): SafeHtml | "" {
  const off = line.totals.find((t) => t.type === "items_discount");
  return off ? html`<br><span class="muted">Discount ${money(ctx, checkout, off.amount)}</span>` : "";
}

/** The lines are editable inside the checkout's one form (quantities, Remove). */
export interface EditableLines {
  readonly values: FormValues;
  readonly feedback?: Feedback;
}

const TEXT = {
  quantityOf: "Quantity of",
  remove: "Remove",
  each: "each",
  empty: "There are no items in this checkout.",
  caption: "Items in this order",
  item: "Item",
  quantity: "Quantity",
  price: "Price",
  zeroRemoves: "Set a quantity to 0 to remove the item.",
  update: "Update quantities",
};

function lineRow(
  ctx: PageContext,
  checkout: PageCheckout,
  line: PageLine,
  editable: EditableLines | undefined,
): SafeHtml {
  const field = quantityField(line.id);
  const quantity = editable
    ? html`<label class="visually-hidden" for="${field}">${TEXT.quantityOf} ${line.item.title}</label>${fieldError(editable.feedback, field)}<input id="${field}" name="${field}" type="number" inputmode="numeric" min="0" max="999" step="1" value="${editable.values[field] ?? String(line.quantity)}"${fieldAttrs(editable.feedback, field)}>
<button class="link" type="submit" name="${REMOVE_LINE_FIELD}" value="${line.id}">${TEXT.remove}<span class="visually-hidden"> ${line.item.title}</span></button>`
    : html`${line.quantity}`;
  return html`<tr>
<td><div class="row line">${thumb(line)}<div><span class="line-title">${line.item.title}</span><br><span class="muted">${money(ctx, checkout, line.item.price)} ${TEXT.each}</span>${lineDiscount(ctx, checkout, line)}</div></div></td>
<td>${quantity}</td>
<td class="num">${money(ctx, checkout, lineTotal(line))}</td>
</tr>`;
}

/** The lines: editable (quantity fields of the page's one form) while `editable` is given. */
export function itemsTable(ctx: PageContext, checkout: PageCheckout, editable?: EditableLines): SafeHtml {
  if (checkout.line_items.length === 0) return html`<p>${TEXT.empty}</p>`;
  const table = html`<table class="items">
<caption class="visually-hidden">${TEXT.caption}</caption>
<thead><tr><th scope="col">${TEXT.item}</th><th scope="col">${TEXT.quantity}</th><th scope="col" class="num">${TEXT.price}</th></tr></thead>
<tbody>${checkout.line_items.map((line) => lineRow(ctx, checkout, line, editable))}</tbody>
</table>`;
  if (!editable) return table;
  return html`${table}
<p class="muted">${TEXT.zeroRemoves}</p>
<button type="submit" name="action" value="apply" class="secondary">${TEXT.update}</button>`;
}

function totalLabel(total: PageTotal): string {
  return total.display_text ?? LABELS[total.type] ?? total.type;
}

/** Every totals entry exactly as the API lists it; the total last and emphasised. */
export function totalsTable(ctx: PageContext, checkout: PageCheckout): SafeHtml {
  return html`<table class="totals">
<caption class="visually-hidden">Order totals</caption>
<tbody>${checkout.totals.map(
    (t) =>
      html`<tr class="${t.type === "total" ? "total" : ""}" data-total="${t.type}"><th scope="row">${totalLabel(t)}</th><td class="num">${money(ctx, checkout, t.amount)}</td></tr>`,
  )}${includedTaxRows(checkout.totals, (a) => money(ctx, checkout, a), true)}</tbody>
</table>`;
}
