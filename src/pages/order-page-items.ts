/** The order's lines (ordered, fulfilled, removed) and totals, as get_order returns them. */
import type { PageContext } from "./context";
import { html, type SafeHtml, safeUrl } from "./html";
import { includedTaxRows } from "./included-tax-rows";
import { formatMoney } from "./money";
import type { OrderView } from "./order-page-parts";

const TOTAL_LABELS: Record<string, string> = {
  subtotal: "Subtotal",
  discount: "Discount",
  fulfillment: "Shipping",
  tax: "Tax",
  fee: "Fees",
  total: "Total",
};

export function orderPrice(ctx: PageContext, order: OrderView, minor: number): string {
  return formatMoney(minor, order.currency ?? ctx.config.currency, ctx.config.storefront.locale);
}

export function orderItems(ctx: PageContext, order: OrderView): SafeHtml {
  return html`<h2>Items</h2>
<div class="card fit"><table>
<thead><tr><th scope="col">Item</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Total</th></tr></thead>
<tbody>${order.line_items.map((line) => {
    const image = safeUrl(line.item.image_url);
    const total = line.totals?.find((t) => t.type === "total")?.amount ?? line.item.price * line.quantity.total;
    const changed = line.quantity.original !== line.quantity.total;
    return html`<tr>
<th scope="row"><div class="row">${image ? html`<img class="thumb" src="${image}" alt="" loading="lazy" width="64" height="64">` : ""}<span>${line.item.title}<br><span class="muted">${line.status === "removed" ? "Canceled" : `${line.quantity.fulfilled} of ${line.quantity.total} shipped`}</span></span></div></th>
<td class="num">${line.quantity.total}${changed ? html`<br><span class="muted">(ordered ${line.quantity.original})</span>` : ""}</td>
<td class="num">${orderPrice(ctx, order, total)}</td>
</tr>`;
  })}</tbody>
</table></div>`;
}

export function orderTotals(ctx: PageContext, order: OrderView): SafeHtml {
  const totals = order.totals ?? [];
  if (totals.length === 0) return html``;
  return html`<div class="card"><table class="totals"><caption class="visually-hidden">Order totals</caption><tbody>${totals.map(
    (t) =>
      html`<tr${t.type === "total" ? html` class="total"` : ""}><td>${t.display_text ?? TOTAL_LABELS[t.type] ?? t.type}</td><td class="num">${orderPrice(ctx, order, t.amount)}</td></tr>`,
  )}${includedTaxRows(totals, (a) => orderPrice(ctx, order, a))}</tbody></table></div>`;
}
