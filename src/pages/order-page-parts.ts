/** The order page's status line, shipping address, shipments (with tracking links) and adjustments. */
import type { PageContext } from "./context";
import { html, type SafeHtml, safeUrl } from "./html";
import { orderPrice } from "./order-page-items";

interface Total {
  readonly type: string;
  readonly amount: number;
  readonly display_text?: string;
  readonly lines?: readonly { type?: string; display_text: string; amount: number }[];
}

/** get_order's payload (shopping/order.json), as far as the page reads it. */
export interface OrderView {
  readonly id: string;
  readonly currency?: string;
  readonly line_items: ReadonlyArray<{
    readonly id: string;
    readonly item: { readonly title: string; readonly price: number; readonly image_url?: string };
    readonly quantity: { readonly original: number; readonly total: number; readonly fulfilled: number };
    readonly totals?: readonly Total[];
    readonly status?: string;
  }>;
  readonly totals?: readonly Total[];
  readonly fulfillment?: {
    readonly expectations?: ReadonlyArray<{
      readonly destination?: Record<string, unknown>;
      readonly description?: string;
    }>;
    readonly events?: ReadonlyArray<{
      readonly id: string;
      readonly occurred_at: string;
      readonly type: string;
      readonly line_items?: ReadonlyArray<{ readonly id: string; readonly quantity: number }>;
      readonly tracking_number?: string;
      readonly tracking_url?: string;
      readonly carrier?: string;
      readonly description?: string;
    }>;
  };
  readonly adjustments?: ReadonlyArray<{
    readonly id: string;
    readonly type: string;
    readonly occurred_at: string;
    readonly status: string;
    readonly totals?: readonly Total[];
    readonly description?: string;
  }>;
}

/** A lower_snake_case word from the order ("in_transit") as words ("In transit"). */
function words(type: string): string {
  const text = type.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The order's state in one phrase, from its lines' quantities and its events. */
export function orderStatus(order: OrderView): string {
  const active = order.line_items.filter((l) => l.quantity.total > 0);
  if (active.length === 0) return "Canceled";
  const shipped = active.filter((l) => l.quantity.fulfilled >= l.quantity.total).length;
  const delivered = (order.fulfillment?.events ?? []).some((e) => e.type === "delivered");
  if (shipped === active.length) return delivered ? "Delivered" : "Shipped";
  if (shipped > 0 || active.some((l) => l.quantity.fulfilled > 0)) return "Partly shipped";
  return "Confirmed, preparing to ship";
}

function when(ctx: PageContext, iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${new Intl.DateTimeFormat(ctx.config.storefront.locale, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  }).format(date)} UTC`;
}

const ADDRESS_LINES = [
  ["first_name", "last_name"],
  ["street_address"],
  ["extended_address"],
  ["address_locality", "address_region", "postal_code"],
  ["address_country"],
] as const;

export function shippingAddress(order: OrderView): SafeHtml {
  const expectation = order.fulfillment?.expectations?.[0];
  const destination = expectation?.destination;
  if (!destination) return html``;
  const lines = ADDRESS_LINES.map((keys) =>
    keys
      .map((k) => destination[k])
      .filter((v): v is string => typeof v === "string" && v.length > 0)
      .join(" "),
  ).filter((line) => line.length > 0);
  return html`<h2>Shipping to</h2><div class="card"><address>${lines.map((l, i) => html`${i > 0 ? html`<br>` : ""}${l}`)}</address>${
    expectation?.description ? html`<p class="muted">${expectation.description}</p>` : ""
  }</div>`;
}

export function eventList(ctx: PageContext, order: OrderView): SafeHtml {
  const events = order.fulfillment?.events ?? [];
  const titles = new Map(order.line_items.map((l) => [l.id, l.item.title]));
  return html`<h2>Shipments</h2>${
    events.length === 0
      ? html`<p class="muted">Nothing has shipped yet.</p>`
      : html`<ol class="card events fit">${events.map((event) => {
          const link = safeUrl(event.tracking_url);
          const tracking = event.tracking_number ?? "Track the package";
          return html`<li><strong>${words(event.type)}</strong> · <time datetime="${event.occurred_at}">${when(ctx, event.occurred_at)}</time>
${event.carrier ? html`<br>Carrier: ${event.carrier}` : ""}
${link ? html`<br>Tracking: <a href="${link}" rel="noreferrer noopener" target="_blank">${tracking}<span class="visually-hidden"> (opens the carrier's site)</span></a>` : event.tracking_number ? html`<br>Tracking number: ${event.tracking_number}` : ""}
${event.description ? html`<br>${event.description}` : ""}
${(event.line_items ?? []).length > 0 ? html`<br><span class="muted">${(event.line_items ?? []).map((l) => `${l.quantity} × ${titles.get(l.id) ?? l.id}`).join(", ")}</span>` : ""}</li>`;
        })}</ol>`
  }`;
}

export function adjustmentList(ctx: PageContext, order: OrderView): SafeHtml {
  const adjustments = order.adjustments ?? [];
  if (adjustments.length === 0) return html``;
  return html`<h2>Refunds and changes</h2><ul class="card events fit">${adjustments.map((a) => {
    const money = (a.totals ?? []).reduce((sum, t) => sum + (t.type === "total" ? t.amount : 0), 0);
    return html`<li><strong>${words(a.type)}</strong> · <time datetime="${a.occurred_at}">${when(ctx, a.occurred_at)}</time> · ${words(a.status)}
${money !== 0 ? html`<br>${money < 0 ? "Back to you" : "Charged"}: ${orderPrice(ctx, order, Math.abs(money))}` : ""}
${a.description ? html`<br>${a.description}` : ""}</li>`;
  })}</ul>`;
}
