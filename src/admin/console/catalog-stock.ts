/**
 * `POST /admin/catalog/stock/<variant>`: the catalog page's stock forms, through the same
 * restock the JSON API runs (src/admin/inventory.ts → InventoryObject.restock). An add carries
 * the idempotency key its form was rendered with, so a double submit counts one delivery.
 */
import { parseStockChange } from "../../catalog/stock-change";
import { IDEMPOTENCY_KEY_MAX, isIdempotencyKey } from "../../lib/idempotency-key-rule";
import { seeOther } from "../../pages/respond";
import { restockVariant, type StockRefusal } from "../inventory";
import { field, readConsoleForm } from "./forms";
import { consoleMessage } from "./layout";
import type { ConsoleContext } from "./types";

/** The JSON API's statuses for the same refusals. */
const STATUS: Record<StockRefusal["error"], number> = {
  not_found: 404,
  not_counted: 409,
  idempotency_conflict: 409,
  idempotency_key_required: 400,
  invalid_input: 400,
};

export async function changeStock(ctx: ConsoleContext, params: Readonly<Record<string, string>>): Promise<Response> {
  const form = await readConsoleForm(ctx);
  if (!form)
    return consoleMessage(
      ctx,
      403,
      "Refused",
      "The form expired or came from elsewhere. Reload the page and try again.",
    );
  const variantId = decoded(params.variant ?? "");
  const op = field(form, "op");
  const unitsText = field(form, "units", 20);
  const units = /^-?\d+$/.test(unitsText) ? Number(unitsText) : Number.NaN;
  const change = parseStockChange(op === "add" ? { add: units } : op === "set" ? { set: units } : {});
  if (!change.ok) {
    const what = change.error.map((i) => i.message).join("; ");
    return consoleMessage(ctx, 400, "Stock not changed", `Units ${what}.`);
  }
  const key = field(form, "idempotency_key", IDEMPOTENCY_KEY_MAX + 1);
  const outcome = await restockVariant(ctx.env, variantId, change.value, isIdempotencyKey(key) ? key : null);
  if ("error" in outcome) {
    const status = STATUS[outcome.error];
    const text =
      outcome.error === "idempotency_conflict"
        ? "This form was already used for another change. Reload the page and try again."
        : "issues" in outcome
          ? outcome.issues.map((i) => i.message).join("; ")
          : outcome.message;
    return consoleMessage(ctx, status, "Stock not changed", text);
  }
  const page = Number.parseInt(field(form, "page", 8), 10) || 1;
  const query = new URLSearchParams({ page: String(page), stocked: variantId });
  return seeOther(`/admin/catalog?${query}#v-${encodeURIComponent(variantId)}`);
}

/** The router leaves path parameters encoded; a malformed escape names no variant. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return "";
  }
}
