/** Opening a page's hand-off token: the session id, or the page that says the link does not open. */
import { HANDOFF_PATH, type HandoffKind, openHandoff } from "../lib/handoff-token";
import type { PageContext } from "./context";
import { messagePage } from "./layout";
import { seeOther } from "./respond";

export type Opened = { readonly ok: true; readonly id: string } | { readonly ok: false; readonly response: Response };

export async function openSession(ctx: PageContext, kind: HandoffKind, token: string): Promise<Opened> {
  const opened = await openHandoff(ctx.config.idSecret, kind, token, ctx.now);
  if (opened.ok) return { ok: true, id: opened.id };
  // Nothing of the session is shown either way; only whether asking again could help.
  return {
    ok: false,
    response:
      opened.reason === "expired"
        ? messagePage(ctx, 410, "This link has expired", "Ask the assistant that sent you here for a new link.")
        : messagePage(ctx, 404, "This link is not valid", "Check that the whole link was copied."),
  };
}

/**
 * URLs of the first design: `/continue/<token>` (cart or checkout) and `/order/<token>`.
 * The token says its kind; the browser is sent to the page for it.
 */
export async function redirectLegacy(
  ctx: PageContext,
  token: string,
  kinds: readonly HandoffKind[],
): Promise<Response> {
  for (const kind of kinds) {
    const opened = await openHandoff(ctx.config.idSecret, kind, token, ctx.now);
    if (opened.ok || opened.reason === "expired") return seeOther(`${HANDOFF_PATH[kind]}${token}`);
  }
  return messagePage(ctx, 404, "This link is not valid", "Check that the whole link was copied.");
}
