/**
 * `/orders/<token>`: the order's permalink_url. The agent's get_order, run for the buyer the
 * sealed token names (whoever placed the order): status, items with fulfilled quantities,
 * totals, shipping address, shipments with tracking links, refunds and cancellations.
 */

import { translator } from "../i18n/translate";
import { callAsBuyer } from "./buyer-tools";
import type { PageContext } from "./context";
import { openSession } from "./handoff";
import { html } from "./html";
import { messagePage, renderPage } from "./layout";
import { orderName } from "./order-name";
import { orderItems, orderTotals } from "./order-page-items";
import { adjustmentList, eventList, type OrderView, orderStatus, shippingAddress } from "./order-page-parts";

export async function orderPage(ctx: PageContext, token: string): Promise<Response> {
  const opened = await openSession(ctx, "order", token);
  if (!opened.ok) return opened.response;
  const t = translator(ctx);
  const read = await callAsBuyer(ctx, "get_order", { id: opened.id }, { handoff: true });
  if (!read.ok)
    return messagePage(ctx, 503, t("page.unavailable.title"), t("order.loadFailed"), { "retry-after": "5" });
  const order = read.value as unknown as OrderView;
  if (order.id !== opened.id || !Array.isArray(order.line_items))
    return messagePage(ctx, 404, t("order.notFound"), t("link.invalid.text"));
  const status = orderStatus(t, order);
  return renderPage(ctx, {
    title: t("order.titleNumbered", { number: orderName(order) }),
    personal: true,
    body: html`<h1>${t("order.title")}</h1>
<div class="card fit">
<p>${t("order.number")} <strong>${orderName(order)}</strong></p>
<p>${t("order.status")} <span class="status">${status}</span></p>
</div>
${orderItems(ctx, order)}
${orderTotals(ctx, order)}
${shippingAddress(t, order)}
${eventList(ctx, order)}
${adjustmentList(ctx, order)}
<p><a href="/">${t("layout.continueShopping")}</a></p>`,
  });
}
