/**
 * get_product's unknown id as a UCP error envelope (`not_found`, unrecoverable): how REST
 * answers it in both versions (catalog/rest.md "Product Not Found") and MCP at 2026-08-25
 * (shopping/catalog/mcp.md "Product Not Found"). MCP at 2026-04-08 keeps seed 004's -32602
 * (docs/decisions/protocol.md, catalog). The envelope is the negotiated one the pipeline gave the error.
 */
import type { ProtocolError } from "./errors";

export function productNotFound(error: ProtocolError, tool: string): Record<string, unknown> | undefined {
  const id = error.data?.id;
  if (tool !== "get_product" || error.rpcCode !== -32602 || error.message !== "Product not found") return undefined;
  if (typeof id !== "string" || !error.ucp) return undefined;
  return {
    ucp: error.ucp,
    messages: [{ type: "error", code: "not_found", content: `Product not found: ${id}`, severity: "unrecoverable" }],
  };
}
