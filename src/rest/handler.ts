/**
 * One REST operation: read the body, build the normalized tool call (profile from
 * `UCP-Agent`, key from `Idempotency-Key`), run the shared pipeline (src/pipeline/), and
 * map the outcome to the REST wire (wire.ts). Owns only HTTP framing: content type, body
 * size and form, `Request-Id`, CORS, and signing complete_checkout's answer.
 */
import type { IRequest } from "itty-router";
import { signResponse } from "../auth/http-signature";
import { merchantSigningKey } from "../auth/merchant-key";
import type { RequestFacts } from "../lib/log";
import { stringifyWithRaw } from "../lib/raw-json";
import { readCappedBytes } from "../lib/read-capped";
import { isPlainObject, nestsDeeperThan, parseUntrustedJson } from "../lib/safe-json";
import { StorageUnavailable } from "../lib/storage-unavailable";
import { StoreMisconfigured } from "../lib/store-misconfigured";
import { admit } from "../pipeline/admit";
import { callTool, type NormalizedCall } from "../pipeline/tool-call";
import { TOOLS } from "../tools";
import { authError, storeMisconfigured, unavailable } from "../ucp/errors";
import { profileFromHeader } from "../ucp/ucp-agent";
import { REST_CORS } from "./cors";
import { type RestOperation, restOperation, toolArguments } from "./operations";
import { errorReply, payloadReply, productNotFound, type RestReply, requestError } from "./wire";

/** As on MCP: the outer bound of any request; tool arguments have tighter per-tier limits. */
export const REST_MAX_BODY_BYTES = 1024 * 1024;
/** As on MCP (src/mcp/jsonrpc.ts): past this a body can never be stored. */
const MAX_DEPTH = 32;
/** Answers signed with the merchant key (checkout-rest.md: RECOMMENDED for complete_checkout). */
const SIGNED_ANSWERS = new Set(["complete_checkout"]);
const MUTATING = new Set(["POST", "PUT"]);

export function restHandler(tool: string) {
  const operation = restOperation(tool);
  return (request: IRequest, env: Env, facts: RequestFacts): Promise<Response> =>
    handleRest(request as unknown as Request, (request.params as Record<string, string>).id, operation, env, facts);
}

async function handleRest(
  request: Request,
  id: string | undefined,
  operation: RestOperation,
  env: Env,
  facts: RequestFacts,
): Promise<Response> {
  facts.tool = operation.tool;
  const profile = profileFromHeader(request.headers.get("ucp-agent"));
  if (profile !== undefined) facts.profile = profile;
  let reply: RestReply;
  let tier = "anonymous";
  const bytes = await readCappedBytes(request, REST_MAX_BODY_BYTES);
  if (bytes === undefined) {
    reply = requestError(413, "request_too_large", "Request body exceeds 1 MiB");
  } else {
    const body = readBody(operation, request.headers, bytes);
    if (!body.ok) reply = body.reply;
    else {
      const call: NormalizedCall = {
        profile,
        idempotencyKey: request.headers.get("idempotency-key") ?? undefined,
        args: toolArguments(operation, id, body.value),
        meta: {},
        keyCarrier: "the Idempotency-Key header",
      };
      const ran = await run(request, bytes, operation, call, env);
      reply = ran.reply;
      tier = ran.tier;
    }
  }
  facts.tier = tier;
  facts.outcome = reply.outcome;
  return respond(request, reply, tier, SIGNED_ANSWERS.has(operation.tool) ? env : undefined);
}

type Body = { ok: true; value: unknown } | { ok: false; reply: RestReply };

/** The JSON object an operation with a body needs; operations without one ignore theirs. */
function readBody(operation: RestOperation, headers: Headers, bytes: Uint8Array): Body {
  if (operation.body === "none") return { ok: true, value: undefined };
  const type = headers.get("content-type");
  if (type !== null && !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    return { ok: false, reply: requestError(400, "invalid_request", "Content-Type must be application/json") };
  }
  const parsed = parseUntrustedJson(new TextDecoder().decode(bytes));
  if (!parsed.ok) return { ok: false, reply: requestError(400, "invalid_request", "The body is not valid JSON") };
  if (!isPlainObject(parsed.value)) {
    return { ok: false, reply: requestError(400, "invalid_request", "The body must be a JSON object") };
  }
  if (nestsDeeperThan(parsed.value, MAX_DEPTH)) {
    return { ok: false, reply: requestError(400, "invalid_request", `The body nests more than ${MAX_DEPTH} levels`) };
  }
  return { ok: true, value: parsed.value };
}

async function run(
  request: Request,
  bytes: Uint8Array,
  operation: RestOperation,
  call: NormalizedCall,
  env: Env,
): Promise<{ reply: RestReply; tier: string }> {
  const tool = TOOLS.get(operation.tool);
  if (!tool) throw new Error(`REST operation without a tool: ${operation.tool}`);
  // Known once admitted, so an answer after a failure still says who the caller is.
  let tier = "anonymous";
  try {
    const admitted = await admit({ request, body: bytes }, env);
    if (!admitted.ok) {
      return {
        reply: errorReply(admitted.error, tool.name, operation.body),
        tier: admitted.principal?.tier ?? "anonymous",
      };
    }
    const { scope } = admitted;
    const { principal } = scope;
    tier = principal.tier;
    // REST request signing (spec-digest §10.3): a signed POST/PUT covers its Idempotency-Key.
    if (principal.tier === "authenticated" && principal.via === "signature" && MUTATING.has(request.method)) {
      if (request.headers.has("idempotency-key") && !principal.signed.includes("idempotency-key")) {
        const refused = authError("signature_invalid", "A signed request must cover idempotency-key when it sends one");
        return { reply: errorReply(refused, tool.name, operation.body), tier };
      }
    }
    const outcome = await callTool(tool, call, scope);
    if (outcome.ok) return { reply: payloadReply(outcome.value, operation.creates), tier };
    const notFound = productNotFound(outcome.error, tool.name);
    if (notFound) return { reply: payloadReply(notFound, false), tier };
    return { reply: errorReply(outcome.error, tool.name, operation.body), tier };
  } catch (e) {
    if (e instanceof StoreMisconfigured) {
      console.error(`store misconfigured (fix wrangler.toml, \`npm run check:config\`): ${e.problems.join("; ")}`);
      return { reply: errorReply(storeMisconfigured(), tool.name, operation.body), tier };
    }
    if (e instanceof StorageUnavailable) {
      console.error(`rest: ${e.message}`);
      return { reply: errorReply(unavailable(), tool.name, operation.body), tier };
    }
    // Internals stay in the log; the wire gets a generic 500.
    console.error("rest: unexpected failure", operation.tool, e instanceof Error ? e.stack : e);
    return { reply: requestError(500, "internal_error", "Internal error"), tier };
  }
}

/** `Request-Id` is echoed (OpenAPI: required on every request); one is made up when absent. */
function requestId(headers: Headers): string {
  const sent = headers.get("request-id")?.trim();
  return sent && sent.length <= 200 ? sent : crypto.randomUUID();
}

async function respond(request: Request, reply: RestReply, tier: string, signWith: Env | undefined): Promise<Response> {
  const text = stringifyWithRaw(reply.body);
  const headers = new Headers({ ...REST_CORS, ...reply.headers });
  headers.set("content-type", "application/json");
  headers.set("request-id", requestId(request.headers));
  headers.set("ucp-trust-tier", tier);
  const key = signWith ? await merchantSigningKey(signWith) : undefined;
  if (key) await signResponse({ status: reply.status, headers, body: text }, key);
  return new Response(text, { status: reply.status, headers });
}
