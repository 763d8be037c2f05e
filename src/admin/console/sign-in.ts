/**
 * Exchanging the admin token for a console session, and ending it. The sign-in form has no
 * session to tie a CSRF token to; it is guarded by the browser's Origin / Sec-Fetch-Site
 * instead, and it only ever signs in whoever knows ADMIN_TOKEN. Wrong tokens draw from the
 * client address's anonymous budget, and a spent address is refused before any comparison.
 */
import { chargeFailure, spentBudget } from "../../auth/rate-limit";
import { trustConfig } from "../../auth/trust-config";
import type { MerchantConfig } from "../../config";
import { html, type SafeHtml } from "../../pages/html";
import { htmlResponse, newNonce, seeOther } from "../../pages/respond";
import { adminFailureKey, sameSecret } from "../auth";
import { crossOrigin, field, readConsoleForm } from "./forms";
import { consoleHead, consoleMessage } from "./layout";
import { endSessionCookie, readSession, startSession } from "./session";
import { closeSession, recordSession, sessionOpen } from "./session-record";
import type { ConsoleContext } from "./types";

export const SIGN_IN_PATH = "/admin/sign-in";
export const SIGN_OUT_PATH = "/admin/sign-out";

interface SignInEnv extends Pick<Env, "CONSOLE_SESSION"> {
  readonly ADMIN_TOKEN?: string;
  readonly TRUST?: unknown;
}

export function secureCookies(config: MerchantConfig): boolean {
  return config.origin.startsWith("https:");
}

/** The sign-in page outside the console shell: nothing about the store but its name. */
function signInPage(
  config: MerchantConfig,
  status: number,
  notice: SafeHtml | string,
  tokenSet: boolean,
  headers: Record<string, string> = {},
): Response {
  const nonce = newNonce();
  const form = tokenSet
    ? html`<form method="post" action="${SIGN_IN_PATH}">
<label for="token">Admin token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required maxlength="512">
<p class="muted">The <code>ADMIN_TOKEN</code> secret of this Worker. You stay signed in for 8 hours.</p>
<button type="submit">Sign in</button>
</form>`
    : html`<p>This console is behind Cloudflare Access: open it through your Access sign-in.</p>`;
  const doc = html`${consoleHead(`Sign in · ${config.name} console`, nonce)}
<body>
<main id="main">
<h1>${config.name} console</h1>
${notice}
<div class="card">${form}</div>
</main>
</body>
</html>`;
  return htmlResponse(doc, nonce, { status, personal: true, headers });
}

export async function signInGet(
  request: Request,
  env: SignInEnv,
  config: MerchantConfig,
  now: number,
): Promise<Response> {
  const token = env.ADMIN_TOKEN;
  const session = token ? await readSession(request, token, now, secureCookies(config)) : undefined;
  if (session && (await sessionOpen(env, session.sid, now))) return seeOther("/admin/");
  return signInPage(config, 200, "", Boolean(token));
}

function failed(config: MerchantConfig, status: number, text: string, headers: Record<string, string> = {}): Response {
  return signInPage(config, status, html`<p class="notice error" role="alert">${text}</p>`, true, headers);
}

export async function signInPost(
  request: Request,
  env: SignInEnv,
  config: MerchantConfig,
  now: number,
): Promise<Response> {
  const token = env.ADMIN_TOKEN;
  if (!token) return signInPage(config, 403, "", false);
  if (crossOrigin(request, [config.origin, new URL(request.url).origin]))
    return failed(config, 403, "Sign in from this store's own console page.");
  const key = adminFailureKey(request);
  const spent = spentBudget(key, now);
  if (spent)
    return failed(config, 429, "Too many failed sign-ins. Wait a minute and try again.", { "retry-after": "60" });
  // A token field needs a few hundred bytes; nothing larger is parsed.
  if (Number(request.headers.get("content-length") ?? 0) > 4096)
    return failed(config, 413, "That form is too large to be a sign-in.");
  const type = request.headers.get("content-type") ?? "";
  let given = "";
  if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data")) {
    try {
      given = field(await request.formData(), "token", 512);
    } catch {
      given = "";
    }
  }
  if (!given || !(await sameSecret(given, token))) {
    const limited = await chargeFailure(env as Parameters<typeof chargeFailure>[0], [key], now, trustConfig(env));
    if (limited)
      return failed(config, 429, "Too many failed sign-ins. Wait a minute and try again.", { "retry-after": "60" });
    return failed(config, 401, "That is not the admin token.");
  }
  const { session, setCookie } = await startSession(token, now, secureCookies(config));
  await recordSession(env, session.sid, session.exp);
  return seeOther("/admin/", { "set-cookie": setCookie });
}

/**
 * POST /admin/sign-out (with the session's `_csrf`): the session's record is closed, so the
 * cookie (and any copy of it) is refused from now on, and the cookie goes; Access users leave
 * through Access.
 */
export async function signOut(ctx: ConsoleContext): Promise<Response> {
  if (!(await readConsoleForm(ctx))) return consoleMessage(ctx, 403, "Not allowed", "Reload the page and try again.");
  if (ctx.principal.via === "access") return seeOther("/cdn-cgi/access/logout");
  await closeSession(ctx.env, ctx.principal.sessionId);
  return seeOther(SIGN_IN_PATH, { "set-cookie": endSessionCookie(secureCookies(ctx.config)) });
}
