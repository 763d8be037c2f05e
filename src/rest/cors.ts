/**
 * CORS for the REST binding (browser-based agents): any origin, the UCP request headers
 * allowed, the response headers an agent reads exposed. Also the 405 and preflight answers
 * for REST paths, which return undefined for any other path so later routes still match.
 */
import type { IRequest } from "itty-router";
import { allowedMethods } from "./operations";

export const REST_CORS: Readonly<Record<string, string>> = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers":
    "request-id, ucp-trust-tier, retry-after, www-authenticate, signature, signature-input, content-digest",
};

const ALLOWED_HEADERS =
  "content-type, accept, accept-language, authorization, x-api-key, ucp-agent, idempotency-key, request-id, signature, signature-input, content-digest";

export function restPreflight(request: IRequest): Response | undefined {
  const methods = allowedMethods(new URL(request.url).pathname);
  if (!methods) return undefined;
  return new Response(null, {
    status: 204,
    headers: {
      ...REST_CORS,
      "access-control-allow-methods": [...methods, "OPTIONS"].join(", "),
      "access-control-allow-headers": ALLOWED_HEADERS,
      "access-control-max-age": "86400",
    },
  });
}

export function restMethodNotAllowed(request: IRequest): Response | undefined {
  const methods = allowedMethods(new URL(request.url).pathname);
  if (!methods) return undefined;
  const allow = [...methods, "OPTIONS"].join(", ");
  const body = { code: "method_not_allowed", content: `${request.method} is not allowed here; use ${allow}` };
  return new Response(JSON.stringify(body), {
    status: 405,
    headers: { ...REST_CORS, "content-type": "application/json", allow },
  });
}
