/**
 * One product's variant rows on the catalog page: price, catalog status, the live count and
 * the stock forms (add units with a one-use idempotency key rendered into the form, set the
 * count, mark unavailable = set 0), all posting to catalog-stock.ts.
 */
import type { Product } from "../../../schemas/ucp/product";
import type { IndexDoc } from "../../catalog/search-index";
import { html, type SafeHtml } from "../../pages/html";
import { consoleCsrfInput } from "./layout";
import type { ConsoleContext } from "./types";

export function variantRows(
  ctx: ConsoleContext,
  doc: IndexDoc,
  product: Product | undefined,
  levels: Readonly<Record<string, number | null>>,
  money: (minor: number) => string,
  page: number,
): SafeHtml[] {
  return doc.v.map(([id, , price], i) => {
    const variant = product?.variants[i];
    const status = variant?.availability?.status ?? (variant?.availability?.available === false ? "unavailable" : "");
    const counted = Object.hasOwn(levels, id);
    const level = levels[id];
    const action = `/admin/catalog/stock/${encodeURIComponent(id)}`;
    const label = `${variant?.title ?? id} (${id})`;
    return html`<tr id="v-${id}">
<td>${variant?.title ?? ""} <span class="muted">${id}</span></td>
<td class="num">${money(price)}</td>
<td>${status}</td>
<td class="num" data-stock="${id}">${counted ? (level === null ? "not limited" : String(level)) : "not counted"}</td>
<td>${counted ? stockForms(ctx, action, label, page) : html`<span class="muted">sells on ${status || "its status"}</span>`}</td>
</tr>`;
  });
}

function stockForms(ctx: ConsoleContext, action: string, label: string, page: number): SafeHtml {
  const key = crypto.randomUUID();
  return html`<form method="post" action="${action}" class="stock">
${consoleCsrfInput(ctx)}<input type="hidden" name="idempotency_key" value="${key}"><input type="hidden" name="page" value="${page}">
<input name="units" type="number" min="0" max="1000000" step="1" required aria-label="Units for ${label}">
<button type="submit" name="op" value="add" class="secondary">Add</button>
<button type="submit" name="op" value="set" class="secondary">Set</button>
</form>
<form method="post" action="${action}">
${consoleCsrfInput(ctx)}<input type="hidden" name="op" value="set"><input type="hidden" name="units" value="0"><input type="hidden" name="page" value="${page}">
<button type="submit" class="link" aria-label="Mark unavailable: ${label}">Mark unavailable</button>
</form>`;
}
