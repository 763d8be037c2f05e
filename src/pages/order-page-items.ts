/** The order's lines (ordered, fulfilled, removed) and totals, as get_order returns them. */

import { totalLabel } from "../i18n/total-labels";
import { translator } from "../i18n/translate";
import type { PageContext } from "./context";
import { html, type SafeHtml, safeUrl } from "./html";
import { includedTaxRows } from "./included-tax-rows";
import { formatMoney } from "./money";
import type { OrderView } from "./order-page-parts";

export function orderPrice(ctx: PageContext, order: OrderView, minor: number): string {
  return formatMoney(minor, order.currency ?? ctx.config.currency, ctx.config.storefront.locale);
}

export function orderItems(ctx: PageContext, order: OrderView): SafeHtml {
  const t = translator(ctx);
  return html`<h2>${t("order.items")}</h2>
<div class="card fit"><table>
<thead><tr><th scope="col">${t("cart.item")}</th><th scope="col" class="num">${t("product.quantity")}</th><th scope="col" class="num">${t("totals.total")}</th></tr></thead>
<tbody>${order.line_items.map((line) => {
    const image = safeUrl(line.item.image_url);
    const total = line.totals?.find((x) => x.type === "total")?.amount ?? line.item.price * line.quantity.total;
    const changed = line.quantity.original !== line.quantity.total;
    return html`<tr>
<th scope="row"><div class="row">${image ? html`<img class="thumb" src="${image}" alt="" loading="lazy" width="64" height="64">` : ""}<span>${line.item.title}<br><span class="muted">${line.status === "removed" ? t("order.lineCanceled") : t("order.lineShipped", { fulfilled: line.quantity.fulfilled, count: line.quantity.total })}</span></span></div></th>
<td class="num">${line.quantity.total}${changed ? html`<br><span class="muted">${t("order.ordered", { count: line.quantity.original })}</span>` : ""}</td>
<td class="num">${orderPrice(ctx, order, total)}</td>
</tr>`;
  })}</tbody>
</table></div>`;
}

export function orderTotals(ctx: PageContext, order: OrderView): SafeHtml {
  const t = translator(ctx);
  const totals = order.totals ?? [];
  if (totals.length === 0) return html``;
  return html`<div class="card"><table class="totals"><caption class="visually-hidden">${t("order.totals")}</caption><tbody>${totals.map(
    (total) =>
      html`<tr${total.type === "total" ? html` class="total"` : ""}><td>${totalLabel(t, total)}</td><td class="num">${orderPrice(ctx, order, total.amount)}</td></tr>`,
  )}${includedTaxRows(totals, (a) => orderPrice(ctx, order, a), false, t)}</tbody></table></div>`;
}
