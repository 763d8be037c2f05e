/** Response helpers shared by the router and the MCP transport. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers":
    "mcp-session-id, mcp-protocol-version, ucp-trust-tier, retry-after, signature, signature-input, content-digest",
};

export function jsonResponse(body: unknown, status = 200, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...CORS_HEADERS, ...extra },
  });
}
