/**
 * MCP method dispatch over one JSON-RPC request: lifecycle (initialize, ping), tools/list,
 * tools/call, and the older direct-method form (`"method": "search_catalog"`).
 */
import type { MerchantConfig } from "../config";
import { RawJson } from "../lib/raw-json";
import { err, ok, type Result } from "../lib/result";
import { isPlainObject } from "../lib/safe-json";
import type { RequestScope } from "../pipeline/scope";
import { callTool } from "../pipeline/tool-call";
import { TOOLS } from "../tools";
import { invalidParams, type ProtocolError } from "../ucp/errors";
import { protocolError, RPC } from "./jsonrpc";
import { normalizeCall } from "./normalize";
import { toolsListResult } from "./tool-list";

export const MCP_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;
export const SERVER_VERSION = "0.1.0";

export async function dispatch(
  method: string,
  params: Record<string, unknown>,
  scope: RequestScope,
): Promise<Result<unknown, ProtocolError>> {
  switch (method) {
    case "initialize":
      return ok(initializeResult(params, scope.config));
    case "ping":
      return ok({});
    case "tools/list":
      return ok(toolsListResult());
    case "tools/call":
      return toolsCall(params, scope);
  }
  const tool = TOOLS.get(method);
  if (tool) {
    // Older UCP examples call the tool as the JSON-RPC method; they get the payload itself.
    const call = normalizeCall(params, params._meta, scope.headers);
    return callTool(tool, call, scope);
  }
  return err(protocolError(RPC.methodNotFound, 200, `Method not found: ${method.slice(0, 100)}`));
}

function initializeResult(params: Record<string, unknown>, config: MerchantConfig) {
  const requested = params.protocolVersion;
  const protocolVersion = MCP_PROTOCOL_VERSIONS.find((v) => v === requested) ?? MCP_PROTOCOL_VERSIONS[0];
  return {
    protocolVersion,
    capabilities: { tools: { listChanged: false } },
    serverInfo: { name: "ucp-worker", title: `${config.name} (UCP)`, version: SERVER_VERSION },
    instructions: `UCP ${config.name} store. Every tool call needs arguments.meta["ucp-agent"].profile, the URL of your platform profile.`,
  };
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
