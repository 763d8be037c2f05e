/**
 * MCP Streamable HTTP, stateless: one JSON-RPC message per POST, answered as JSON or as a
 * single SSE `message` event when the client accepts only text/event-stream. Every
 * JSON-RPC error goes out with the HTTP status UCP pairs with it.
 */
import { merchantConfig } from "../config";
import { CORS_HEADERS } from "../lib/http";
import { stringifyWithRaw } from "../lib/raw-json";
import { readCapped } from "../lib/read-capped";
import { parseUntrustedJson } from "../lib/safe-json";
import type { ProtocolError } from "../ucp/errors";
import { errorBody, type JsonRpcId, parseMessage, protocolError, RPC, resultBody } from "./jsonrpc";
import { dispatch, MCP_PROTOCOL_VERSIONS } from "./server";

export const MAX_BODY_BYTES = 1024 * 1024;

export async function handleMcpPost(request: Request, env: Env): Promise<Response> {
  const sse = wantsEventStream(request.headers.get("accept"));
  const fail = (id: JsonRpcId | null, error: ProtocolError) => respond(errorBody(id, error), error.httpStatus, sse);

  const version = request.headers.get("mcp-protocol-version");
  if (version !== null && !(MCP_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
    return fail(
      null,
      protocolError(RPC.invalidRequest, 400, `Unsupported MCP-Protocol-Version: ${version.slice(0, 40)}`),
    );
  }
  const text = await readCapped(request, MAX_BODY_BYTES);
  if (text === undefined) return fail(null, protocolError(RPC.invalidRequest, 413, "Request body exceeds 1 MiB"));
  const json = parseUntrustedJson(text);
  if (!json.ok) return fail(null, protocolError(RPC.parseError, 400, "Parse error: the body is not valid JSON"));
  const parsed = parseMessage(json.value);
  if (!parsed.ok) return fail(parsed.id, parsed.error);
  const { message } = parsed;
  if (message.kind !== "request") return new Response(null, { status: 202, headers: CORS_HEADERS });

  try {
    const scope = { env, config: merchantConfig(env), headers: request.headers, now: Date.now() };
    const outcome = await dispatch(message.method, message.params, scope);
    if (!outcome.ok) return fail(message.id, outcome.error);
    return respond(resultBody(message.id, outcome.value), 200, sse);
  } catch (e) {
    // Internals stay in the log; the wire gets a generic -32603.
    console.error("mcp: unexpected failure", message.method, e instanceof Error ? e.stack : e);
    return fail(message.id, protocolError(RPC.internalError, 500, "Internal error"));
  }
}

/** SSE only when the client asks for event streams and not for JSON. */
export function wantsEventStream(accept: string | null): boolean {
  if (!accept) return false;
  const types = accept.split(",").map((part) => part.split(";")[0]?.trim().toLowerCase());
  return types.includes("text/event-stream") && !types.includes("application/json") && !types.includes("*/*");
}

function respond(body: unknown, status: number, sse: boolean): Response {
  const text = stringifyWithRaw(body);
  if (!sse) return new Response(text, { status, headers: { "content-type": "application/json", ...CORS_HEADERS } });
  return new Response(`event: message\ndata: ${text}\n\n`, {
    status,
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache", ...CORS_HEADERS },
  });
}
