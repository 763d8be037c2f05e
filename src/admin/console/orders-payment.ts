/**
 * The order page's "Payment" card (issue 24 item 6): what the buyer paid with (brand and last
 * four digits, the checkout's display data: never a credential), where the money stands
 * (captured, authorized until shipment, refunded in part, ...) and the processor's reference,
 * a link into Stripe's dashboard for a Stripe PaymentIntent (test or live, as the store's
 * key), plain text otherwise. Every value is escaped by `html`.
 */
import type { MerchantOrderView } from "../../../durable-objects/order-object";
import { html, type SafeHtml } from "../../pages/html";
import { dateTime, money } from "./orders-format";
import type { ConsoleContext } from "./types";

const BRANDS: Readonly<Record<string, string>> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  jcb: "JCB",
  diners: "Diners Club",
  unionpay: "UnionPay",
};

const HANDLERS: Readonly<Record<string, string>> = {
  google_pay: "Google Pay",
  stripe_payments: "Stripe (shared payment token)",
};

/** Stripe's dashboard page of a PaymentIntent, in the world (test/live) of the store's key. */
export function stripeDashboardUrl(mode: "test" | "live", intentId: string): string {
  return `https://dashboard.stripe.com/${mode === "test" ? "test/" : ""}payments/${encodeURIComponent(intentId)}`;
}

function method(view: MerchantOrderView): SafeHtml | string {
  const shown = view.payment_display;
  if (!shown) return "Not recorded (an order placed before the store kept it)";
  const brand = shown.brand ? (BRANDS[shown.brand.toLowerCase()] ?? shown.brand) : "Card";
  const via = HANDLERS[shown.handler_id] ?? shown.handler_id;
  return html`${brand}${shown.last_digits ? ` ending in ${shown.last_digits}` : ""} <span class="muted">via ${via}</span>`;
}

/** Where the money stands, in words: the capture first (capture at shipment), then refunds. */
export function paymentStatus(ctx: ConsoleContext, view: MerchantOrderView): string {
  const { order, capture, refunded } = view;
  const total = order.totals.find((t) => t.type === "total")?.amount ?? 0;
  const amount = (minor: number) => money(ctx, minor, order.currency);
  if (!view.charge_id) return "No charge recorded";
  switch (capture?.status) {
    case "authorized":
      return `Authorized: ${amount(Math.max(0, total - refunded))} will be captured at the first shipment`;
    case "pending":
      return `Authorized: capturing ${amount(capture.amount ?? total)} (shipped; retried until the processor takes it)`;
    case "failed":
      return "Authorized, capture failed: capture it in the processor's dashboard before the authorization expires";
    case "released":
      return "Authorization released: the order was canceled before shipment, nothing was taken";
    default:
      break;
  }
  const taken = capture?.amount ?? total;
  const given = Math.max(0, refunded - (total - taken));
  const when = capture?.captured_at ? ` at shipment (${dateTime(ctx, capture.captured_at)})` : "";
  if (given <= 0) return `Captured ${amount(taken)}${when}`;
  if (given >= taken) return `Refunded: ${amount(taken)} captured${when}, all given back`;
  return `Refunded in part: ${amount(given)} of ${amount(taken)} captured${when}`;
}

function reference(ctx: ConsoleContext, chargeId: string | null): SafeHtml | string {
  if (!chargeId) return "—";
  const stripe = ctx.config.stripe;
  if (stripe && chargeId.startsWith("pi_"))
    return html`<a href="${stripeDashboardUrl(stripe.mode, chargeId)}" rel="noreferrer" target="_blank" class="fit">${chargeId}</a> <span class="muted">(Stripe PaymentIntent${stripe.mode === "test" ? ", test mode" : ""})</span>`;
  const test = chargeId.startsWith("ch_test_");
  return html`<span class="fit">${chargeId}</span>${test ? html` <span class="muted">(test processor: no money moved)</span>` : ""}`;
}

export function paymentCard(ctx: ConsoleContext, view: MerchantOrderView): SafeHtml {
  return html`<section class="card" aria-labelledby="payment"><h2 id="payment">Payment</h2><dl>
<dt>Paid with</dt><dd>${method(view)}</dd>
<dt>Status</dt><dd>${paymentStatus(ctx, view)}</dd>
<dt>Processor reference</dt><dd>${reference(ctx, view.charge_id)}</dd>
</dl></section>`;
}
