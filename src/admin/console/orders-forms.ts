/**
 * An order's action forms (deliver, cancel; ship and refund in orders-fulfil.ts): each carries a fresh idempotency
 * key and a confirm checkbox the server checks, so a double submit records one change and
 * a stray click records none.
 */
import type { MerchantOrderView } from "../../../durable-objects/order-object";
import { html, type SafeHtml } from "../../pages/html";
import { consoleCsrfInput } from "./layout";
import type { ConsoleContext } from "./types";

export const ORDER_ACTIONS = ["ship", "deliver", "refund", "cancel"] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

function form(
  ctx: ConsoleContext,
  id: string,
  action: OrderAction,
  legend: string,
  fields: SafeHtml,
  confirm: string,
  danger = false,
): SafeHtml {
  return html`<form class="card" method="post" action="/admin/orders/${id}/${action}">${consoleCsrfInput(ctx)}
<input type="hidden" name="idempotency_key" value="${crypto.randomUUID()}">
<fieldset><legend>${legend}</legend>${fields}
<label><input type="checkbox" name="confirm" value="yes" required> ${confirm}</label>
<button type="submit"${danger ? html` class="danger"` : ""}>${legend}</button></fieldset></form>`;
}

const text = (id: string, name: string, label: string, type = "text") =>
  html`<label for="${id}">${label}</label><input id="${id}" name="${name}" type="${type}" maxlength="${name === "tracking_url" ? 2000 : 200}">`;

/**
 * Deliver and cancel; ship and refund are the line-level forms (orders-fulfil.ts). Only what
 * still applies: no cancel once every active unit has shipped, no delivery before everything shipped.
 */
export function actionForms(ctx: ConsoleContext, view: MerchantOrderView, extra: SafeHtml): SafeHtml {
  const id = view.order.id;
  const open = view.status !== "canceled";
  const unshipped = view.order.line_items.some((l) => l.quantity.total > l.quantity.fulfilled);
  const deliverable = view.status === "shipped";
  return html`<section aria-labelledby="actions"><h2 id="actions">Actions</h2><div class="grid">
${extra}
${
  open && deliverable
    ? form(
        ctx,
        id,
        "deliver",
        "Mark delivered",
        text(`deliver-note-${id}`, "description", "Note (optional)"),
        "The buyer has it",
      )
    : ""
}
${
  open && unshipped
    ? form(
        ctx,
        id,
        "cancel",
        "Cancel order",
        text(`cancel-note-${id}`, "description", "Reason (optional)"),
        "Cancel every unshipped unit and refund it",
        true,
      )
    : ""
}
</div></section>`;
}
