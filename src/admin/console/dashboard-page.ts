/**
 * The dashboard: orders and revenue today / 7 / 30 days, orders by status, top products and
 * webhook failures, each chart with its numbers in a table. One call to the order index.
 */
import { html, type SafeHtml } from "../../pages/html";
import { formatMoney } from "../../pages/money";
import { barChart, columnChart } from "./dashboard-charts";
import { type DashboardSource, type DashboardStats, emptyStats, windows } from "./dashboard-data";
import { renderConsole } from "./layout";
import { dateTime, platformName } from "./orders-format";
import type { ConsoleContext } from "./types";

const STATUS_LABELS: Readonly<Record<string, string>> = {
  processing: "Processing",
  partially_shipped: "Partially shipped",
  shipped: "Shipped",
  delivered: "Delivered",
  canceled: "Canceled",
};

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function dashboardBody(ctx: ConsoleContext, stats: DashboardStats): SafeHtml {
  const money = (minor: number) => formatMoney(minor, ctx.config.currency, ctx.config.storefront.locale);
  const figures = windows(stats);
  const days = stats.per_day;
  const statuses = Object.entries(stats.by_status)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  const failures = stats.webhook_failures;
  const perDay = days.map((d) => ({
    label: d.day.slice(5),
    value: d.orders,
    text: plural(d.orders, "order", "orders"),
  }));
  const revenuePerDay = days.map((d) => ({ label: d.day.slice(5), value: d.revenue, text: money(d.revenue) }));
  const mostOrders = Math.max(0, ...days.map((d) => d.orders));
  const mostRevenue = Math.max(0, ...days.map((d) => d.revenue));
  return html`<h1>Dashboard</h1>
<section aria-labelledby="glance"><h2 id="glance" class="vh">At a glance</h2>
<div class="figures">${figures.map(
    (f) =>
      html`<dl class="figure"><dt>${f.label}: orders</dt><dd>${f.orders}</dd><dt>Revenue</dt><dd>${money(f.revenue)}</dd></dl>`,
  )}</div>
<p class="muted">Days are UTC days; revenue is order totals less refunds.</p></section>
<section class="card" aria-labelledby="per-day"><h2 id="per-day">Last 30 days</h2>
<div class="grid">
<figure><figcaption>Orders per day</figcaption>
${columnChart(
  "chart-orders",
  `Orders per day from ${days[0]?.day ?? ""} to ${days.at(-1)?.day ?? ""}: ${figures[2]?.orders ?? 0} in all`,
  perDay,
  `most in a day: ${mostOrders}`,
)}</figure>
<figure><figcaption>Revenue per day</figcaption>
${columnChart(
  "chart-revenue",
  `Revenue per day, last 30 days: ${money(figures[2]?.revenue ?? 0)} in all`,
  revenuePerDay,
  `most in a day: ${money(mostRevenue)}`,
  true,
)}</figure>
</div>
<details class="data"><summary>The numbers per day</summary>
<table><caption class="vh">Orders and revenue per day</caption><thead><tr><th scope="col">Day</th><th scope="col" class="num">Orders</th><th scope="col" class="num">Revenue</th></tr></thead>
<tbody>${days.map((d) => html`<tr><td>${d.day}</td><td class="num">${d.orders}</td><td class="num">${money(d.revenue)}</td></tr>`)}</tbody></table>
</details></section>
<div class="grid">
<section class="card" aria-labelledby="by-status"><h2 id="by-status">Orders by status</h2>
${barChart(
  "chart-status",
  "Orders by status, all time",
  statuses.map(([s, n]) => ({ label: STATUS_LABELS[s] ?? s, value: n, text: String(n) })),
)}
<table><caption class="vh">Orders by status</caption><thead><tr><th scope="col">Status</th><th scope="col" class="num">Orders</th></tr></thead>
<tbody>${statuses.map(([s, n]) => html`<tr><td><a href="/admin/orders?status=${s}">${STATUS_LABELS[s] ?? s}</a></td><td class="num">${n}</td></tr>`)}
${statuses.length === 0 ? html`<tr><td colspan="2">No orders yet.</td></tr>` : ""}</tbody></table></section>
<section class="card" aria-labelledby="top"><h2 id="top">Top products, last 30 days</h2>
${barChart(
  "chart-products",
  "Top products by units sold, last 30 days",
  stats.top_products.map((p) => ({ label: p.title || p.item_id, value: p.quantity, text: `${p.quantity} sold` })),
)}
<table><caption class="vh">Top products</caption><thead><tr><th scope="col">Product</th><th scope="col" class="num">Units</th><th scope="col" class="num">Revenue</th></tr></thead>
<tbody>${stats.top_products.map((p) => html`<tr><td class="fit">${p.title || p.item_id}</td><td class="num">${p.quantity}</td><td class="num">${money(p.amount)}</td></tr>`)}
${stats.top_products.length === 0 ? html`<tr><td colspan="3">Nothing sold in the last 30 days.</td></tr>` : ""}</tbody></table></section>
<section class="card" aria-labelledby="hooks"><h2 id="hooks">Webhook failures, last 30 days</h2>
<p>${plural(failures.attempts, "failed delivery", "failed deliveries")} to platforms, on ${plural(failures.orders, "order", "orders")}.</p>
${
  failures.recent.length > 0
    ? html`<table><caption class="vh">Most recent failures</caption><thead><tr><th scope="col">Order</th><th scope="col">Platform</th><th scope="col" class="num">Failures</th><th scope="col">Last failure</th></tr></thead>
<tbody>${failures.recent.map((f) => html`<tr><td class="fit"><a href="/admin/orders/${f.id}">${f.id}</a></td><td class="fit">${platformName(ctx, f.platform)}</td><td class="num">${f.webhook_failures}</td><td>${dateTime(ctx, f.last_webhook_failure_at)}</td></tr>`)}</tbody></table>`
    : html`<p class="muted">Every webhook in the window was delivered.</p>`
}</section>
</div>`;
}

export async function dashboardPage(ctx: ConsoleContext, source: DashboardSource): Promise<Response> {
  let stats: DashboardStats;
  let notice = html``;
  try {
    stats = await source.stats(ctx.now);
  } catch (e) {
    // The index being down must not take the console with it: the other pages still work.
    console.error(
      JSON.stringify({ event: "dashboard_stats_failed", message: e instanceof Error ? e.message : String(e) }),
    );
    stats = emptyStats(ctx.now);
    notice = html`<p class="notice error" role="alert">The order index did not answer: these figures are empty, not zero. Reload in a moment.</p>`;
  }
  return renderConsole(ctx, { title: "Dashboard", body: html`${notice}${dashboardBody(ctx, stats)}` });
}
