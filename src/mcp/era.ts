/**
 * Two MCP eras on one endpoint (spec 2026-07-28, basic/versioning.mdx "Backward Compatibility
 * with Initialization-Based Versions"; a dual-era server picks the era per request):
 *
 * - legacy (2025-11-25 and older): `initialize` handshake, version in MCP-Protocol-Version only.
 *   Served exactly as before this module existed.
 * - modern (2026-07-28): no handshake; every request carries its version and client
 *   capabilities in `params._meta` (basic/index.mdx "Per-request protocol fields"), mirrored in
 *   the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers (transports/streamable-http.mdx
 *   "Request Metadata"), and every result carries `resultType` (+ caching hints on lists).
 *
 * Body first, like the SDK's classifier: the `_meta` version key claims the modern era; the
 * header only cross-checks it. A modern header without that key is a malformed modern request.
 */
import { RawJson } from "../lib/raw-json";
import { err, ok, type Result } from "../lib/result";
import { isPlainObject } from "../lib/safe-json";
import type { ProtocolError } from "../ucp/errors";
import { type IncomingMessage, protocolError, RPC } from "./jsonrpc";

/** Versions `initialize` negotiates (newest first; an unknown request gets the first). */
export const LEGACY_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;
export const MODERN_VERSIONS = ["2026-07-28"] as const;
/** What server/discover and UnsupportedProtocolVersionError list. */
export const SUPPORTED_VERSIONS: readonly string[] = [...MODERN_VERSIONS, ...LEGACY_VERSIONS];

export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  serverInfo: "io.modelcontextprotocol/serverInfo",
} as const;

/** Codes the 2026-07-28 schema defines (schema.ts HEADER_MISMATCH, UNSUPPORTED_PROTOCOL_VERSION). */
export const MCP_ERROR = { headerMismatch: -32020, unsupportedVersion: -32022 } as const;

export type Era = { readonly kind: "legacy" } | { readonly kind: "modern"; readonly version: string };

const LEGACY: Era = { kind: "legacy" };

/**
 * The tool list, the discover answer and the MCP Apps views (resources) change only with a
 * deploy and are the same for every caller, so an hour, public. A client that meets an unknown tool or bad params may re-fetch
 * early (server/utilities/caching.mdx "Time-to-Live").
 */
const CACHE_HINTS = { ttlMs: 3_600_000, cacheScope: "public" } as const;
const CACHEABLE = new Set(["server/discover", "tools/list", "resources/list", "resources/read"]);

export function classifyEra(message: IncomingMessage, headers: Headers): Result<Era, ProtocolError> {
  const header = headers.get("mcp-protocol-version")?.trim() ?? null;
  const meta = message.kind === "request" && isPlainObject(message.params._meta) ? message.params._meta : undefined;
  const claim = meta && Object.hasOwn(meta, META.protocolVersion) ? meta[META.protocolVersion] : undefined;
  if (claim === undefined) {
    if (header === null || includes(LEGACY_VERSIONS, header)) return ok(LEGACY);
    if (!includes(MODERN_VERSIONS, header)) return err(unsupportedVersion(header));
    // Modern notifications carry no envelope (none is defined over HTTP); they get 202 as before.
    if (message.kind !== "request") return ok({ kind: "modern", version: header });
    return err(invalidEnvelope(`params._meta["${META.protocolVersion}"] is required`));
  }
  if (typeof claim !== "string") {
    return err(invalidEnvelope(`params._meta["${META.protocolVersion}"] must be a string`));
  }
  if (header !== null && header !== claim) {
    return err(headerMismatch(`MCP-Protocol-Version header ${clip(header)} does not match _meta ${clip(claim)}`));
  }
  if (!includes(MODERN_VERSIONS, claim)) return err(unsupportedVersion(claim));
  if (header === null) return err(headerMismatch("MCP-Protocol-Version header is required"));
  if (!isPlainObject(meta?.[META.clientCapabilities])) {
    return err(invalidEnvelope(`params._meta["${META.clientCapabilities}"] must be an object`));
  }
  const mirrored = message.kind === "request" ? mirroredHeaderProblem(message, headers) : undefined;
  if (mirrored) return err(headerMismatch(mirrored));
  return ok({ kind: "modern", version: claim });
}

/** A modern result: `resultType`, our identity in `_meta`, and caching hints where the spec asks. */
export function modernResult(method: string, value: unknown, serverInfo: Record<string, unknown>): unknown {
  const fields = { resultType: "complete", ...(CACHEABLE.has(method) ? CACHE_HINTS : {}) };
  if (value instanceof RawJson) {
    // Serialized once (tools/list): prepend the fields to the object's text instead of re-parsing it.
    const head = JSON.stringify({ ...fields, _meta: { [META.serverInfo]: serverInfo } });
    const body = value.text.slice(1).trimStart();
    return new RawJson(body.startsWith("}") ? head : `${head.slice(0, -1)},${body}`);
  }
  const own = isPlainObject(value) ? value : {};
  const meta = isPlainObject(own._meta) ? own._meta : {};
  return { ...fields, ...own, _meta: { [META.serverInfo]: serverInfo, ...meta } };
}

/** The body field each core method mirrors into Mcp-Name ("Standard Request Headers"). */
const NAME_SOURCE: Readonly<Record<string, string>> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};

/**
 * SEP-2243: Mcp-Method always, Mcp-Name for the core methods that name a target, each equal to
 * the body (transports/streamable-http.mdx "Server Validation"). Values arrive trimmed of OWS.
 * Other methods' Mcp-Name is left alone: extensions define their own sources (tasks/get mirrors
 * taskId), and a method we do not serve is answered -32601, not a header complaint.
 */
function mirroredHeaderProblem(message: IncomingMessage & { kind: "request" }, headers: Headers): string | undefined {
  const method = headers.get("mcp-method")?.trim();
  if (method === undefined) return "Mcp-Method header is required";
  if (method !== message.method) {
    return `Mcp-Method header ${clip(method)} does not match method ${clip(message.method)}`;
  }
  const source = NAME_SOURCE[message.method];
  if (source === undefined) return undefined;
  const raw = headers.get("mcp-name")?.trim();
  if (raw === undefined) return message.params[source] === undefined ? undefined : "Mcp-Name header is required";
  const name = decodeHeaderValue(raw);
  if (name === undefined) return "Mcp-Name header has a malformed =?base64?…?= value";
  if (name !== message.params[source]) return `Mcp-Name header ${clip(name)} does not match params.${source}`;
  return undefined;
}

const BASE64_SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/** Plain values as sent; `=?base64?…?=` decoded as UTF-8 ("Value Encoding"); undefined when malformed. */
export function decodeHeaderValue(value: string): string | undefined {
  if (!value.startsWith("=?base64?") || !value.endsWith("?=")) return value;
  const match = BASE64_SENTINEL.exec(value);
  if (!match || (match[1] ?? "").length % 4 !== 0) return undefined;
  try {
    const bytes = Uint8Array.from(atob(match[1] ?? ""), (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}

function unsupportedVersion(requested: string): ProtocolError {
  return protocolError(MCP_ERROR.unsupportedVersion, 400, "Unsupported protocol version", {
    supported: [...SUPPORTED_VERSIONS],
    requested: clip(requested),
  });
}

function headerMismatch(why: string): ProtocolError {
  return protocolError(MCP_ERROR.headerMismatch, 400, `Header mismatch: ${why}`);
}

/** "A request missing any required field is malformed": -32602 with 400 (basic/index.mdx). */
function invalidEnvelope(why: string): ProtocolError {
  return protocolError(RPC.invalidParams, 400, `Invalid params: ${why}`);
}

function includes(list: readonly string[], value: string): boolean {
  return list.includes(value);
}

function clip(value: string): string {
  return value.slice(0, 100);
}
