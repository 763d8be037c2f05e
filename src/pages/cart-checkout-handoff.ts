/**
 * Which checkout a cart's link may hand to a browser (issue 27). A cart has one checkout
 * (checkout.tools.ts), and its link is shared more widely than a checkout's: sent to a friend,
 * pasted in a chat. So "Check out" from the link goes on to the cart's checkout only while it
 * holds nobody's data, or for the browser it was handed to before (an HttpOnly cookie with a
 * MAC of that checkout's id). Anyone else is shown the cart and offered a cart of their own.
 */
import { constantTimeEqual, cookieValue } from "../lib/cookies";
import { HANDOFF_TTL_MS } from "../lib/handoff-token";
import { keyedDigest } from "../lib/ids";
import type { ToolPayload } from "./buyer-tools";
import type { PageContext } from "./context";

const COOKIE = "ucp_checkout";

function proof(ctx: PageContext, checkoutId: string): Promise<string> {
  return keyedDigest(ctx.config.idSecret, `cart-checkout-browser\n${checkoutId}`);
}

/** The Set-Cookie that marks this browser as the one the checkout was handed to. */
export async function handedCookie(ctx: PageContext, checkoutId: string): Promise<string> {
  const secure = ctx.config.origin.startsWith("https:") ? "; Secure" : "";
  const maxAge = Math.floor(HANDOFF_TTL_MS.checkout / 1000);
  return `${COOKIE}=${await proof(ctx, checkoutId)}; Path=/cart; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

/** Whether the cart's link may take this browser on to `checkout`. */
export async function mayHandOver(ctx: PageContext, cart: ToolPayload, checkout: ToolPayload): Promise<boolean> {
  if (!holdsSomeonesData(cart, checkout)) return true;
  const sent = cookieValue(ctx.request, COOKIE);
  return (
    sent !== undefined && typeof checkout.id === "string" && constantTimeEqual(sent, await proof(ctx, checkout.id))
  );
}

/**
 * Buyer details, a shipping address or a payment instrument the checkout has beyond what the
 * cart itself carries (a cart's own buyer, set by its agent, is in every checkout made from it).
 */
function holdsSomeonesData(cart: ToolPayload, checkout: ToolPayload): boolean {
  const fromCart = record(cart.buyer);
  const added = Object.entries(record(checkout.buyer)).some(([name, value]) => !same(value, fromCart[name]));
  const methods = Array.isArray(record(checkout.fulfillment).methods)
    ? (record(checkout.fulfillment).methods as unknown[])
    : [];
  const shipsTo = methods.some((m) => record(m).type === "shipping" && nonEmpty(record(m).destinations));
  return added || shipsTo || nonEmpty(record(checkout.payment).instruments);
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function nonEmpty(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
