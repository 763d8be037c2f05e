/**
 * The merchant console's contract (issue 13): what each console page handler gets and how the
 * pages register. The console is HTML for a signed-in merchant under /admin/; the JSON admin
 * API beside it keeps answering scripts that send `Authorization: Bearer <ADMIN_TOKEN>`.
 */
import type { PageContext } from "../../pages/page-context";

/** Who is signed in: through Cloudflare Access (its JWT) or the admin token's session cookie. */
export type ConsolePrincipal =
  | { readonly via: "access"; readonly email: string }
  | { readonly via: "session"; readonly sessionId: string };

/** The request's facts every handler gets, as the buyer pages get them; `nonce` authorizes inline style and script. */
export interface ConsoleContext extends Pick<PageContext, "request" | "url" | "env" | "config" | "now" | "nonce"> {
  /** The value every console form carries in its hidden `_csrf` field. */
  readonly csrfToken: string;
  readonly principal: ConsolePrincipal;
}

export type ConsoleHandler = (ctx: ConsoleContext, params: Readonly<Record<string, string>>) => Promise<Response>;

/** One console page or form action, e.g. `{ method: "GET", path: "/admin/orders/:id", handler }` (itty-router patterns). */
export interface ConsoleRoute {
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly handler: ConsoleHandler;
}
