/** `/checkout/<token>`: the checkout's continue_url, where the buyer reviews, pays and places the order. */
import type { PageContext } from "./context";
import { openSession } from "./handoff";
import { notFoundPage } from "./not-found";

export async function checkoutPage(ctx: PageContext, token: string): Promise<Response> {
  const opened = await openSession(ctx, "checkout", token);
  if (!opened.ok) return opened.response;
  return notFoundPage(ctx);
}

export async function checkoutAction(ctx: PageContext, token: string): Promise<Response> {
  const opened = await openSession(ctx, "checkout", token);
  if (!opened.ok) return opened.response;
  return notFoundPage(ctx);
}
