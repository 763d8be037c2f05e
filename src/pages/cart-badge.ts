/**
 * The header's cart link: how many items the cart in the buyer's cookie holds. Read once per
 * page view (GET only: a POST answers with a redirect or re-renders a form, never a count it
 * could get wrong mid-change). A page showing a count is the buyer's own (layout.ts: no-store).
 */
import { translator } from "../i18n/translate";
import { callAsBuyer } from "./buyer-tools";
import { currentCart } from "./cart-page-cookie";
import type { PageContext } from "./context";
import { messagePage } from "./layout";
import { seeOther } from "./respond";

export interface CartBadge {
  /** The cart's page, /cart/<token>. */
  readonly href: string;
  /** Units across lines (2 mugs and a shirt: 3). */
  readonly count: number;
}

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
  const lines = Array.isArray(result.value.line_items) ? result.value.line_items : [];
  let count = 0;
  for (const line of lines) {
    const quantity = (line as { quantity?: unknown }).quantity;
    if (typeof quantity === "number" && Number.isInteger(quantity) && quantity > 0) count += quantity;
  }
  return { href: `/cart/${cart.token}`, count };
}

/** GET /cart, the header's link without a count: the cookie's cart, or a page saying there is none. */
export async function cartLinkPage(ctx: PageContext): Promise<Response> {
  if (ctx.cart) return seeOther(ctx.cart.href);
  const t = translator(ctx);
  return messagePage(ctx, 200, t("cart.empty.title"), t("cart.empty.text"));
}
