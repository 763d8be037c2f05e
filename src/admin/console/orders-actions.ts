/**
 * The order pages' POST actions: ship, deliver, refund, cancel (through changeOrder, the JSON
 * admin API's own path, with the form's idempotency key), "retry now" for webhooks and the
 * index rebuild. Each answers 303 back to its page; a refused form is re-shown with its issues.
 */
import { IDEMPOTENCY_KEY_MAX, isIdempotencyKey } from "../../lib/idempotency-key-rule";
import { seeOther } from "../../pages/respond";
import { changeOrder, rebuildIndex, retryWebhooks } from "../orders";
import { field, readConsoleForm } from "./forms";
import { consoleMessage } from "./layout";
import { orderPage } from "./orders-detail";
import { parseAmount } from "./orders-format";
import type { OrderAction } from "./orders-forms";
import type { ConsoleContext, ConsoleHandler } from "./types";

type Params = Readonly<Record<string, string>>;

const refused = (ctx: ConsoleContext) =>
  consoleMessage(
    ctx,
    403,
    "Refused",
    "This form expired or did not come from the console. Reload the page and try again.",
  );

/**
 * The units per line a form names (`ship:<line id>`, `refund:<line id>`): zero and empty are
 * left out; anything but a whole number is the issue. `named`: the form had such fields.
 */
function formLines(
  form: FormData,
  prefix: string,
): { named: boolean; counts: Array<{ id: string; quantity: number }> } | { path: string; message: string } {
  const counts: Array<{ id: string; quantity: number }> = [];
  let named = false;
  for (const [name, value] of form.entries()) {
    if (!name.startsWith(prefix) || typeof value !== "string") continue;
    named = true;
    const id = name.slice(prefix.length, prefix.length + 200);
    const text = value.trim();
    if (text === "" || text === "0") continue;
    if (!/^\d{1,7}$/.test(text)) return { path: id, message: "units must be a whole number" };
    counts.push({ id, quantity: Number(text) });
  }
  return { named, counts };
}

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
    case "ship": {
      const lines = formLines(form, "ship:");
      if ("path" in lines) return lines;
      // A form without line fields (an older page) ships every remaining unit, as before.
      if (lines.named && lines.counts.length === 0)
        return { path: "ship", message: "choose at least one unit to ship" };
      return {
        op: "events",
        body: {
          type: "shipped",
          ...(lines.counts.length > 0 ? { line_items: lines.counts } : {}),
          ...optional("carrier"),
          ...optional("tracking_number"),
          ...optional("tracking_url", 2000),
        },
      };
    }
    case "deliver":
      return { op: "events", body: { type: "delivered", ...optional("description", 1000) } };
    case "refund": {
      const lines = formLines(form, "refund:");
      if ("path" in lines) return lines;
      const typed = field(form, "amount", 40);
      const amount = typed ? parseAmount(typed, currency) : undefined;
      if (typed && (amount === undefined || amount <= 0))
        return { path: "amount", message: `an amount in ${currency}, e.g. 12.50` };
      if (amount === undefined && lines.counts.length === 0)
        return { path: "amount", message: "choose units to refund, or type an amount" };
      const restock = lines.counts.length > 0 && field(form, "restock") === "yes";
      return {
        op: "adjustments",
        body: {
          type: "refund",
          ...(lines.counts.length > 0
            ? { line_items: lines.counts.map((l) => ({ id: l.id, quantity: -l.quantity })) }
            : {}),
          ...(amount !== undefined ? { amount } : {}),
          ...(restock ? { restock: true } : {}),
          ...optional("description", 1000),
        },
      };
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
    const key = field(form, "idempotency_key", IDEMPOTENCY_KEY_MAX + 1);
    if (!isIdempotencyKey(key)) return problem("idempotency_key", "missing: reload the page");
    const change = changeOf(action, form, ctx.config.currency);
    if ("path" in change) return problem(change.path, change.message);
    const reply = await changeOrder(ctx.env, id, change.op, change.body, key);
    switch (reply.kind) {
      case "ok":
        return seeOther(`/admin/orders/${id}?done=${action}`);
      // The console acts for the merchant: never another platform's order, never a create.
      case "not_found":
      case "not_owner":
        return consoleMessage(ctx, 404, "Order not found", "There is no order with this id.");
      case "conflict":
      case "taken":
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
