/**
 * The browser's current cart: its hand-off token in an HttpOnly cookie, so "Add to cart"
 * on any product page adds to the same cart. The token is the cart's own continue_url
 * token (sealed, expiring): the cookie proves nothing the URL does not.
 */
import { cookieValue } from "../lib/cookies";
import { HANDOFF_TTL_MS, openHandoff } from "../lib/handoff-token";
import type { PageContext } from "./context";

const COOKIE = "ucp_cart";

export function cartCookie(ctx: PageContext, token: string): string {
  const secure = ctx.config.origin.startsWith("https:") ? "; Secure" : "";
  const maxAge = Math.floor(HANDOFF_TTL_MS.cart / 1000);
  return `${COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

/** The token in the browser's cart cookie, unopened (to compare with a page's own token). */
export function cartCookieToken(ctx: PageContext): string | undefined {
  return cookieValue(ctx.request, COOKIE);
}

/** The cart id the browser's cookie opens, if any (a stale or foreign cookie is ignored). */
export async function currentCart(ctx: PageContext): Promise<{ id: string; token: string } | undefined> {
  const token = cookieValue(ctx.request, COOKIE);
  if (!token) return undefined;
  const opened = await openHandoff(ctx.config.idSecret, "cart", token, ctx.now);
  return opened.ok ? { id: opened.id, token } : undefined;
}

/** The token at the end of a continue_url the tools returned. */
export function tokenOf(continueUrl: unknown): string | undefined {
  if (typeof continueUrl !== "string") return undefined;
  try {
    return new URL(continueUrl).pathname.split("/").pop() || undefined;
  } catch {
    return undefined;
  }
}
