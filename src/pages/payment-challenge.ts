/** `/checkout/<token>/verify`: the test handler's 3-D Secure challenge, passed or failed by the buyer. */
import type { PageContext } from "./context";
import { openSession } from "./handoff";
import { notFoundPage } from "./not-found";

export async function challengePage(ctx: PageContext, token: string): Promise<Response> {
  const opened = await openSession(ctx, "checkout", token);
  if (!opened.ok) return opened.response;
  return notFoundPage(ctx);
}

export async function challengeAction(ctx: PageContext, token: string): Promise<Response> {
  const opened = await openSession(ctx, "checkout", token);
  if (!opened.ok) return opened.response;
  return notFoundPage(ctx);
}
