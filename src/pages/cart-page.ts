/** `/cart/<token>` (the cart's continue_url) and `POST /cart` (add to cart from a product page). */
import type { PageContext } from "./context";
import { openSession } from "./handoff";
import { notFoundPage } from "./not-found";

export async function cartPage(ctx: PageContext, token: string): Promise<Response> {
  const opened = await openSession(ctx, "cart", token);
  if (!opened.ok) return opened.response;
  return notFoundPage(ctx);
}

export async function cartAction(ctx: PageContext, token: string): Promise<Response> {
  const opened = await openSession(ctx, "cart", token);
  if (!opened.ok) return opened.response;
  return notFoundPage(ctx);
}

export async function addToCart(ctx: PageContext): Promise<Response> {
  return notFoundPage(ctx);
}
