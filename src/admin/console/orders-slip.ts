/**
 * GET /admin/orders/:id/packing-slip: the sheet that goes in the box (issue 26 item 1): the
 * store, the order number and date, the recipient, and the lines still in the order with SKU,
 * ordered and shipped quantities. No prices (a gift, a warehouse). Print CSS drops the
 * console's chrome, so the browser's Print gives just the slip; the Print button is a
 * convenience for when scripts run.
 */
import { html, trustedHtml } from "../../pages/html";
import { orderDetail } from "../orders";
import { consoleMessage, renderConsole } from "./layout";
import { dateTime } from "./orders-format";
import { recipientBlock, recipientOf } from "./orders-recipient";
import { lineFacts } from "./orders-stock";
import type { ConsoleContext } from "./types";

const SLIP_CSS = `
.slip{max-width:48rem;background:#fff;border:1px solid #d8dce1;border-radius:.5rem;padding:1.5rem}
.slip header{display:flex;justify-content:space-between;gap:1rem;flex-wrap:wrap;border-bottom:2px solid #1b1f24;padding-bottom:.75rem;margin-bottom:1rem}
.slip h1{margin:0}
.slip address{font-style:normal;font-size:1.05rem}
.slip .qty{font-size:1.1rem;font-weight:700}
.slip-tools{margin:0 0 1rem}
@media print{
  @page{margin:12mm}
  body{background:#fff;font-size:12pt}
  header.console,.skip,.slip-tools{display:none!important}
  main{max-width:none;padding:0}
  .slip{border:none;padding:0;max-width:none}
  a{color:inherit;text-decoration:none}
}`;

const PRINT_SCRIPT = `document.querySelectorAll("[data-print]").forEach(function(b){b.hidden=false;b.addEventListener("click",function(){window.print()})});`;

export async function packingSlipPage(
  ctx: ConsoleContext,
  params: Readonly<Record<string, string>>,
): Promise<Response> {
  const id = params.id ?? "";
  const view = await orderDetail(ctx.env, id);
  if (!view) return consoleMessage(ctx, 404, "Order not found", "There is no order with this id.");
  const { order } = view;
  const label = typeof order.label === "string" ? order.label : order.id;
  const facts = await lineFacts(
    ctx.env,
    order.line_items.map((l) => l.item.id),
  );
  // Lines refunded and restocked before shipping left the order: they are not in the box.
  const lines = order.line_items.filter((l) => l.quantity.total > 0);
  return renderConsole(ctx, {
    title: `Packing slip ${label}`,
    head: html`<style nonce="${ctx.nonce}">${trustedHtml(SLIP_CSS)}</style>`,
    script: PRINT_SCRIPT,
    body: html`<p class="slip-tools"><a href="/admin/orders/${order.id}">Back to the order</a> <button type="button" data-print hidden>Print</button> <span class="muted">or use your browser's Print.</span></p>
<article class="slip" aria-labelledby="slip-title">
<header><div><p class="muted">${ctx.config.name}</p><h1 id="slip-title">Packing slip ${label}</h1></div>
<dl><dt>Order</dt><dd>${label}</dd><dt>Date</dt><dd>${dateTime(ctx, view.created_at)}</dd></dl></header>
<h2>Ship to</h2>${recipientBlock(recipientOf(order))}
<h2>Items</h2>
<table><thead><tr><th scope="col">Item</th><th scope="col">SKU</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Shipped</th></tr></thead>
<tbody>${lines.map(
      (l) =>
        html`<tr><td>${l.item.title}</td><td>${facts.get(l.item.id)?.sku ?? html`<span class="muted">${l.item.id}</span>`}</td><td class="num qty">${l.quantity.total}</td><td class="num">${l.quantity.fulfilled}</td></tr>`,
    )}</tbody></table>
<p class="muted">${lines.reduce((n, l) => n + l.quantity.total, 0)} item(s). Thank you for your order.</p>
</article>`,
  });
}
