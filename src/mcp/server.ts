/**
 * MCP method dispatch over one JSON-RPC request. Legacy era (era.ts): lifecycle (initialize,
 * ping), tools/list, tools/call, and the older direct-method form (`"method": "search_catalog"`).
 * Modern era (2026-07-28): server/discover, tools/list, tools/call; everything else, the removed
 * initialize and ping included, is -32601 with HTTP 404 (transports/streamable-http.mdx).
 * Both eras: resources/list and resources/read, for the MCP Apps views (apps/).
 */
import type { MerchantConfig } from "../config";
import { RawJson } from "../lib/raw-json";
import { err, ok, type Result } from "../lib/result";
import { isPlainObject } from "../lib/safe-json";
import type { RequestScope } from "../pipeline/scope";
import { callTool } from "../pipeline/tool-call";
import { TOOLS } from "../tools";
import { invalidParams, type ProtocolError } from "../ucp/errors";
import { resourcesListResult, resourcesReadResult } from "./apps/resources";
import { UI_EXTENSION_ID } from "./apps/ui-extension";
import { type Era, LEGACY_VERSIONS, META, SUPPORTED_VERSIONS } from "./era";
import { protocolError, RPC } from "./jsonrpc";
import { normalizeCall } from "./normalize";
import { toolsListResult } from "./tool-list";

export const SERVER_VERSION = "0.1.0";
/** Who we are, in results' `_meta` (modern) and in the initialize answer (legacy). */
export const SERVER_INFO = { name: "ucp-worker", version: SERVER_VERSION } as const;
/** MCP Apps is an extension (SEP-2133 `extensions`); its views are resources (apps/ui-extension.ts). */
const CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false },
  extensions: { [UI_EXTENSION_ID]: {} },
} as const;

export async function dispatch(
  method: string,
  params: Record<string, unknown>,
  scope: RequestScope,
  era: Era = { kind: "legacy" },
): Promise<Result<unknown, ProtocolError>> {
  if (era.kind === "modern") return dispatchModern(method, params, scope);
  switch (method) {
    case "initialize":
      return ok(initializeResult(params, scope.config));
    case "ping":
      return ok({});
  }
  const answered = eitherEra(method, params, scope, era);
  if (answered) return answered;
  const tool = TOOLS.get(method);
  if (tool) {
    // Older UCP examples call the tool as the JSON-RPC method; they get the payload itself.
    const call = normalizeCall(params, params._meta, scope.headers);
    return callTool(tool, call, scope);
  }
  return err(protocolError(RPC.methodNotFound, 200, `Method not found: ${method.slice(0, 100)}`));
}

async function dispatchModern(
  method: string,
  params: Record<string, unknown>,
  scope: RequestScope,
): Promise<Result<unknown, ProtocolError>> {
  switch (method) {
    case "server/discover":
      return ok(discoverResult(scope.config));
  }
  const answered = eitherEra(method, params, scope, { kind: "modern", version: "" });
  if (answered) return answered;
  // The direct-method form is a 2026-01 UCP draft shape: its payload-as-result has no resultType.
  return err(protocolError(RPC.methodNotFound, 404, `Method not found: ${method.slice(0, 100)}`));
}

/** The methods both eras answer alike; undefined for any other (resources/read shapes its view by era). */
function eitherEra(
  method: string,
  params: Record<string, unknown>,
  scope: RequestScope,
  era: Era,
): Result<unknown, ProtocolError> | Promise<Result<unknown, ProtocolError>> | undefined {
  switch (method) {
    case "tools/list":
      return ok(toolsListResult());
    case "tools/call":
      return toolsCall(params, scope);
    case "resources/list":
      return ok(resourcesListResult(scope.config));
    case "resources/read":
      return resourcesReadResult(params, scope.config, era);
  }
  return undefined;
}

function initializeResult(params: Record<string, unknown>, config: MerchantConfig) {
  const requested = params.protocolVersion;
  // Only legacy versions: 2026-07-28 has no initialize, so it is never negotiated here.
  const protocolVersion = LEGACY_VERSIONS.find((v) => v === requested) ?? LEGACY_VERSIONS[0];
  return {
    protocolVersion,
    capabilities: CAPABILITIES,
    serverInfo: serverInfo(config),
    instructions: instructions(config),
  };
}

/** DiscoverResult (schema/2026-07-28/schema.ts); resultType and cache hints are added by era.ts. */
function discoverResult(config: MerchantConfig) {
  return {
    supportedVersions: SUPPORTED_VERSIONS,
    capabilities: CAPABILITIES,
    instructions: instructions(config),
    _meta: { [META.serverInfo]: serverInfo(config) },
  };
}

function serverInfo(config: MerchantConfig) {
  return { name: SERVER_INFO.name, title: `${config.name} (UCP)`, version: SERVER_VERSION };
}

function instructions(config: MerchantConfig): string {
  return `UCP ${config.name} store. Every tool call needs arguments.meta["ucp-agent"].profile, the URL of your platform profile.`;
}

async function toolsCall(
  params: Record<string, unknown>,
  scope: RequestScope,
): Promise<Result<unknown, ProtocolError>> {
  const { name, arguments: args } = params;
  if (typeof name !== "string") return err(invalidParams('tools/call needs a string "name"'));
  if (args !== undefined && !isPlainObject(args)) return err(invalidParams('"arguments" must be an object'));
  const tool = TOOLS.get(name);
  if (!tool) return err(invalidParams(`Unknown tool: ${name.slice(0, 100)}`));
  const call = normalizeCall(args ?? {}, params._meta, scope.headers);
  const outcome = await callTool(tool, call, scope);
  if (!outcome.ok) return outcome;
  // Serialized once: the text block and structuredContent are the same bytes.
  const text = outcome.value instanceof RawJson ? outcome.value.text : JSON.stringify(outcome.value);
  return ok({ structuredContent: new RawJson(text), content: [{ type: "text", text }] });
}
