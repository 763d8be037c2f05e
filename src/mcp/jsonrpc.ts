/** JSON-RPC 2.0 envelopes: parsing one message and building responses. */
import { isPlainObject, nestsDeeperThan } from "../lib/safe-json";
import type { ProtocolError } from "../ucp/errors";

export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

export type JsonRpcId = string | number;

/**
 * How deep a message may nest. The seeds' deepest message is 13 levels; past this a request
 * can never succeed (storage and RPC cloning refuse it), so it is invalid params, not a 503.
 */
export const MAX_MESSAGE_DEPTH = 32;

export type IncomingMessage =
  | { kind: "request"; id: JsonRpcId; method: string; params: Record<string, unknown> }
  | { kind: "notification"; method: string }
  /** A response the client sent us (MCP allows it); nothing to answer. */
  | { kind: "response" };

export function protocolError(
  rpcCode: number,
  httpStatus: number,
  message: string,
  data?: Record<string, unknown>,
): ProtocolError {
  return data ? { rpcCode, httpStatus, message, data } : { rpcCode, httpStatus, message };
}

/** Classifies one decoded JSON value; a failure carries the id when one could be read. */
export function parseMessage(
  value: unknown,
): { ok: true; message: IncomingMessage } | { ok: false; id: JsonRpcId | null; error: ProtocolError } {
  const invalid = (why: string, id: JsonRpcId | null = null) => ({
    ok: false as const,
    id,
    error: protocolError(RPC.invalidRequest, 400, `Invalid Request: ${why}`),
  });
  if (Array.isArray(value)) return invalid("batches are not supported");
  if (!isPlainObject(value)) return invalid("the body must be a JSON-RPC object");
  const id = value.id;
  const validId = typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  const echoId = validId ? (id as JsonRpcId) : null;
  if (value.jsonrpc !== "2.0") return invalid('"jsonrpc" must be "2.0"', echoId);
  if (value.method === undefined && ("result" in value || "error" in value))
    return { ok: true, message: { kind: "response" } };
  if (typeof value.method !== "string" || value.method.length === 0)
    return invalid('"method" must be a string', echoId);
  if ("id" in value && !validId) return invalid('"id" must be a string or a number', null);
  const params = value.params;
  if (params !== undefined && !isPlainObject(params)) return invalid('"params" must be an object', echoId);
  if (nestsDeeperThan(value, MAX_MESSAGE_DEPTH)) {
    const message = `Invalid params: nested more than ${MAX_MESSAGE_DEPTH} levels deep`;
    return { ok: false, id: echoId, error: protocolError(RPC.invalidParams, 400, message) };
  }
  if (!("id" in value)) return { ok: true, message: { kind: "notification", method: value.method } };
  return { ok: true, message: { kind: "request", id: id as JsonRpcId, method: value.method, params: params ?? {} } };
}

export function resultBody(id: JsonRpcId, result: unknown) {
  return { jsonrpc: "2.0" as const, id, result };
}

export function errorBody(id: JsonRpcId | null, error: ProtocolError) {
  return {
    jsonrpc: "2.0" as const,
    id,
    error: error.data
      ? { code: error.rpcCode, message: error.message, data: error.data }
      : { code: error.rpcCode, message: error.message },
  };
}
