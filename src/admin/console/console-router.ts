/**
 * The console's requests: who is signed in (an Access JWT, else the admin token's session),
 * what a stranger gets (the same answer on every path: a redirect to sign in for a browser
 * opening a page, 401 for anything else), and the four areas' route lists mounted in one
 * itty-router table.
 */
import { type IRequest, IttyRouter } from "itty-router";
import type { MerchantConfig } from "../../config";
import { logUnhandled } from "../../lib/log";
import { logUnavailable, StorageUnavailable } from "../../lib/storage-unavailable";
import { newNonce, seeOther } from "../../pages/respond";
import { adminError } from "../api-error";
import { ACCESS_HEADER, verifyAccessJwt } from "./access";
import { CATALOG_ROUTES } from "./catalog-routes";
import { DASHBOARD_ROUTES } from "./dashboard-routes";
import { consoleMessage } from "./layout";
import { ORDERS_ROUTES } from "./orders-routes";
import { PLATFORMS_ROUTES } from "./platforms-routes";
import { consoleCsrfToken, readSession } from "./session";
import { principalKey, sessionOpen } from "./session-record";
import { SIGN_IN_PATH, SIGN_OUT_PATH, secureCookies, signInGet, signInPost, signOut } from "./sign-in";
import type { ConsoleContext, ConsolePrincipal, ConsoleRoute } from "./types";

type ConsoleEnv = Env & { readonly ADMIN_TOKEN?: string };

const NO_STORE = { "cache-control": "no-store", "referrer-policy": "no-referrer" };

type Args = [ConsoleContext];
const table = IttyRouter<IRequest, Args>();
/** Every console page and action (tests walk it: none may answer a stranger). */
export const CONSOLE_ROUTES: readonly ConsoleRoute[] = [
  { method: "POST", path: SIGN_OUT_PATH, handler: signOut },
  ...DASHBOARD_ROUTES,
  ...ORDERS_ROUTES,
  ...CATALOG_ROUTES,
  ...PLATFORMS_ROUTES,
];
for (const route of CONSOLE_ROUTES) {
  const add = route.method === "GET" ? table.get : table.post;
  add(route.path, (request, ctx) => route.handler(ctx, (request.params ?? {}) as Record<string, string>));
}

/** "forbidden": an Access JWT was sent and is not valid (forged, expired, another application). */
export async function consolePrincipal(
  request: Request,
  env: ConsoleEnv,
  config: MerchantConfig,
  now: number,
): Promise<ConsolePrincipal | "forbidden" | undefined> {
  const assertion = request.headers.get(ACCESS_HEADER);
  if (config.access && assertion) {
    const identity = await verifyAccessJwt(assertion, config.access, now);
    return identity ? { via: "access", email: identity.email } : "forbidden";
  }
  if (env.ADMIN_TOKEN) {
    const session = await readSession(request, env.ADMIN_TOKEN, now, secureCookies(config));
    // The cookie proves who signed in; the record says the session was not signed out since.
    if (session && (await sessionOpen(env, session.sid, now))) return { via: "session", sessionId: session.sid };
  }
  return undefined;
}

/** A browser opening a page (as opposed to a script or a fetch). */
function navigation(request: Request): boolean {
  if (request.method !== "GET") return false;
  const mode = request.headers.get("sec-fetch-mode");
  if (mode) return mode === "navigate";
  return (request.headers.get("accept") ?? "").includes("text/html");
}

/** The same for every path, known or not: a stranger learns nothing about what exists. */
function unauthorized(): Response {
  return adminError(
    401,
    "unauthorized",
    { message: `Sign in at ${SIGN_IN_PATH}, or send Authorization: Bearer <ADMIN_TOKEN>.` },
    { "www-authenticate": 'Bearer realm="admin"', ...NO_STORE },
  );
}

function forbidden(): Response {
  return adminError(403, "forbidden", { message: "The Cloudflare Access token is not valid here." }, NO_STORE);
}

export async function handleConsole(
  request: Request,
  env: ConsoleEnv,
  config: MerchantConfig,
  now = Date.now(),
): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname === SIGN_IN_PATH) {
    if (request.method === "GET") return signInGet(request, env, config, now);
    if (request.method === "POST") return signInPost(request, env, config, now);
  }
  const principal = await consolePrincipal(request, env, config, now);
  if (principal === "forbidden") return forbidden();
  if (!principal) return navigation(request) ? seeOther(SIGN_IN_PATH) : unauthorized();

  const ctx: ConsoleContext = {
    request,
    url,
    env,
    config,
    now,
    nonce: newNonce(),
    csrfToken: await consoleCsrfToken(config.idSecret, principalKey(principal)),
    principal,
  };
  const path = url.pathname === "/admin" ? "/admin/" : url.pathname;
  // Only method and URL are matched; handlers read the body from ctx.request.
  const method = request.method === "HEAD" ? "GET" : request.method;
  let routed: Response | undefined;
  try {
    routed = (await table.fetch({ method, url: new URL(path, url).href } as IRequest, ctx)) as Response | undefined;
  } catch (e) {
    if (!(e instanceof StorageUnavailable)) {
      // The merchant is reading: a console page, not the API's JSON error; the cause is in the log.
      logUnhandled(e);
      const text =
        method === "GET"
          ? "This page failed. The error is in the Worker's log (npx wrangler tail)."
          : "This action failed. The error is in the Worker's log (npx wrangler tail). Check whether its change was made before you send it again.";
      return consoleMessage(ctx, 500, "Something went wrong", text);
    }
    // The catalog's store not answering is not the merchant's mistake nor a bug: say so, in the console.
    logUnavailable(e);
    const text =
      method === "GET"
        ? "The store's catalog could not be read just now. Reload in a moment."
        : "The store's catalog did not answer just now, so what you sent may have been saved only in part. Go back and send it again: that is safe, and finishes it.";
    return consoleMessage(ctx, 503, "Please try again", text, { "retry-after": "1" });
  }
  return routed ?? consoleMessage(ctx, 404, "Not found", "There is no console page here.");
}
