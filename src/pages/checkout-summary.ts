/**
 * The checkout's lines and totals as the API computed them: every line with its image, unit
 * price, quantity and line total; every totals entry in the API's order, labelled by its
 * display_text. Editable (the quantities form) while the session is open, read-only after.
 */
import type { PageCheckout, PageLine, PageTotal } from "./checkout-data";
import { type FeedbackItem, fieldAttrs } from "./checkout-feedback";
import { formOpen } from "./checkout-form";
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

function lineRow(
  ctx: PageContext,
  checkout: PageCheckout,
  line: PageLine,
  index: number,
  editable: boolean,
  notes: readonly FeedbackItem[],
): SafeHtml {
  const field = `qty_${line.id}`;
  // The section's notice box lists these messages; the field only points at them.
  const mine = notes.filter((n) => n.line === index).map((n) => ({ ...n, field }));
  const quantity = editable
    ? html`<label class="visually-hidden" for="${field}">Quantity of ${line.item.title}</label><input id="${field}" name="${field}" type="number" inputmode="numeric" min="0" max="999" step="1" value="${line.quantity}"${fieldAttrs(mine, field)}>
<button class="link" form="remove-line" name="remove" value="${line.id}">Remove<span class="visually-hidden"> ${line.item.title}</span></button>`
    : html`${line.quantity}`;
  return html`<tr>
<td><div class="row line">${thumb(line)}<div><span class="line-title">${line.item.title}</span><br><span class="muted">${money(ctx, checkout, line.item.price)} each</span>${lineDiscount(ctx, checkout, line)}</div></div></td>
<td>${quantity}</td>
<td class="num">${money(ctx, checkout, lineTotal(line))}</td>
</tr>`;
}

/** The lines: in a quantities form while `token` is given (the session is open). */
export function itemsTable(
  ctx: PageContext,
  checkout: PageCheckout,
  notes: readonly FeedbackItem[],
  token?: string,
): SafeHtml {
  if (checkout.line_items.length === 0) return html`<p>There are no items in this checkout.</p>`;
  const editable = token !== undefined;
  const table = html`<table class="items">
<caption class="visually-hidden">Items in this order</caption>
<thead><tr><th scope="col">Item</th><th scope="col">Quantity</th><th scope="col" class="num">Price</th></tr></thead>
<tbody>${checkout.line_items.map((line, i) => lineRow(ctx, checkout, line, i, editable, notes))}</tbody>
</table>`;
  if (!editable) return table;
  // Remove buttons submit their own form (the `form` attribute), so Enter in a quantity
  // field submits the quantities, never the first Remove button.
  return html`${formOpen(ctx, token, "items")}${table}
<p class="muted">Set a quantity to 0 to remove the item.</p>
<button type="submit" class="secondary">Update quantities</button></form>
${formOpen(ctx, token, "items", "remove-line")}</form>`;
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
