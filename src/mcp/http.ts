/**
 * MCP Streamable HTTP, stateless: one JSON-RPC message per POST, answered as JSON or as a
 * single SSE `message` event when the client accepts only text/event-stream. Every
 * JSON-RPC error goes out with the HTTP status UCP pairs with it.
 *
 * Order of checks: framing and parsing (free), the MCP era and its envelope (era.ts, free),
 * then who is calling (a signature costs a cached profile and one ECDSA verify), then that
 * caller's rate limit, then the method.
 */
import type { Principal } from "../auth/authenticate";
import { signResponse } from "../auth/http-signature";
import { merchantSigningKey } from "../auth/merchant-key";
import { CORS_HEADERS } from "../lib/http";
import type { RequestFacts } from "../lib/log";
import { RawJson, stringifyWithRaw } from "../lib/raw-json";
import { readCappedBytes } from "../lib/read-capped";
import { isPlainObject, parseUntrustedJson } from "../lib/safe-json";
import { StorageUnavailable } from "../lib/storage-unavailable";
import { StoreMisconfigured } from "../lib/store-misconfigured";
import { admit } from "../pipeline/admit";
import { type ProtocolError, storeMisconfigured, unavailable } from "../ucp/errors";
import { classifyEra, modernResult } from "./era";
import {
  errorBody,
  type IncomingMessage,
  type JsonRpcId,
  parseMessage,
  protocolError,
  RPC,
  resultBody,
} from "./jsonrpc";
import { normalizeCall } from "./normalize";
import { dispatch, SERVER_INFO } from "./server";

export const MAX_BODY_BYTES = 1024 * 1024;

/** Tools whose responses are signed with the merchant key (spec: RECOMMENDED for completion). */
const SIGNED_TOOLS = new Set(["complete_checkout"]);

interface Reply {
  readonly body: unknown;
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/** `facts` is filled for the request's log line (src/lib/log.ts): rpc method, tool, profile, tier, outcome. */
export async function handleMcpPost(request: Request, env: Env, facts: RequestFacts = {}): Promise<Response> {
  const sse = wantsEventStream(request.headers.get("accept"));
  const bytes = await readCappedBytes(request, MAX_BODY_BYTES);
  if (bytes === undefined) {
    return respond(failure(null, protocolError(RPC.invalidRequest, 413, "Request body exceeds 1 MiB")), sse, facts);
  }
  const json = parseUntrustedJson(new TextDecoder().decode(bytes));
  if (!json.ok) {
    const error = protocolError(RPC.parseError, 400, "Parse error: the body is not valid JSON");
    return respond(failure(null, error), sse, facts);
  }
  const parsed = parseMessage(json.value);
  if (!parsed.ok) return respond(failure(parsed.id, parsed.error), sse, facts);
  const { message } = parsed;
  // After parsing, so a version error echoes the request's id (the modern spec checks it).
  const era = classifyEra(message, request.headers);
  if (!era.ok) return respond(failure(message.kind === "request" ? message.id : null, era.error), sse, facts);
  if (message.kind !== "request") {
    facts.outcome = "ok";
    return new Response(null, { status: 202, headers: CORS_HEADERS });
  }
  facts.rpc = message.method;
  noteCall(message, request.headers, facts);

  let principal: Principal | undefined;
  let reply: Reply;
  try {
    const admitted = await admit({ request, body: bytes }, env);
    if (!admitted.ok) {
      principal = admitted.principal;
      reply = failure(message.id, admitted.error);
    } else {
      principal = admitted.scope.principal;
      const outcome = await dispatch(message.method, message.params, admitted.scope, era.value);
      if (!outcome.ok) reply = failure(message.id, outcome.error);
      else {
        const { value } = outcome;
        const result = era.value.kind === "modern" ? modernResult(message.method, value, SERVER_INFO) : value;
        reply = { body: resultBody(message.id, result), status: 200 };
      }
    }
  } catch (e) {
    if (e instanceof StoreMisconfigured) {
      // One line naming the setting (no stack: the code is fine, the settings are not).
      console.error(`store misconfigured (fix wrangler.toml, \`npm run check:config\`): ${e.problems.join("; ")}`);
      reply = failure(message.id, storeMisconfigured());
    } else if (e instanceof StorageUnavailable) {
      console.error(`mcp: ${e.message}`);
      reply = failure(message.id, unavailable());
    } else {
      // Internals stay in the log; the wire gets a generic -32603.
      console.error("mcp: unexpected failure", message.method, e instanceof Error ? e.stack : e);
      reply = failure(message.id, protocolError(RPC.internalError, 500, "Internal error"));
    }
  }
  facts.tier = principal?.tier ?? "anonymous";
  facts.profile ??= principal?.tier === "authenticated" ? principal.profile : undefined;
  const tier = { "ucp-trust-tier": facts.tier };
  const sign = signedTool(message) ? await merchantSigningKey(env) : undefined;
  return respond({ ...reply, headers: { ...reply.headers, ...tier } }, sse, facts, sign);
}

/** The tool and the profile it claims, as sent (the log names what the caller said). */
function noteCall(message: IncomingMessage & { kind: "request" }, headers: Headers, facts: RequestFacts): void {
  if (message.method !== "tools/call") return;
  const { name, arguments: args, _meta } = message.params as Record<string, unknown>;
  if (typeof name === "string") facts.tool = name.slice(0, 100);
  const call = normalizeCall(isPlainObject(args) ? args : {}, _meta, headers);
  if (typeof call.profile === "string") facts.profile = call.profile;
}

/** Tool payloads are serialized once (src/mcp/server.ts), envelope first: peek, do not parse. */
const UCP_ERROR_PREFIX = /^\{"ucp":\{"version":"[^"]*","status":"error"/;
const FIRST_MESSAGE_CODE = /"messages":\[\{[^{}]*?"code":"([^"]{1,100})"/;

/** `ok`; a tool's business error by its first message code; a protocol error by its UCP or JSON-RPC code. */
function outcomeOf(body: unknown): string {
  if (!isPlainObject(body)) return "ok";
  if (isPlainObject(body.error)) {
    const data = body.error.data;
    return isPlainObject(data) && typeof data.code === "string" ? data.code : String(body.error.code);
  }
  const content = isPlainObject(body.result) ? body.result.structuredContent : undefined;
  if (!(content instanceof RawJson) || !UCP_ERROR_PREFIX.test(content.text.slice(0, 200))) return "ok";
  return FIRST_MESSAGE_CODE.exec(content.text)?.[1] ?? "error";
}

function failure(id: JsonRpcId | null, error: ProtocolError): Reply {
  return { body: errorBody(id, error), status: error.httpStatus, headers: error.headers };
}

function signedTool(message: IncomingMessage & { kind: "request" }): boolean {
  if (SIGNED_TOOLS.has(message.method)) return true;
  return message.method === "tools/call" && SIGNED_TOOLS.has(message.params.name as string);
}

/** SSE only when the client asks for event streams and not for JSON. */
export function wantsEventStream(accept: string | null): boolean {
  if (!accept) return false;
  const types = accept.split(",").map((part) => part.split(";")[0]?.trim().toLowerCase());
  return types.includes("text/event-stream") && !types.includes("application/json") && !types.includes("*/*");
}

async function respond(
  reply: Reply,
  sse: boolean,
  facts: RequestFacts,
  signingKey?: Awaited<ReturnType<typeof merchantSigningKey>>,
): Promise<Response> {
  facts.outcome = outcomeOf(reply.body);
  const json = stringifyWithRaw(reply.body);
  const text = sse ? `event: message\ndata: ${json}\n\n` : json;
  const headers = new Headers({ ...CORS_HEADERS, ...reply.headers });
  headers.set("content-type", sse ? "text/event-stream" : "application/json");
  if (sse) headers.set("cache-control", "no-cache");
  if (signingKey) await signResponse({ status: reply.status, headers, body: text }, signingKey);
  return new Response(text, { status: reply.status, headers });
}
