/** The cart as `get_cart` returns it, rendered: lines with images, quantity fields, totals, messages, "Check out". */

import { totalLabel } from "../i18n/total-labels";
import { type Translate, translator } from "../i18n/translate";
import type { ToolPayload } from "./buyer-tools";
import { unitsIn } from "./cart-badge";
import { cartCookieToken } from "./cart-page-cookie";
import type { PageContext } from "./context";
import { html, type SafeHtml, safeUrl } from "./html";
import { cartTaxNote } from "./included-tax-rows";
import { csrfInput, renderPage } from "./layout";
import { formatMoney } from "./money";
import { messageText } from "./tool-messages";

export interface CartLine {
  readonly id: string;
  readonly item: { readonly id: string; readonly title: string; readonly price: number; readonly image_url?: string };
  readonly quantity: number;
  readonly totals: ReadonlyArray<{ readonly type: string; readonly amount: number }>;
}

interface Total {
  readonly type: string;
  readonly amount: number;
  readonly display_text?: string;
}

interface Message {
  readonly type?: string;
  readonly code?: string;
  readonly path?: string;
  readonly content?: string;
}

export const QTY_PREFIX = "qty.";

export function cartLines(cart: ToolPayload): CartLine[] {
  return (Array.isArray(cart.line_items) ? cart.line_items : []) as CartLine[];
}

/**
 * The header's count on a cart page a POST answers with (a change refused): the cart shown is
 * the count when it is the cookie's cart, read after the change like any GET (cart-badge.ts).
 */
function ownCart(ctx: PageContext, token: string, cart: ToolPayload): PageContext {
  if (ctx.cart || cartCookieToken(ctx) !== token) return ctx;
  return { ...ctx, cart: { href: `/cart/${token}`, count: unitsIn(cart.line_items) } };
}

export function renderCart(
  request: PageContext,
  token: string,
  cart: ToolPayload,
  /** `copy`: offer the buyer a cart of their own with these lines (the cart is being checked out elsewhere). */
  problem?: { status: number; messages: readonly string[]; headers?: Record<string, string>; copy?: boolean },
): Response {
  const ctx = ownCart(request, token, cart);
  const t = translator(ctx);
  const currency = typeof cart.currency === "string" ? cart.currency : ctx.config.currency;
  const price = (minor: number) => formatMoney(minor, currency, ctx.config.storefront.locale);
  const lines = cartLines(cart);
  const messages = ((Array.isArray(cart.messages) ? cart.messages : []) as Message[]).filter((m) => m.content);
  const action = `/cart/${token}`;
  const key = crypto.randomUUID();
  const body =
    lines.length === 0
      ? html`<p class="notice" role="status">${t("cart.empty.title")}</p><p><a class="button" href="/">${t("layout.continueShopping")}</a></p>`
      : html`<form method="post" action="${action}" class="card">
${csrfInput(ctx)}<input type="hidden" name="key" value="${key}">
<table class="cart-lines">
<caption class="visually-hidden">${t("cart.items")}</caption>
<thead><tr><th scope="col">${t("cart.item")}</th><th scope="col">${t("product.quantity")}</th><th scope="col" class="num">${t("totals.total")}</th></tr></thead>
<tbody>${lines.map((line) => lineRow(t, line, price))}</tbody>
</table>
<p class="muted" id="qty-hint">${t("cart.removeHint")}</p>
<p><button type="submit" name="action" value="update" class="secondary">${t("cart.update")}</button></p>
</form>
${totals(t, cart, price, cartTaxNote(t, ctx.env))}
<form method="post" action="${action}">
${csrfInput(ctx)}<input type="hidden" name="key" value="${key}">
<p><button type="submit" name="action" value="checkout">${t("cart.checkOut")}</button></p>
</form>`;
  return renderPage(ctx, {
    title: t("cart.title"),
    status: problem?.status ?? 200,
    personal: true,
    ...(problem?.headers ? { headers: problem.headers } : {}),
    body: html`<h1>${t("cart.title")}</h1>
${problem ? html`<div class="notice error" role="alert">${problem.messages.map((m) => html`<p>${m}</p>`)}</div>` : ""}
${problem?.copy ? html`<form method="post" action="${action}">${csrfInput(ctx)}<input type="hidden" name="key" value="${key}"><p><button type="submit" name="action" value="copy">${t("cart.copy")}</button></p></form>` : ""}
${messages.map((m) => html`<p class="notice${m.type === "error" ? " error" : ""}">${messageText(t, m, lines)}</p>`)}
${body}`,
  });
}

function lineRow(t: Translate, line: CartLine, price: (minor: number) => string): SafeHtml {
  const image = safeUrl(line.item.image_url);
  const total = line.totals.find((x) => x.type === "total")?.amount ?? line.item.price * line.quantity;
  const field = `q-${line.id}`;
  return html`<tr>
<th scope="row"><div class="row">${image ? html`<img class="thumb" src="${image}" alt="" loading="lazy" width="64" height="64">` : ""}<span>${line.item.title}<br><span class="muted">${t("cart.each", { price: price(line.item.price) })}</span></span></div></th>
<td><label class="visually-hidden" for="${field}">${t("cart.quantityOf", { item: line.item.title })}</label><input id="${field}" type="number" name="${QTY_PREFIX}${line.id}" value="${line.quantity}" min="0" max="999" step="1" inputmode="numeric" aria-describedby="qty-hint"></td>
<td class="num">${price(total)}</td>
</tr>`;
}

function totals(t: Translate, cart: ToolPayload, price: (minor: number) => string, note: string): SafeHtml {
  const list = (Array.isArray(cart.totals) ? cart.totals : []) as Total[];
  if (list.length === 0) return html``;
  return html`<div class="card"><h2>${t("totals.summary")}</h2><table class="totals"><tbody>${list.map(
    (total) =>
      html`<tr${total.type === "total" ? html` class="total"` : ""}><td>${totalLabel(t, total, true)}</td><td class="num">${price(total.amount)}</td></tr>`,
  )}</tbody></table>
<p class="muted">${note}</p></div>`;
}
