/** `/orders/<token>`: the order's permalink_url (status, shipments, adjustments). */
import type { PageContext } from "./context";
import { openSession } from "./handoff";
import { notFoundPage } from "./not-found";

export async function orderPage(ctx: PageContext, token: string): Promise<Response> {
  const opened = await openSession(ctx, "order", token);
  if (!opened.ok) return opened.response;
  return notFoundPage(ctx);
}
