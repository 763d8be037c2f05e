/**
 * The order-confirmation message a buyer receives after completing a checkout. Pure: built
 * from the stored order, in plain text (what any email or SMS provider accepts).
 */
import { formatMinor } from "../checkout/money";
import type { OrderState } from "../order/order-state";
import type { NotificationMessage } from "./sender";

export const ORDER_CONFIRMATION = "order_confirmation";

export function orderConfirmation(order: OrderState, to: string, merchantName: string): NotificationMessage {
  const total = order.totals.find((t) => t.type === "total")?.amount ?? 0;
  const lines = order.line_items.map(
    (l) =>
      `- ${l.quantity.original} × ${l.item.title}: ${formatMinor(l.item.price * l.quantity.original, order.currency)}`,
  );
  return {
    kind: ORDER_CONFIRMATION,
    to,
    subject: `${merchantName}: order ${order.id} confirmed`,
    text: [
      `Thank you for your order with ${merchantName}.`,
      "",
      ...lines,
      "",
      `Total: ${formatMinor(total, order.currency)}`,
      `Order details and tracking: ${order.permalink_url}`,
    ].join("\n"),
  };
}
