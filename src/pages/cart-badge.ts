/**
 * The header's cart link: how many items the cart in the buyer's cookie holds. Read once per
 * page view: for a GET before the page, for a POST that answers with a page (the checkout's
 * form) once the POST's change is made (withCartBadge), so the count is never read mid-change.
 * A page showing a count is the buyer's own (layout.ts: no-store).
 */
import { translator } from "../i18n/translate";
import { callAsBuyer } from "./buyer-tools";
import { currentCart } from "./cart-page-cookie";
import { messagePage } from "./layout";
import type { CartBadge, PageContext } from "./page-context";
import { seeOther } from "./respond";

export type { CartBadge };

/** The cookie's cart with what it holds, or undefined when there is none (expired, canceled, foreign). */
export async function cartBadge(ctx: PageContext): Promise<CartBadge | undefined> {
  const cart = await currentCart(ctx);
  if (!cart) return undefined;
  let result: Awaited<ReturnType<typeof callAsBuyer>>;
  try {
    result = await callAsBuyer(ctx, "get_cart", { id: cart.id }, { handoff: true });
  } catch {
    // A count is a convenience: a cart that cannot be read just now must not cost the page.
    return undefined;
  }
  if (!result.ok || result.value.id !== cart.id) return undefined;
  return { href: `/cart/${cart.token}`, count: unitsIn(result.value.line_items) };
}

/** Units across a cart payload's lines (2 mugs and a shirt: 3). */
export function unitsIn(lines: unknown): number {
  let count = 0;
  for (const line of Array.isArray(lines) ? lines : []) {
    const quantity = (line as { quantity?: unknown }).quantity;
    if (typeof quantity === "number" && Number.isInteger(quantity) && quantity > 0) count += quantity;
  }
  return count;
}

/** The page context with the header's count, for a POST that answers with a page: read after its change. */
export async function withCartBadge(ctx: PageContext): Promise<PageContext> {
  // A GET's context tried already (pageContext): no second read for a cart that is not there.
  if (ctx.cart || ctx.request.method === "GET") return ctx;
  const cart = await cartBadge(ctx);
  return cart ? { ...ctx, cart } : ctx;
}

/** GET /cart, the header's link without a count: the cookie's cart, or a page saying there is none. */
export async function cartLinkPage(ctx: PageContext): Promise<Response> {
  if (ctx.cart) return seeOther(ctx.cart.href);
  const t = translator(ctx);
  return messagePage(ctx, 200, t("cart.empty.title"), t("cart.empty.text"));
}
