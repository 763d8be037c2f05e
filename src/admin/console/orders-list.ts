/**
 * GET /admin/orders: the order list from the order index, newest first, filtered by status and
 * dates, searched by order id or buyer email, paged by keyset (the "Older orders" link carries
 * the cursor). Bad filters are named on the page (400), never a 5xx.
 */

import { ORDER_STATUSES } from "../../order/index-entry";
import type { OrderListPage } from "../../order/index-query";
import { orderLabel } from "../../order/order-number";
import { html, type SafeHtml } from "../../pages/html";
import { listOrders } from "../orders";
import { consoleCsrfInput, renderConsole } from "./layout";
import { dateTime, money, platformName, STATUS_LABELS, statusBadge } from "./orders-format";
import type { ConsoleContext } from "./types";

const FILTERS = ["status", "from", "to", "q", "limit"] as const;

function filterForm(params: URLSearchParams): SafeHtml {
  const status = params.get("status") ?? "";
  return html`<form class="card" method="get" action="/admin/orders" role="search" aria-label="Filter orders">
<div class="row">
<div><label for="f-q">Order number, id or buyer email</label><input id="f-q" name="q" type="search" value="${params.get("q") ?? ""}" maxlength="320" autocomplete="off"></div>
<div><label for="f-status">Status</label><select id="f-status" name="status"><option value="">Any</option>${ORDER_STATUSES.map(
    (s) => html`<option value="${s}"${s === status ? html` selected` : ""}>${STATUS_LABELS[s]}</option>`,
  )}</select></div>
<div><label for="f-from">From (UTC)</label><input id="f-from" name="from" type="date" value="${params.get("from") ?? ""}"></div>
<div><label for="f-to">To (UTC)</label><input id="f-to" name="to" type="date" value="${params.get("to") ?? ""}"></div>
<div><button type="submit">Filter</button> <a class="button secondary" href="/admin/orders">Clear</a></div>
</div></form>`;
}

function table(ctx: ConsoleContext, page: OrderListPage): SafeHtml {
  if (page.orders.length === 0) return html`<p class="card">No orders match.</p>`;
  return html`<div class="card"><table><caption>Orders, newest first</caption>
<thead><tr><th scope="col">Order</th><th scope="col">Created</th><th scope="col">Status</th><th scope="col">Buyer</th><th scope="col">Platform</th><th scope="col" class="num">Total</th></tr></thead>
<tbody>${page.orders.map(
    (o) => html`<tr>
<td class="fit"><a href="/admin/orders/${o.id}">${o.number !== null ? orderLabel(o.number) : o.id}</a>${o.number !== null ? html`<br><span class="muted">${o.id}</span>` : ""}${o.webhook_failures > 0 ? html` <span class="status" title="Webhook delivery attempts that failed">${o.webhook_failures} webhook failures</span>` : ""}</td>
<td>${dateTime(ctx, o.created_at)}</td>
<td>${statusBadge(o.status)}</td>
<td class="fit">${o.buyer_email ?? html`<span class="muted">none</span>`}</td>
<td class="fit">${platformName(ctx, o.platform)}</td>
<td class="num">${money(ctx, o.total, o.currency)}${o.refunded > 0 ? html`<br><span class="muted">${money(ctx, -o.refunded, o.currency)} refunded</span>` : ""}</td>
</tr>`,
  )}</tbody></table></div>`;
}

function pager(params: URLSearchParams, page: OrderListPage): SafeHtml {
  const kept = new URLSearchParams();
  for (const name of FILTERS) {
    const value = params.get(name);
    if (value) kept.set(name, value);
  }
  const first = `/admin/orders${kept.size > 0 ? `?${kept}` : ""}`;
  if (page.next_cursor) kept.set("cursor", page.next_cursor);
  return html`<nav class="row" aria-label="Pages">${params.get("cursor") ? html`<a href="${first}">Newest orders</a>` : ""}
${page.next_cursor ? html`<a href="/admin/orders?${kept.toString()}" rel="next">Older orders</a>` : ""}</nav>`;
}

function rebuildForm(ctx: ConsoleContext): SafeHtml {
  return html`<details class="card"><summary>The order index</summary>
<p>The list comes from the store's order index, fed by every order. If it is ever wrong or lost, rebuild it from the orders themselves; the list keeps answering meanwhile.</p>
<form method="post" action="/admin/orders/index/rebuild">${consoleCsrfInput(ctx)}
<label><input type="checkbox" name="confirm" value="yes" required> Rebuild the index from every order</label>
<button type="submit" class="secondary">Rebuild the index</button></form></details>`;
}

export async function ordersListPage(ctx: ConsoleContext): Promise<Response> {
  const params = ctx.url.searchParams;
  const page = await listOrders(ctx.env, params);
  if ("issues" in page) {
    return renderConsole(ctx, {
      title: "Orders",
      status: 400,
      body: html`<h1>Orders</h1>${filterForm(params)}<div class="notice error" role="alert"><p>These filters cannot be used:</p><ul>${page.issues.map(
        (i) => html`<li>${i.path}: ${i.message}</li>`,
      )}</ul></div>`,
    });
  }
  const notice =
    params.get("rebuild") === "started" ? html`<p class="notice ok" role="status">The index is being rebuilt.</p>` : "";
  return renderConsole(ctx, {
    title: "Orders",
    body: html`<h1>Orders</h1>${notice}${filterForm(params)}${table(ctx, page)}${pager(params, page)}${rebuildForm(ctx)}`,
  });
}
