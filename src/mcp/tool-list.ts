/**
 * tools/list, generated from the zod schemas (descriptions included), built once per
 * isolate on first use. outputSchema admits the resource and the UCP error response.
 */
import * as z from "zod";
import { ErrorResponseSchema } from "../../schemas/ucp/common";
import { metaSchema } from "../../schemas/ucp/meta";
import { TOOLS } from "../tools";
import type { ToolDefinition } from "../tools/types";

export interface ListedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

let listed: ListedTool[] | undefined;

export function listTools(): ListedTool[] {
  listed ??= [...TOOLS.values()].map(describeTool);
  return listed;
}

function describeTool(tool: ToolDefinition): ListedTool {
  const input = z
    .object({ meta: metaSchema(tool.idempotencyKeyRequired), ...tool.input.shape })
    .describe(`Arguments of ${tool.name}.`);
  const output = z.union([tool.output, ErrorResponseSchema]);
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: jsonSchema(input),
    // MCP requires an object-typed root; anyOf keeps both branches (resource | error response).
    outputSchema: { type: "object", ...jsonSchema(output) },
  };
}

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: "input", target: "draft-2020-12" }) as Record<
    string,
    unknown
  >;
  return rest;
}
