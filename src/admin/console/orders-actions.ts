/**
 * The order pages' POST actions: ship, deliver, refund, cancel (through changeOrder, the JSON
 * admin API's own path, with the form's idempotency key), "retry now" for webhooks and the
 * index rebuild. Each answers 303 back to its page; a refused form is re-shown with its issues.
 */
import { seeOther } from "../../pages/respond";
import { changeOrder, rebuildIndex, retryWebhooks } from "../orders";
import { field, readConsoleForm } from "./forms";
import { consoleMessage } from "./layout";
import { orderPage } from "./orders-detail";
import { parseAmount } from "./orders-format";
import type { OrderAction } from "./orders-forms";
import type { ConsoleContext, ConsoleHandler } from "./types";

type Params = Readonly<Record<string, string>>;
const KEY = /^[\x21-\x7e]{1,255}$/;

const refused = (ctx: ConsoleContext) =>
  consoleMessage(
    ctx,
    403,
    "Refused",
    "This form expired or did not come from the console. Reload the page and try again.",
  );

/** The change a form asks for, or the issue that stops it. */
function changeOf(
  action: OrderAction,
  form: FormData,
  currency: string,
): { op: "events" | "adjustments"; body: Record<string, unknown> } | { path: string; message: string } {
  const optional = (name: string, max?: number) => {
    const value = field(form, name, max);
    return value ? { [name]: value } : {};
  };
  switch (action) {
    case "ship":
      return {
        op: "events",
        body: {
          type: "shipped",
          ...optional("carrier"),
          ...optional("tracking_number"),
          ...optional("tracking_url", 2000),
        },
      };
    case "deliver":
      return { op: "events", body: { type: "delivered", ...optional("description", 1000) } };
    case "refund": {
      const amount = parseAmount(field(form, "amount", 40), currency);
      if (amount === undefined || amount <= 0)
        return { path: "amount", message: `an amount in ${currency}, e.g. 12.50` };
      return { op: "adjustments", body: { type: "refund", amount, ...optional("description", 1000) } };
    }
    case "cancel":
      return { op: "adjustments", body: { type: "cancellation", ...optional("description", 1000) } };
  }
}

export function orderAction(action: OrderAction): ConsoleHandler {
  return async (ctx, params: Params) => {
    const form = await readConsoleForm(ctx);
    if (!form) return refused(ctx);
    const id = params.id ?? "";
    const problem = (path: string, message: string, status = 400) =>
      orderPage(ctx, params, { status, issues: [{ path, message }] });
    if (field(form, "confirm") !== "yes") return problem("confirm", "tick the box to confirm");
    const key = field(form, "idempotency_key", 300);
    if (!KEY.test(key)) return problem("idempotency_key", "missing: reload the page");
    const change = changeOf(action, form, ctx.config.currency);
    if ("path" in change) return problem(change.path, change.message);
    const reply = await changeOrder(ctx.env, id, change.op, change.body, key);
    switch (reply.kind) {
      case "ok":
        return seeOther(`/admin/orders/${id}?done=${action}`);
      case "not_found":
        return consoleMessage(ctx, 404, "Order not found", "There is no order with this id.");
      case "conflict":
        return problem("idempotency_key", "this form was already used for another change: reload the page", 409);
      case "invalid":
        return orderPage(ctx, params, { status: 400, issues: reply.issues });
    }
  };
}

export const retryWebhooksAction: ConsoleHandler = async (ctx, params) => {
  if (!(await readConsoleForm(ctx))) return refused(ctx);
  const id = params.id ?? "";
  const log = await retryWebhooks(ctx.env, id);
  if (!log) return consoleMessage(ctx, 404, "Order not found", "There is no order with this id.");
  return seeOther(`/admin/orders/${id}?done=retry`);
};

export const rebuildIndexAction: ConsoleHandler = async (ctx) => {
  const form = await readConsoleForm(ctx);
  if (!form) return refused(ctx);
  if (field(form, "confirm") !== "yes") {
    return consoleMessage(ctx, 400, "Not rebuilt", "Tick the box to confirm the rebuild.");
  }
  await rebuildIndex(ctx.env);
  return seeOther("/admin/orders?rebuild=started");
};
