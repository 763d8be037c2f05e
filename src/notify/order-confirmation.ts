/**
 * The order-confirmation message a buyer receives after completing a checkout: the lines
 * (title, quantity, line total), the order's totals in its currency, the shipping address if
 * any, and the order status page (`permalink_url`). Pure: built from the stored order, as
 * plain text (what any provider accepts) and as HTML (confirmation-html.ts).
 */
import { includedTaxesOf } from "../checkout/included-tax";
import { formatMinor } from "../checkout/money";
import type { Language } from "../i18n/catalogs";
import { includedLabel, totalLabel } from "../i18n/total-labels";
import { pageLanguage, type Translate, translatorFor } from "../i18n/translate";
import { orderLabel } from "../order/order-number";
import type { OrderLine, OrderState } from "../order/order-state";
import { confirmationHtml } from "./confirmation-html";
import type { NotificationMessage } from "./sender";

export const ORDER_CONFIRMATION = "order_confirmation";

/** What the buyer reads, already formatted; both renderings show exactly this. */
export interface ConfirmationView {
  readonly merchantName: string;
  readonly orderId: string;
  /** What the buyer reads and quotes: "#1001", or the order id for orders placed before numbers. */
  readonly orderName: string;
  readonly lines: ReadonlyArray<{ title: string; quantity: number; total: string }>;
  readonly totals: ReadonlyArray<{ label: string; amount: string; grand: boolean }>;
  readonly shipTo: readonly string[];
  readonly statusUrl: string;
  /** The store's language (MERCHANT_LOCALE): the email's words and `lang`. */
  readonly lang: Language;
  readonly t: Translate;
}

/** `locale` (MERCHANT_LOCALE) formats the amounts as the store's pages do. */
export function orderConfirmation(
  order: OrderState,
  to: string,
  merchantName: string,
  locale = "en-US",
): NotificationMessage {
  const view = confirmationView(order, merchantName, locale);
  return {
    kind: ORDER_CONFIRMATION,
    id: `${ORDER_CONFIRMATION}.${order.id}`,
    to,
    subject: view.t("email.subject", { store: merchantName, order: view.orderName }),
    text: confirmationText(view),
    html: confirmationHtml(view),
  };
}

export function confirmationView(order: OrderState, merchantName: string, locale = "en-US"): ConfirmationView {
  const money = (amount: number) => formatMinor(amount, order.currency, locale);
  const t = translatorFor(locale);
  const totals = order.totals.filter((t) => t.amount !== 0 || t.type === "total");
  return {
    merchantName,
    orderId: order.id,
    orderName: order.number !== undefined ? orderLabel(order.number) : order.id,
    lines: order.line_items
      .filter((l) => l.quantity.original > 0)
      .map((l) => ({ title: l.item.title, quantity: l.quantity.original, total: money(lineTotal(l)) })),
    totals: [
      ...totals.map((total) => ({
        label: totalLabel(t, total),
        amount: money(total.amount),
        grand: total.type === "total",
      })),
      // Prices that include tax: "incl. VAT (19%)" under the total, never added to it.
      ...includedTaxesOf(order.totals).map((l) => ({
        label: includedLabel(t, l.display_text),
        amount: money(l.amount),
        grand: false,
      })),
    ],
    shipTo: shippingAddress(order),
    statusUrl: order.permalink_url,
    lang: pageLanguage(locale),
    t,
  };
}

function confirmationText(view: ConfirmationView): string {
  const { t } = view;
  return [
    t("email.thanks", { store: view.merchantName }),
    t("order.titleNumbered", { number: view.orderName }),
    "",
    ...view.lines.map((l) => `- ${l.quantity} × ${l.title}: ${l.total}`),
    "",
    ...view.totals.map((total) => `${total.label}: ${total.amount}`),
    ...(view.shipTo.length > 0 ? ["", `${t("order.shippingTo")}:`, ...view.shipTo.map((line) => `  ${line}`)] : []),
    "",
    `${t("email.statusLink")}: ${view.statusUrl}`,
  ].join("\n");
}

/** The line's own total as priced at completion; unit price × quantity on lines without one. */
function lineTotal(line: OrderLine): number {
  const total = line.totals.find((t) => t.type === "total") ?? line.totals.find((t) => t.type === "subtotal");
  return total?.amount ?? line.item.price * line.quantity.original;
}

/** The first shipping expectation's destination as address lines; none for pickup or digital orders. */
function shippingAddress(order: OrderState): string[] {
  const expectation = order.expectations[0] as { destination?: Record<string, unknown> } | undefined;
  const a = expectation?.destination;
  if (!a) return [];
  const field = (name: string) => (typeof a[name] === "string" ? (a[name] as string).trim() : "");
  const join = (parts: string[], sep: string) => parts.filter((p) => p !== "").join(sep);
  return [
    join([field("first_name"), field("last_name")], " "),
    field("street_address"),
    field("extended_address"),
    join([join([field("address_locality"), field("address_region")], ", "), field("postal_code")], " "),
    field("address_country"),
  ].filter((line) => line !== "");
}
