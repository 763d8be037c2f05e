/**
 * The REST binding's eleven operations (rest.openapi.json, UCP 2026-04-08) and how each
 * becomes a tool call: the path id and the JSON body go where the tool's arguments hold
 * them. Nothing here knows what a tool does.
 */

import { REST_PATH } from "../ucp/discovery";

/** Where the operations live, as discovery advertises it: `{endpoint}/checkout-sessions` is `/ucp/checkout-sessions`. */
export const REST_BASE = REST_PATH;

export type RestMethod = "GET" | "POST" | "PUT";
/** The tool argument the request body fills; `none` for operations without a body. */
type BodyArg = "checkout" | "cart" | "catalog" | "none";

export interface RestOperation {
  readonly tool: string;
  readonly method: RestMethod;
  /** itty-router pattern below REST_BASE. */
  readonly path: string;
  readonly body: BodyArg;
  /** 201 Created on success (the OpenAPI's create operations). */
  readonly creates: boolean;
}

const op = (tool: string, method: RestMethod, path: string, body: BodyArg, creates = false): RestOperation => ({
  tool,
  method,
  path,
  body,
  creates,
});

export const REST_OPERATIONS: readonly RestOperation[] = [
  op("create_checkout", "POST", "/checkout-sessions", "checkout", true),
  op("get_checkout", "GET", "/checkout-sessions/:id", "none"),
  op("update_checkout", "PUT", "/checkout-sessions/:id", "checkout"),
  op("complete_checkout", "POST", "/checkout-sessions/:id/complete", "checkout"),
  op("cancel_checkout", "POST", "/checkout-sessions/:id/cancel", "none"),
  op("create_cart", "POST", "/carts", "cart", true),
  op("get_cart", "GET", "/carts/:id", "none"),
  op("update_cart", "PUT", "/carts/:id", "cart"),
  op("cancel_cart", "POST", "/carts/:id/cancel", "none"),
  op("search_catalog", "POST", "/catalog/search", "catalog"),
  op("lookup_catalog", "POST", "/catalog/lookup", "catalog"),
  op("get_product", "POST", "/catalog/product", "catalog"),
  op("get_order", "GET", "/orders/:id", "none"),
];

export function restOperation(tool: string): RestOperation {
  const found = REST_OPERATIONS.find((o) => o.tool === tool);
  if (!found) throw new Error(`no REST operation for ${tool}`);
  return found;
}

/** The tool's arguments: `{ id }` from the path, the body under the tool's request key. */
export function toolArguments(
  operation: RestOperation,
  id: string | undefined,
  body: unknown,
): Record<string, unknown> {
  const args: Record<string, unknown> = id === undefined ? {} : { id };
  if (operation.body !== "none") args[operation.body] = body;
  return args;
}

const PATTERNS = REST_OPERATIONS.map((o) => ({
  o,
  regex: new RegExp(`^${REST_BASE}${o.path.replace(":id", "[^/]+")}$`),
}));

/** The methods a REST path answers (for 405 and preflight), or undefined when it is no REST path. */
export function allowedMethods(pathname: string): RestMethod[] | undefined {
  const methods = PATTERNS.filter((p) => p.regex.test(pathname)).map((p) => p.o.method);
  return methods.length > 0 ? methods : undefined;
}
