/**
 * The order page's lines (issue 26 item 1): what was ordered, shipped, left to ship, removed and
 * restocked, with each variant's SKU and stock now; the totals with what was refunded and the
 * net; and the two line-level forms: ship some units with carrier and tracking, refund units
 * (or an amount) and optionally restock them. A form is offered only while it can do
 * something: nothing left to ship, no Ship; nothing left to refund, no Refund. The POSTs go
 * through orders-actions.ts to the admin API's own events and adjustments.
 */
import type { MerchantOrderView } from "../../../durable-objects/order-object";
import { html, type SafeHtml } from "../../pages/html";
import { consoleCsrfInput } from "./layout";
import { money } from "./orders-format";
import type { LineFacts } from "./orders-stock";
import type { ConsoleContext } from "./types";

type Line = MerchantOrderView["order"]["line_items"][number];

/** Units still to ship: active and not yet shipped or delivered. */
export const toShip = (line: Line): number => Math.max(0, line.quantity.total - line.quantity.fulfilled);

/** Units a refund by line can still name (src/order/line-refunds.ts refundableUnits). */
export const refundableUnits = (view: MerchantOrderView, line: Line): number =>
  Math.max(0, line.quantity.total - (view.returned_units[line.id] ?? 0));

/** Money still refundable: the total less what went back. */
export function refundableAmount(view: MerchantOrderView): number {
  const total = view.order.totals.find((t) => t.type === "total")?.amount ?? 0;
  return Math.max(0, total - view.refunded);
}

const lineTotal = (l: Line) => l.totals.find((t) => t.type === "total")?.amount ?? 0;

function itemCell(line: Line, facts: LineFacts | undefined): SafeHtml {
  return html`<td class="fit">${line.item.title}<br><span class="muted">${facts?.sku ? html`SKU ${facts.sku} · ` : ""}${line.item.id}</span></td>`;
}

export function linesCard(
  ctx: ConsoleContext,
  view: MerchantOrderView,
  facts: ReadonlyMap<string, LineFacts>,
): SafeHtml {
  const { order } = view;
  const total = order.totals.find((t) => t.type === "total")?.amount ?? 0;
  return html`<section class="card" aria-labelledby="lines"><h2 id="lines">Items</h2><table>
<thead><tr><th scope="col">Item</th><th scope="col" class="num">Ordered</th><th scope="col" class="num">Shipped</th><th scope="col" class="num">To ship</th><th scope="col" class="num">Removed</th><th scope="col" class="num">Restocked</th><th scope="col" class="num">In stock now</th><th scope="col" class="num">Total</th></tr></thead>
<tbody>${order.line_items.map((l) => {
    const stock = facts.get(l.item.id)?.stock;
    return html`<tr>${itemCell(l, facts.get(l.item.id))}
<td class="num">${l.quantity.original}</td><td class="num">${l.quantity.fulfilled}</td><td class="num">${toShip(l)}</td><td class="num">${l.quantity.original - l.quantity.total}</td><td class="num">${view.restocked_units[l.id] ?? 0}</td><td class="num" data-stock="${l.item.id}">${stock === undefined ? html`<span class="muted">not counted</span>` : stock}</td><td class="num">${money(ctx, lineTotal(l), order.currency)}</td></tr>`;
  })}</tbody></table>
<table class="totals"><caption>Totals</caption><tbody>${order.totals.map(
    (t) =>
      html`<tr><th scope="row">${t.display_text ?? t.type}</th><td class="num">${money(ctx, t.amount, order.currency)}</td></tr>`,
  )}
<tr><th scope="row">Refunded</th><td class="num" data-total="refunded">${money(ctx, view.refunded > 0 ? -view.refunded : 0, order.currency)}</td></tr>
<tr><th scope="row">Net</th><td class="num" data-total="net"><strong>${money(ctx, total - view.refunded, order.currency)}</strong></td></tr>
</tbody></table></section>`;
}

function formStart(ctx: ConsoleContext, id: string, action: "ship" | "refund"): SafeHtml {
  return html`<form class="card" method="post" action="/admin/orders/${id}/${action}">${consoleCsrfInput(ctx)}
<input type="hidden" name="idempotency_key" value="${crypto.randomUUID()}">`;
}

const unitsInput = (name: string, label: string, max: number, value: number) =>
  html`<input type="number" name="${name}" min="0" max="${max}" step="1" value="${value}" inputmode="numeric" aria-label="${label}">`;

const text = (id: string, name: string, label: string, type = "text", max = 200) =>
  html`<label for="${id}">${label}</label><input id="${id}" name="${name}" type="${type}" maxlength="${max}">`;

/** Ship: units per line (each defaulting to all it has left), carrier and tracking. */
export function shipForm(ctx: ConsoleContext, view: MerchantOrderView): SafeHtml | string {
  const lines = view.order.line_items.filter((l) => toShip(l) > 0);
  if (view.status === "canceled" || lines.length === 0) return "";
  const id = view.order.id;
  return html`${formStart(ctx, id, "ship")}<fieldset><legend>Ship</legend>
<table><thead><tr><th scope="col">Item</th><th scope="col" class="num">To ship</th><th scope="col" class="num">Ship now</th></tr></thead>
<tbody>${lines.map(
    (l) =>
      html`<tr><td class="fit">${l.item.title}</td><td class="num">${toShip(l)}</td><td class="num">${unitsInput(`ship:${l.id}`, `Units of ${l.item.title} to ship`, toShip(l), toShip(l))}</td></tr>`,
  )}</tbody></table>
${text(`ship-carrier-${id}`, "carrier", "Carrier")}${text(`ship-number-${id}`, "tracking_number", "Tracking number")}${text(`ship-url-${id}`, "tracking_url", "Tracking URL (https)", "url", 2000)}
<label><input type="checkbox" name="confirm" value="yes" required> These units have left</label>
<button type="submit">Ship</button></fieldset></form>`;
}

/** Refund: units per line (their share of the line's total) or an amount, optionally restocked. */
export function refundForm(ctx: ConsoleContext, view: MerchantOrderView): SafeHtml | string {
  const left = refundableAmount(view);
  if (left <= 0 || !view.charge_id) return "";
  const id = view.order.id;
  const lines = view.order.line_items.filter((l) => refundableUnits(view, l) > 0);
  const currency = view.order.currency;
  return html`${formStart(ctx, id, "refund")}<fieldset><legend>Refund</legend>
<p class="muted">Up to ${money(ctx, left, currency)} can still be refunded.</p>
${
  lines.length > 0
    ? html`<table><thead><tr><th scope="col">Item</th><th scope="col" class="num">Refundable</th><th scope="col" class="num">Refund units</th></tr></thead>
<tbody>${lines.map(
        (l) =>
          html`<tr><td class="fit">${l.item.title}</td><td class="num">${refundableUnits(view, l)}</td><td class="num">${unitsInput(`refund:${l.id}`, `Units of ${l.item.title} to refund`, refundableUnits(view, l), 0)}</td></tr>`,
      )}</tbody></table>`
    : ""
}
<label for="refund-amount-${id}">Amount (${currency})</label><input id="refund-amount-${id}" name="amount" inputmode="decimal" pattern="[0-9]+([.,][0-9]+)?" aria-describedby="refund-amount-help-${id}">
<p class="muted" id="refund-amount-help-${id}">Leave empty to refund the units' share of their lines.</p>
${
  view.restockable && lines.length > 0
    ? html`<label><input type="checkbox" name="restock" value="yes" checked> Put the refunded units back in stock</label>`
    : ""
}
${text(`refund-note-${id}`, "description", "Reason (optional)", "text", 1000)}
<label><input type="checkbox" name="confirm" value="yes" required> Send this money back to the buyer</label>
<button type="submit">Refund</button></fieldset></form>`;
}
