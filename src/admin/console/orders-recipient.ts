/**
 * Where an order goes, for the merchant who ships it (issue 26 item 1): the recipient's name,
 * address and phone (the destination the buyer chose, as the order's expectation keeps it) and
 * the shipping method with the price paid (the order's `fulfillment` total). Shared by the
 * order page and the packing slip. Every value is escaped by `html`.
 */
import type { MerchantOrderView } from "../../../durable-objects/order-object";
import { html, type SafeHtml } from "../../pages/html";
import { money } from "./orders-format";
import type { ConsoleContext } from "./types";

type Order = MerchantOrderView["order"];
type Address = Readonly<Record<string, string | undefined>>;

export interface Recipient {
  readonly name: string;
  readonly lines: readonly string[];
  readonly phone?: string;
}

/** The first expectation's destination and description (the order has one per checkout). */
function expectation(order: Order): { destination?: Address; description?: string } {
  const first = order.fulfillment.expectations[0] as { destination?: Address; description?: string } | undefined;
  return first ?? {};
}

export function recipientOf(order: Order): Recipient | undefined {
  const address = expectation(order).destination;
  if (!address) return undefined;
  const name = [address.first_name, address.last_name].filter(Boolean).join(" ");
  const place = [address.address_locality, [address.address_region, address.postal_code].filter(Boolean).join(" ")]
    .filter(Boolean)
    .join(", ");
  const lines = [address.street_address, address.extended_address, place, address.address_country].filter(
    (l): l is string => typeof l === "string" && l.length > 0,
  );
  return { name, lines, ...(address.phone_number ? { phone: address.phone_number } : {}) };
}

/** The recipient as an address block (order page and packing slip). */
export function recipientBlock(recipient: Recipient | undefined): SafeHtml {
  if (!recipient) return html`<p>No shipping address</p>`;
  return html`<address>${recipient.name ? html`<strong>${recipient.name}</strong><br>` : ""}${recipient.lines.map(
    (l, i) => html`${i > 0 ? html`<br>` : ""}${l}`,
  )}${recipient.phone ? html`<br>Phone: <a href="tel:${recipient.phone.replace(/[^+\d]/g, "")}">${recipient.phone}</a>` : ""}</address>`;
}

/** The shipping method's title (and the buyer-facing delivery words) and what the buyer paid for it. */
export function shippingMethod(ctx: ConsoleContext, view: MerchantOrderView): SafeHtml {
  const { order } = view;
  const paid = order.totals.find((t) => t.type === "fulfillment")?.amount;
  const description = expectation(order).description;
  const title = view.shipping_option?.title ?? (order.fulfillment.expectations.length > 0 ? "Shipping" : "No shipping");
  const price = paid === undefined ? "" : paid === 0 ? "Free" : money(ctx, paid, order.currency);
  return html`${title}${price ? html` · <strong>${price}</strong>` : ""}${description ? html`<br><span class="muted">${description}</span>` : ""}`;
}

export function recipientCard(ctx: ConsoleContext, view: MerchantOrderView): SafeHtml {
  return html`<section class="card" aria-labelledby="ship-to"><h2 id="ship-to">Ship to</h2>
${recipientBlock(recipientOf(view.order))}
<dl><dt>Shipping method</dt><dd>${shippingMethod(ctx, view)}</dd></dl>
<p><a class="button secondary" href="/admin/orders/${view.order.id}/packing-slip">Packing slip</a></p></section>`;
}
