/**
 * CORS for the REST binding (browser-based agents): any origin, the UCP request headers
 * allowed, the response headers an agent reads exposed. Also the 405 and preflight answers
 * for REST paths, which return undefined for any other path so later routes still match.
 */
import type { IRequest } from "itty-router";
import { allowedMethods } from "./operations";
import { type RestReply, requestError } from "./wire";

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
  return outsideReply(requestError(405, "method_not_allowed", `${request.method} is not allowed here; use ${allow}`), {
    allow,
  });
}

/** Any other path under /ucp: REST's `{code, content}` 404, not the route table's own JSON (issue 27). */
export function restNotFound(pathname: string): Response {
  return outsideReply(requestError(404, "not_found", `No route for ${pathname.slice(0, 200)}`));
}

/** A throw nothing below caught (src/index.ts): the binding's 500, as handler.ts answers its own. */
export function restInternalError(): Response {
  return outsideReply(requestError(500, "internal_error", "Internal error"));
}

/** A refusal before any operation matched: the binding's body and CORS, as handler.ts answers. */
function outsideReply(reply: RestReply, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(reply.body), {
    status: reply.status,
    headers: { ...REST_CORS, ...reply.headers, "content-type": "application/json", ...headers },
  });
}
