/**
 * The merchant's /admin surface. Scripts send `Authorization: Bearer <ADMIN_TOKEN>` and get
 * the JSON API: orders (docs/orders.md), stock counts (docs/inventory.md), platform API keys
 * (docs/trust.md). Everything else is the console (docs/console.md): HTML for a merchant
 * signed in through Cloudflare Access or the admin token's session. With neither ADMIN_TOKEN
 * nor Access configured every /admin route answers 404, as if absent.
 */

import { chargeFailure, spentBudget } from "../auth/rate-limit";
import { trustConfig } from "../auth/trust-config";
import { merchantConfig } from "../config";
import { logUnavailable, StorageUnavailable } from "../lib/storage-unavailable";
import { StoreMisconfigured } from "../lib/store-misconfigured";
import type { ProtocolError } from "../ucp/errors";
import { adminError } from "./api-error";
import { handleApiKeyAdmin } from "./api-keys";
import { adminAccess, adminFailureKey } from "./auth";
import { handleConsole } from "./console/console-router";
import { handleInventoryAdmin } from "./inventory";
import { type AdminEnv, handleOrderAdmin, noRoute } from "./orders";

type ConsoleVars = { readonly ACCESS_TEAM_DOMAIN?: string };

export async function handleAdmin(request: Request, env: AdminEnv): Promise<Response> {
  const { pathname } = new URL(request.url);
  const accessConfigured = Boolean((env as ConsoleVars).ACCESS_TEAM_DOMAIN);
  if (!env.ADMIN_TOKEN && !accessConfigured) return noRoute(pathname);
  if (!request.headers.has("authorization")) {
    try {
      return await handleConsole(request, env, merchantConfig(env));
    } catch (e) {
      if (!(e instanceof StoreMisconfigured)) throw e;
      console.error(JSON.stringify({ event: "store_misconfigured", problems: e.problems }));
      return adminError(
        503,
        "store_misconfigured",
        { message: "The store is being set up." },
        { "cache-control": "no-store" },
      );
    }
  }
  // Wrong tokens are charged to the sign-in form's per-address budget; a spent address is
  // refused before any comparison, even with the right token, as the form refuses it.
  const budget = adminFailureKey(request);
  const now = Date.now();
  const spent = spentBudget(budget, now);
  if (spent) return tooManyFailures(spent);
  const access = await adminAccess(request, env.ADMIN_TOKEN);
  if (access !== "granted") {
    const limited = await chargeFailure(env, [budget], now, trustConfig(env));
    if (limited) return tooManyFailures(limited);
    // Unlike /ucp/mcp, the challenge stays: HTTP requires one on a 401, and only a merchant's
    // own tools (curl, scripts) call /admin with its static bearer secret, never an MCP client.
    return adminError(
      401,
      "unauthorized",
      { message: "Send Authorization: Bearer <ADMIN_TOKEN>." },
      { "www-authenticate": 'Bearer realm="admin"', "cache-control": "no-store" },
    );
  }
  try {
    return await handleAdminApi(request, env, pathname);
  } catch (e) {
    if (!(e instanceof StorageUnavailable)) throw e;
    logUnavailable(e);
    return adminError(
      503,
      "unavailable",
      { message: "The store's catalog could not be read just now; retry." },
      { "retry-after": "1", "cache-control": "no-store" },
    );
  }
}

function tooManyFailures(error: ProtocolError): Response {
  return adminError(
    429,
    "rate_limited",
    { message: "Too many wrong admin tokens from this address; wait and retry." },
    { ...error.headers, "cache-control": "no-store" },
  );
}

function handleAdminApi(request: Request, env: AdminEnv, pathname: string): Promise<Response> | Response {
  if (pathname === "/admin/orders" || pathname.startsWith("/admin/orders/")) {
    return handleOrderAdmin(request, env, pathname);
  }
  if (pathname.startsWith("/admin/inventory/")) return handleInventoryAdmin(request, env, pathname);
  if (pathname === "/admin/api-keys" || pathname.startsWith("/admin/api-keys/")) {
    return handleApiKeyAdmin(request, env, pathname);
  }
  return noRoute(pathname);
}
