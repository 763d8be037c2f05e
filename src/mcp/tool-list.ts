/**
 * tools/list, generated from the zod schemas, built once per isolate on first use and kept
 * as JSON text: every later tools/list is a copy of those bytes. Inputs keep every field's
 * description; outputs admit the resource and the UCP error response, cut to what clients
 * validate against (schema-compact.ts; under 48 KB in all, test/mcp/tool-list-size.test.ts).
 */
import * as z from "zod";
import { ErrorResponseSchema } from "../../schemas/ucp/common";
import { metaSchema } from "../../schemas/ucp/meta";
import { RawJson } from "../lib/raw-json";
import { TOOLS } from "../tools";
import type { ToolDefinition } from "../tools/types";
import { toolUiMeta } from "./apps/ui-extension";
import { compactInput, compactOutput } from "./schema-compact";

export interface ListedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /** MCP Apps: the view and visibility (apps/ui-extension.ts). */
  _meta?: Record<string, unknown>;
}

let listed: ListedTool[] | undefined;
let listedJson: RawJson | undefined;

function listTools(): ListedTool[] {
  listed ??= [...TOOLS.values()].map(describeTool);
  return listed;
}

/** The tools/list result (`{"tools": [...]}`), serialized once. */
export function toolsListResult(): RawJson {
  listedJson ??= new RawJson(JSON.stringify({ tools: listTools() }));
  return listedJson;
}

function describeTool(tool: ToolDefinition): ListedTool {
  const input = z.object({ meta: metaSchema(tool.idempotencyKeyRequired), ...tool.input.shape });
  const output = z.union([tool.output, ErrorResponseSchema]);
  const meta = toolUiMeta(tool.name);
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: compactInput(jsonSchema(input)),
    // MCP requires an object-typed root; anyOf keeps both branches (resource | error response).
    outputSchema: { type: "object", ...compactOutput(jsonSchema(output)) },
    ...(meta ? { _meta: meta } : {}),
  };
}

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: "input", target: "draft-2020-12" }) as Record<
    string,
    unknown
  >;
  return rest;
}
