/**
 * The merchant's admin surface behind ADMIN_TOKEN: orders (docs/orders.md), stock counts
 * (docs/inventory.md) and platform API keys (docs/trust.md). Without the secret every /admin route answers 404.
 */
import { jsonResponse } from "../lib/http";
import { handleApiKeyAdmin } from "./api-keys";
import { adminAccess } from "./auth";
import { handleInventoryAdmin } from "./inventory";
import { type AdminEnv, handleOrderAdmin, noRoute } from "./orders";

export async function handleAdmin(request: Request, env: AdminEnv): Promise<Response> {
  const { pathname } = new URL(request.url);
  const access = await adminAccess(request, env.ADMIN_TOKEN);
  if (access === "disabled") return noRoute(pathname);
  if (access === "unauthorized") {
    // Unlike /ucp/mcp, the challenge stays: HTTP requires one on a 401, and only a merchant's
    // own tools (curl, scripts) call /admin with its static bearer secret, never an MCP client.
    return jsonResponse({ error: "unauthorized", message: "Send Authorization: Bearer <ADMIN_TOKEN>." }, 401, {
      "www-authenticate": 'Bearer realm="admin"',
    });
  }
  if (pathname.startsWith("/admin/orders/")) return handleOrderAdmin(request, env, pathname);
  if (pathname.startsWith("/admin/inventory/")) return handleInventoryAdmin(request, env, pathname);
  if (pathname === "/admin/api-keys" || pathname.startsWith("/admin/api-keys/")) {
    return handleApiKeyAdmin(request, env, pathname);
  }
  return noRoute(pathname);
}
