/** Method + path → handler. Static assets (/.well-known/ucp) are served before the Worker runs. */

import { handleAdmin } from "./admin/router";
import { MCP_PATH } from "./config";
import { CORS_HEADERS, jsonResponse } from "./lib/http";
import type { RequestFacts } from "./lib/log";
import { handleMcpPost } from "./mcp/http";

const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers":
    "content-type, accept, authorization, mcp-protocol-version, mcp-session-id, last-event-id, ucp-agent, idempotency-key, signature, signature-input, content-digest, request-id",
  "access-control-max-age": "86400",
};

/** `facts` collects what the request log line reports (tool, profile, tier, outcome). */
export async function route(request: Request, env: Env, facts: RequestFacts = {}): Promise<Response> {
  const { pathname } = new URL(request.url);
  // Merchant admin (docs/orders.md, docs/trust.md): answers 404 itself while ADMIN_TOKEN is unset.
  if (pathname.startsWith("/admin/")) return handleAdmin(request, env);
  if (pathname !== MCP_PATH)
    return jsonResponse({ error: "not_found", message: `No route for ${pathname.slice(0, 200)}` }, 404);
  switch (request.method) {
    case "POST":
      return handleMcpPost(request, env, facts);
    case "OPTIONS":
      return new Response(null, { status: 204, headers: PREFLIGHT_HEADERS });
    default:
      // Sessionless server: no server-initiated SSE stream (GET) and no session to end (DELETE).
      return jsonResponse(
        {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: `Method ${request.method} not allowed; POST JSON-RPC here` },
        },
        405,
        { allow: "POST, OPTIONS" },
      );
  }
}
