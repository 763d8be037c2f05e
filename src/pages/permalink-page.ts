/**
 * `GET /buy` and `GET /buy/{items}` (dev.ucp.shopping.permalink, 2026-08-25 permalink.md): a
 * link that builds a cart through the agents' create_cart tool (as "Add to cart" does) and
 * sends the browser on with `303 See Other` to the cart's own page, or to a validated
 * `continue_to`. Loading a link never checks out, pays or places an order, and answers no
 * UCP JSON: a link that cannot be read gets a page in the store's look, never a 5xx.
 * A HEAD (link checkers, previews of a shared URL) is read and validated like a GET but builds
 * no cart and sets no cookie: its 303 goes to the valid `continue_to`, else the storefront.
 * No page shows an item id or a field name from the link: that text is the link author's.
 */
import { translator } from "../i18n/translate";
import { HANDOFF_PATH } from "../lib/handoff-token";
import { forwardedParams, locationOf, validContinueTo } from "../permalink/destination";
import { parseItemPath } from "../permalink/item-path";
import { PERMALINK_LIMITS } from "../permalink/limits";
import { parsePermalinkQuery } from "../permalink/query";
import { shoppingState } from "../permalink/shopping-state";
import { PERMALINK_PATH } from "../ucp/capabilities";
import { callAsBuyer } from "./buyer-tools";
import { cartCookie, tokenOf } from "./cart-page-cookie";
import type { PageContext } from "./context";
import { messagePage } from "./layout";
import { seeOther } from "./respond";

export async function permalinkPage(ctx: PageContext): Promise<Response> {
  const t = translator(ctx);
  if (new TextEncoder().encode(ctx.request.url).length > PERMALINK_LIMITS.maxUrlOctets)
    return messagePage(ctx, 414, t("permalink.tooLong.title"), t("permalink.tooLong.text"));
  const { origin } = ctx.config;
  // The raw path: identifiers are never percent-decoded (permalink.md §Item ID Token).
  const segment = ctx.url.pathname.slice(PERMALINK_PATH.length).replace(/^\//, "").replace(/\/+$/, "");
  const items = parseItemPath(segment);
  if (!items.ok)
    // The parser's reason stays as written (it names the link's syntax); what to do is the store's words.
    return messagePage(ctx, 400, t("permalink.broken.title"), `${items.error} ${t("link.invalid.text")}`);
  const query = parsePermalinkQuery(ctx.url.search);
  if (!query.ok)
    return messagePage(
      ctx,
      400,
      query.error.kind === "ambiguous" ? t("permalink.ambiguous.title") : t("permalink.broken.title"),
      `${query.error.message} ${t("permalink.askNew")}`,
    );
  const { continueTo, fields, passThrough } = query.value;
  const chosen = continueTo === undefined ? undefined : validContinueTo(continueTo, origin, PERMALINK_PATH);
  const state = shoppingState(items.value, fields);
  const params = forwardedParams(passThrough, state.attribution);

  // Nothing to buy: the preferred page, else the storefront (§Redirect Resolution).
  // A HEAD has no side effects: no cart exists to send the browser to, so the storefront stands in.
  if (items.value.length === 0 || ctx.request.method === "HEAD")
    return seeOther(locationOf(origin, chosen ?? "/", params));

  const result = await callAsBuyer(ctx, "create_cart", { cart: state.cart });
  if (!result.ok) {
    if (result.error.kind === "protocol" && result.error.error.httpStatus >= 500)
      return messagePage(ctx, 503, t("page.unavailable.title"), t("cart.saveFailed"));
    return messagePage(ctx, 400, t("permalink.broken.title"), t("permalink.unreadable"));
  }
  const token = tokenOf(result.value.continue_url);
  const created = (result.value.ucp as { status?: string } | undefined)?.status !== "error";
  if (!created || !token) {
    // A handled shopping error (nothing in the link can be bought): the preferred page if valid, else say so.
    // The cart's messages are not shown: they quote the link's item ids, which a `~` token lets say anything.
    if (chosen) return seeOther(locationOf(origin, chosen, params));
    return messagePage(ctx, 409, t("permalink.unavailable.title"), t("permalink.unavailable.text"));
  }
  // The link's cart becomes the browser's current cart, so "Add to cart" adds to it.
  return seeOther(locationOf(origin, chosen ?? `${HANDOFF_PATH.cart}${token}`, params), {
    "set-cookie": cartCookie(ctx, token),
  });
}
