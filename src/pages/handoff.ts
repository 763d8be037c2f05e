/** Opening a page's hand-off token: the session id, or the page that says the link does not open. */

import { type Translate, translator } from "../i18n/translate";
import { HANDOFF_PATH, type HandoffKind, openHandoff } from "../lib/handoff-token";
import type { PageContext } from "./context";
import { messagePage } from "./layout";
import { seeOther } from "./respond";

export type Opened = { readonly ok: true; readonly id: string } | { readonly ok: false; readonly response: Response };

export async function openSession(ctx: PageContext, kind: HandoffKind, token: string): Promise<Opened> {
  const opened = await openHandoff(ctx.config.idSecret, kind, token, ctx.now);
  if (opened.ok) return { ok: true, id: opened.id };
  // Nothing of the session is shown either way; only whether asking again could help.
  const t = translator(ctx);
  return {
    ok: false,
    response:
      opened.reason === "expired"
        ? messagePage(ctx, 410, t("link.expired.title"), t("link.expired.text"))
        : invalidLink(ctx, t),
  };
}

function invalidLink(ctx: PageContext, t: Translate): Response {
  return messagePage(ctx, 404, t("link.invalid.title"), t("link.invalid.text"));
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
  return invalidLink(ctx, translator(ctx));
}
