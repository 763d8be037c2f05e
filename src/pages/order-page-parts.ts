/** The order page's status line, shipping address, shipments (with tracking links) and adjustments. */

import { formatDateTime } from "../i18n/date-time";
import { orderWord } from "../i18n/total-labels";
import { type Translate, translator } from "../i18n/translate";
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
  /** The short order number ("#1001"); absent on orders placed before numbers. */
  readonly label?: string;
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

/** The order's state in one phrase, from its lines' quantities and its events. */
export function orderStatus(t: Translate, order: OrderView): string {
  const active = order.line_items.filter((l) => l.quantity.total > 0);
  if (active.length === 0) return t("order.state.canceled");
  const shipped = active.filter((l) => l.quantity.fulfilled >= l.quantity.total).length;
  const delivered = (order.fulfillment?.events ?? []).some((e) => e.type === "delivered");
  if (shipped === active.length) return t(delivered ? "order.state.delivered" : "order.state.shipped");
  if (shipped > 0 || active.some((l) => l.quantity.fulfilled > 0)) return t("order.state.partlyShipped");
  return t("order.state.confirmed");
}

function when(ctx: PageContext, iso: string): string {
  return formatDateTime(ctx.config.storefront.locale, "UTC", iso);
}

const ADDRESS_LINES = [
  ["first_name", "last_name"],
  ["street_address"],
  ["extended_address"],
  ["address_locality", "address_region", "postal_code"],
  ["address_country"],
] as const;

export function shippingAddress(t: Translate, order: OrderView): SafeHtml {
  const expectation = order.fulfillment?.expectations?.[0];
  const destination = expectation?.destination;
  if (!destination) return html``;
  const lines = ADDRESS_LINES.map((keys) =>
    keys
      .map((k) => destination[k])
      .filter((v): v is string => typeof v === "string" && v.length > 0)
      .join(" "),
  ).filter((line) => line.length > 0);
  return html`<h2>${t("order.shippingTo")}</h2><div class="card"><address>${lines.map((l, i) => html`${i > 0 ? html`<br>` : ""}${l}`)}</address>${
    expectation?.description ? html`<p class="muted">${expectation.description}</p>` : ""
  }</div>`;
}

export function eventList(ctx: PageContext, order: OrderView): SafeHtml {
  const t = translator(ctx);
  const events = order.fulfillment?.events ?? [];
  const titles = new Map(order.line_items.map((l) => [l.id, l.item.title]));
  return html`<h2>${t("order.shipments")}</h2>${
    events.length === 0
      ? html`<p class="muted">${t("order.nothingShipped")}</p>`
      : html`<ol class="card events fit">${events.map((event) => {
          const link = safeUrl(event.tracking_url);
          const tracking = event.tracking_number ?? t("order.track");
          return html`<li><strong>${orderWord(t, event.type)}</strong> · <time datetime="${event.occurred_at}">${when(ctx, event.occurred_at)}</time>
${event.carrier ? html`<br>${t("order.carrier", { carrier: event.carrier })}` : ""}
${link ? html`<br>${t("order.tracking")} <a href="${link}" rel="noreferrer noopener" target="_blank">${tracking}<span class="visually-hidden"> ${t("order.opensCarrier")}</span></a>` : event.tracking_number ? html`<br>${t("order.trackingNumber", { number: event.tracking_number })}` : ""}
${event.description ? html`<br>${event.description}` : ""}
${(event.line_items ?? []).length > 0 ? html`<br><span class="muted">${(event.line_items ?? []).map((l) => `${l.quantity} × ${titles.get(l.id) ?? l.id}`).join(", ")}</span>` : ""}</li>`;
        })}</ol>`
  }`;
}

export function adjustmentList(ctx: PageContext, order: OrderView): SafeHtml {
  const t = translator(ctx);
  const adjustments = order.adjustments ?? [];
  if (adjustments.length === 0) return html``;
  return html`<h2>${t("order.adjustments")}</h2><ul class="card events fit">${adjustments.map((a) => {
    const money = (a.totals ?? []).reduce((sum, x) => sum + (x.type === "total" ? x.amount : 0), 0);
    const amount = orderPrice(ctx, order, Math.abs(money));
    return html`<li><strong>${orderWord(t, a.type)}</strong> · <time datetime="${a.occurred_at}">${when(ctx, a.occurred_at)}</time> · ${orderWord(t, a.status)}
${money !== 0 ? html`<br>${money < 0 ? t("order.refunded", { amount }) : t("order.charged", { amount })}` : ""}
${a.description ? html`<br>${a.description}` : ""}</li>`;
  })}</ul>`;
}
