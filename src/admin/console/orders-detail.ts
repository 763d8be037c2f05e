/**
 * GET /admin/orders/:id: one order for its merchant (recipient and shipping method, buyer,
 * platform, payment, lines with SKU and stock, totals with refunded and net, the timeline of
 * events and adjustments, the webhook delivery log with "retry now") and the action forms
 * (orders-fulfil.ts: ship and refund by line; orders-forms.ts: deliver, cancel). Read through orderDetail, as the JSON admin API reads it.
 */
import type { MerchantOrderView } from "../../../durable-objects/order-object";
import { html, type SafeHtml, safeUrl } from "../../pages/html";
import { orderDetail } from "../orders";
import { consoleCsrfInput, consoleMessage, renderConsole } from "./layout";
import { dateTime, money, platformName, statusBadge, words } from "./orders-format";
import { actionForms } from "./orders-forms";
import { linesCard, refundForm, shipForm } from "./orders-fulfil";
import { paymentCard } from "./orders-payment";
import { recipientCard } from "./orders-recipient";
import { lineFacts } from "./orders-stock";
import type { ConsoleContext } from "./types";

const DONE: Readonly<Record<string, string>> = {
  ship: "Shipment recorded.",
  deliver: "Delivery recorded.",
  refund: "Refund recorded.",
  cancel: "Order canceled.",
  retry: "Webhooks sent again; see the delivery log.",
};

export interface PageProblem {
  readonly status: number;
  readonly issues: ReadonlyArray<{ path: string; message: string }>;
}

function who(ctx: ConsoleContext, view: MerchantOrderView): SafeHtml {
  const permalink = safeUrl(view.order.permalink_url);
  return html`<section class="card" aria-labelledby="who"><h2 id="who">Buyer and platform</h2><dl>
<dt>Buyer</dt><dd class="fit">${view.buyer_email ?? "No email given"}</dd>
<dt>Platform</dt><dd class="fit">${platformName(ctx, view.platform)}</dd>
<dt>Placed</dt><dd>${dateTime(ctx, view.created_at)}</dd>
${permalink ? html`<dt>Buyer's order page</dt><dd><a href="${permalink}" rel="noreferrer" target="_blank">Open what the buyer sees</a></dd>` : ""}
</dl></section>`;
}

function timeline(ctx: ConsoleContext, view: MerchantOrderView): SafeHtml {
  const { order } = view;
  const entries: Array<{ at: string; text: SafeHtml }> = [
    { at: new Date(view.created_at).toISOString(), text: html`Placed by ${platformName(ctx, view.platform)}` },
    ...order.fulfillment.events.map((e) => {
      const track = safeUrl(e.tracking_url);
      const number = e.tracking_number ?? "";
      return {
        at: e.occurred_at,
        text: html`<strong>${words(e.type)}</strong>${e.carrier ? ` · ${e.carrier}` : ""}${number ? html` · tracking ${track ? html`<a href="${track}" rel="noreferrer">${number}</a>` : number}` : ""}${e.description ? ` · ${e.description}` : ""}`,
      };
    }),
    ...order.adjustments.map((a) => {
      const amount = a.totals?.find((t) => t.type === "total")?.amount;
      return {
        at: a.occurred_at,
        text: html`<strong>${words(a.type)}</strong>${amount !== undefined ? ` · ${money(ctx, amount, order.currency)}` : ""} · ${words(a.status)}${a.description ? ` · ${a.description}` : ""}`,
      };
    }),
  ].sort((x, y) => x.at.localeCompare(y.at));
  return html`<section class="card" aria-labelledby="timeline"><h2 id="timeline">Timeline</h2><ol>${entries.map(
    (e) => html`<li><time datetime="${e.at}">${dateTime(ctx, e.at)}</time>: ${e.text}</li>`,
  )}</ol></section>`;
}

const DISPUTE_STATUS: Readonly<Record<string, string>> = {
  warning_needs_response: "Inquiry: needs your response",
  warning_under_review: "Inquiry: under review",
  warning_closed: "Inquiry closed",
  needs_response: "Needs your response",
  under_review: "Under review",
  won: "Won",
  lost: "Lost",
};

/**
 * What the payment processor reported by webhook (src/payment-webhooks/): disputes, and
 * refunds with the processor's id, the dashboard's (already in the timeline as adjustments)
 * and the store's own, confirmed. Nothing when there were none.
 */
function processorFacts(ctx: ConsoleContext, view: MerchantOrderView): SafeHtml | string {
  const { disputes, processor_refunds: refunds } = view;
  if (disputes.length === 0 && refunds.length === 0) return "";
  const open = disputes.some((d) => d.status.endsWith("needs_response"));
  return html`<section class="card" aria-labelledby="processor"><h2 id="processor">Refunds and disputes at the payment processor</h2>
${open ? html`<p class="notice error" role="status">A dispute needs your response: answer it in your Stripe dashboard before the evidence is due.</p>` : ""}
${
  disputes.length > 0
    ? html`<table><caption>Disputes</caption><thead><tr><th scope="col">Dispute</th><th scope="col">Status</th><th scope="col">Reason</th><th scope="col" class="num">Amount</th><th scope="col">Evidence due</th></tr></thead>
<tbody>${disputes.map(
        (d) =>
          html`<tr><td class="fit">${d.id}</td><td>${DISPUTE_STATUS[d.status] ?? words(d.status)}</td><td>${words(d.reason)}</td><td class="num">${money(ctx, d.amount, d.currency)}</td><td>${d.evidence_due_by ? dateTime(ctx, d.evidence_due_by) : "—"}</td></tr>`,
      )}</tbody></table>`
    : ""
}
${
  refunds.length > 0
    ? html`<table><caption>Refunds</caption><thead><tr><th scope="col">Refund</th><th scope="col">Made in</th><th scope="col">Status</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>${refunds.map(
        (r) =>
          html`<tr><td class="fit">${r.id}</td><td>${r.by_store ? "this store" : "Stripe's dashboard"}</td><td>${words(r.status)}</td><td class="num">${money(ctx, r.amount, r.currency)}</td></tr>`,
      )}</tbody></table>`
    : ""
}
</section>`;
}

function webhookState(ctx: ConsoleContext, w: MerchantOrderView["webhooks"][number]): string {
  if (w.delivered_at !== null) return `delivered ${dateTime(ctx, w.delivered_at)}`;
  if (w.failed_at !== null) return "gave up";
  // Claimed but not yet recorded: an attempt is in flight right now.
  if (w.deliveries.length < w.attempts) return "sending";
  return w.attempts > 0 ? `retrying (next ${dateTime(ctx, w.next_attempt_at ?? 0)})` : "waiting";
}

function webhooks(ctx: ConsoleContext, view: MerchantOrderView): SafeHtml {
  if (view.webhooks.length === 0) {
    return html`<section class="card" aria-labelledby="hooks"><h2 id="hooks">Webhooks</h2><p>The platform gave no webhook URL: nothing is sent.</p></section>`;
  }
  const open = view.webhooks.some((w) => w.delivered_at === null);
  return html`<section class="card" aria-labelledby="hooks"><h2 id="hooks">Webhooks</h2>
<table><thead><tr><th scope="col">#</th><th scope="col">Event</th><th scope="col">Occurred</th><th scope="col">State</th><th scope="col">Attempts</th></tr></thead>
<tbody>${view.webhooks.map(
    (
      w,
    ) => html`<tr><td>${w.seq}</td><td>${words(w.event)}</td><td>${dateTime(ctx, w.occurred_at)}</td><td>${webhookState(ctx, w)}</td>
<td><ul>${w.deliveries.map((d) => html`<li>${d.attempt}: ${dateTime(ctx, d.at)}, ${d.status ?? "no answer"}${d.error ? html` <span class="muted fit">${d.error}</span>` : ""}</li>`)}</ul></td></tr>`,
  )}</tbody></table>
${open ? html`<form method="post" action="/admin/orders/${view.order.id}/retry-webhooks">${consoleCsrfInput(ctx)}<button type="submit" class="secondary">Retry now</button></form>` : ""}
</section>`;
}

export async function orderPage(
  ctx: ConsoleContext,
  params: Readonly<Record<string, string>>,
  problem?: PageProblem,
): Promise<Response> {
  const id = params.id ?? "";
  const view = await orderDetail(ctx.env, id);
  if (!view) return consoleMessage(ctx, 404, "Order not found", "There is no order with this id.");
  const facts = await lineFacts(
    ctx.env,
    view.order.line_items.map((l) => l.item.id),
  );
  const done = DONE[ctx.url.searchParams.get("done") ?? ""];
  const notice = problem
    ? html`<div class="notice error" role="alert"><p>Nothing was changed:</p><ul>${problem.issues.map((i) => html`<li>${i.path}: ${i.message}</li>`)}</ul></div>`
    : done
      ? html`<p class="notice ok" role="status">${done}</p>`
      : "";
  // The short number the buyer quotes ("#1001"), and the UCP id agents and the API use.
  const label = typeof view.order.label === "string" ? view.order.label : undefined;
  return renderConsole(ctx, {
    title: `Order ${label ?? id}`,
    status: problem?.status ?? 200,
    body: html`<p><a href="/admin/orders">All orders</a></p>
<h1 class="fit">Order ${label ?? id} ${statusBadge(view.status)}</h1>${label ? html`<p class="muted fit">${id}</p>` : ""}${notice}
<div class="grid">${recipientCard(ctx, view)}${who(ctx, view)}${paymentCard(ctx, view)}</div>
${linesCard(ctx, view, facts)}
${actionForms(ctx, view, html`${shipForm(ctx, view)}${refundForm(ctx, view)}`)}
${processorFacts(ctx, view)}${timeline(ctx, view)}${webhooks(ctx, view)}`,
  });
}
