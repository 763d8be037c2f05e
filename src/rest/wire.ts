/**
 * The REST binding's wire forms (checkout-rest.md "Protocol Mechanics"): business outcomes
 * are the tool's UCP payload with 200 (201 for a created resource); protocol errors are the
 * pipeline's ProtocolError with its HTTP status and a `{ code, content }` body. The MCP
 * binding carries the same errors as JSON-RPC `error`s (docs/decisions/protocol.md, issue 12).
 */
import { RawJson } from "../lib/raw-json";
import { isPlainObject } from "../lib/safe-json";
import type { UcpPayload } from "../tools/types";
import type { ProtocolError } from "../ucp/errors";
import { productNotFound as envelopeFor } from "../ucp/product-not-found";

export interface RestReply {
  readonly status: number;
  /** A JSON value; RawJson parts go out verbatim. */
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  /** `ok`, or the error code, for the request log. */
  readonly outcome: string;
}

const ERROR_ENVELOPE = /^\{"ucp":\{"version":"[^"]*","status":"error"/;
const FIRST_MESSAGE_CODE = /"messages":\[\{[^{}]*?"code":"([^"]{1,100})"/;

/** A UCP error payload (`ucp.status: "error"`): still 200, never 201 (no resource was created). */
function isErrorPayload(payload: UcpPayload): boolean {
  if (payload instanceof RawJson) return ERROR_ENVELOPE.test(payload.text.slice(0, 200));
  return payload.ucp.status === "error";
}

export function payloadReply(payload: UcpPayload, creates: boolean): RestReply {
  const failed = isErrorPayload(payload);
  const text = payload instanceof RawJson ? payload.text : JSON.stringify(payload);
  const outcome = failed ? (FIRST_MESSAGE_CODE.exec(text)?.[1] ?? "error") : "ok";
  return { status: creates && !failed ? 201 : 200, body: new RawJson(text), headers: {}, outcome };
}

/** get_product's unknown id: a 200 error envelope on REST in both versions (src/ucp/product-not-found.ts). */
export function productNotFound(error: ProtocolError, tool: string): UcpPayload | undefined {
  return envelopeFor(error, tool) as UcpPayload | undefined;
}

/** The tool argument the body fills; its JSONPaths are rewritten to start at the body. */
export type BodyRoot = "checkout" | "cart" | "catalog" | "none";

/**
 * `{ code, content, ...details }` with the error's status. Codes the pipeline leaves to the
 * JSON-RPC code get REST names: invalid arguments are 400 `invalid_request` (a lookup over
 * its batch limit `request_too_large`, catalog/rest.md), a reused key 409
 * `idempotency_conflict`, anything unexpected 500 `internal_error`.
 */
export function errorReply(error: ProtocolError, tool: string, root: BodyRoot): RestReply {
  const data: Record<string, unknown> = { ...error.data };
  const code = typeof data.code === "string" ? data.code : fallbackCode(error, tool, data);
  const status = error.rpcCode === -32602 ? 400 : error.httpStatus;
  const rest = rebase(data, root) as Record<string, unknown>;
  const content = typeof data.content === "string" ? data.content : rebaseText(error.message, root);
  delete rest.code;
  delete rest.content;
  const headers: Record<string, string> = { ...error.headers };
  if (status === 503 && typeof data.retry_after === "number") headers["retry-after"] = String(data.retry_after);
  // spec-digest §10.1: REST 401s carry a Bearer challenge (our API keys are Bearer tokens).
  if (status === 401) headers["www-authenticate"] = 'Bearer realm="ucp"';
  return { status, body: { code, content, ...rest }, headers, outcome: code };
}

function fallbackCode(error: ProtocolError, tool: string, data: Record<string, unknown>): string {
  if (error.rpcCode === -32602)
    return tool === "lookup_catalog" && data.path === "$.catalog.ids" ? "request_too_large" : "invalid_request";
  if (error.httpStatus === 409) return "idempotency_conflict";
  if (error.httpStatus === 503) return "unavailable";
  if (error.httpStatus === 413) return "request_too_large";
  if (error.httpStatus >= 500) return "internal_error";
  return "invalid_request";
}

/** `$.checkout.line_items[0]` → `$.line_items[0]`: over REST the body is the checkout itself. */
function rebaseText(text: string, root: BodyRoot): string {
  if (root === "none") return text;
  return text.replaceAll(`$.${root}.`, "$.").replaceAll(`$.${root}`, "$");
}

function rebase(value: unknown, root: BodyRoot): unknown {
  if (typeof value === "string") return value.startsWith("$") ? rebaseText(value, root) : value;
  if (Array.isArray(value)) return value.map((v) => rebase(v, root));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rebase(v, root)]));
}

/** A REST-side refusal before any tool runs (framing, content type, size). */
export function requestError(status: number, code: string, content: string): RestReply {
  return { status, body: { code, content }, headers: {}, outcome: code };
}
