/**
 * Validates REST requests and responses against the official OpenAPI document of the binding
 * (services/shopping/rest.openapi.json, found by test/helpers/ucp-material.plugin.ts): the
 * operation's schema for the status, resolved through its `components.schemas` entry to the
 * official JSON Schemas. Request bodies of checkouts and carts are checked against the
 * operation's request variant of those schemas (test/helpers/request-schema.ts), as the spec
 * repository's generator links them: POST …/complete is `complete`, other POSTs `create`,
 * PUT `update`. Without the material it reports no errors (the run says what was skipped),
 * like test/helpers/official-schema.ts.
 */
import { openapi, schemas } from "virtual:ucp-material";
import { type OutputUnit, Validator } from "@cfworker/json-schema";
import { type RequestOperation, RequestSchemas } from "../helpers/request-schema";

/** Where the document sits among the schemas, so its `../../schemas/...` refs resolve to their $ids. */
const DOC_ID = "https://ucp.dev/services/shopping/rest.openapi.json";

export const openapiPresent = openapi !== null && schemas.length > 0;

type Json = Record<string, unknown>;
const validators = new Map<string, Validator>();

function operationOf(method: string, path: string): Json {
  const paths = (openapi as Json).paths as Record<string, Record<string, Json>>;
  const operation = paths[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`the OpenAPI document has no ${method} ${path}`);
  return operation;
}

let derived: RequestSchemas | undefined;
const requestSchemas = () => {
  derived ??= new RequestSchemas(schemas as Json[]);
  return derived;
};

function validate(ref: string, value: unknown): string[] {
  let validator = validators.get(ref);
  if (!validator) {
    validator = new Validator({ $id: `https://test.invalid/openapi/${validators.size}`, $ref: ref }, "2020-12", false);
    for (const schema of requestSchemas().schemas) validator.addSchema(schema as never);
    validator.addSchema({ ...(openapi as Json), $id: DOC_ID } as never);
    validators.set(ref, validator);
  }
  const result = validator.validate(value);
  return result.errors
    .slice(0, 8)
    .map((unit: OutputUnit) => `${unit.instanceLocation} ${unit.keywordLocation}: ${unit.error}`);
}

function schemaRef(holder: Json | undefined, what: string): string {
  const content = holder?.content as Record<string, { schema?: { $ref?: string } }> | undefined;
  const ref = content?.["application/json"]?.schema?.$ref;
  if (!ref) throw new Error(`the OpenAPI document gives no JSON schema for ${what}`);
  return `${DOC_ID}${ref}`;
}

/** Errors of a response body against `paths[path][method].responses[status]` (OpenAPI path form: `/carts/{id}`). */
export function responseErrors(method: string, path: string, status: number, body: unknown): string[] {
  if (!openapiPresent) return [];
  const responses = operationOf(method, path).responses as Record<string, Json>;
  const response = responses[String(status)];
  if (!response) return [`the OpenAPI document defines no ${status} for ${method} ${path}`];
  return validate(schemaRef(response, `${method} ${path} ${status}`), body);
}

/**
 * The extensions this store negotiates with the test platforms (FULL_PROFILE), each an
 * `allOf` of the base schema and its own fields, so a request is checked against them too,
 * as validateCheckout checks answers. ap2_mandate is not offered.
 */
const EXTENSIONS: Record<string, string[]> = {
  "https://ucp.dev/schemas/shopping/checkout.json": [
    "https://ucp.dev/schemas/shopping/fulfillment.json#/$defs/dev.ucp.shopping.checkout",
    "https://ucp.dev/schemas/shopping/discount.json#/$defs/dev.ucp.shopping.checkout",
    "https://ucp.dev/schemas/shopping/buyer_consent.json#/$defs/dev.ucp.shopping.checkout",
    "https://ucp.dev/schemas/shopping/cart.json#/$defs/checkout",
  ],
  "https://ucp.dev/schemas/shopping/cart.json": [
    "https://ucp.dev/schemas/shopping/discount.json#/$defs/dev.ucp.shopping.cart",
  ],
};

/** The request side the spec repository's generator gives an operation (generate_schemas.py). */
function requestOperation(method: string, path: string, operation: Json): RequestOperation {
  if (method.toUpperCase() === "PUT") return "update";
  const complete = path.endsWith("/complete") || String(operation.operationId ?? "").startsWith("complete_");
  return complete ? "complete" : "create";
}

/** The schema URLs a request body must satisfy (none for an operation without a body): the document's, as the operation's request variant, and the negotiated extensions'. */
export function requestSchemaRefs(method: string, path: string): string[] {
  if (!openapiPresent) return [];
  const operation = operationOf(method, path);
  if (operation.requestBody === undefined) return [];
  const documentRef = schemaRef(operation.requestBody as Json, `${method} ${path} request`);
  const component = ((openapi as Json).components as Json).schemas as Record<string, { $ref?: string }>;
  const target = component[documentRef.split("/").pop() as string]?.$ref;
  if (!target) return [documentRef];
  const official = new URL(target, DOC_ID).href;
  const op = requestOperation(method, path, operation);
  const extensions = EXTENSIONS[official] ?? [];
  return [official, ...extensions].map((ref) => requestSchemas().ref(ref, op));
}

/** Errors of a request body against the operation's request schema (OpenAPI path form). */
export function requestErrors(method: string, path: string, body: unknown): string[] {
  return requestSchemaRefs(method, path).flatMap((ref) =>
    validate(ref, body).map((e) => `${ref.replace(/^.*\/schemas\//, "")}: ${e}`),
  );
}

/** The OpenAPI path (`/carts/{id}`) a request path (`/carts/cart_1`) is an operation of, if any. */
export function openapiPath(method: string, path: string): string | undefined {
  if (!openapiPresent) return undefined;
  const paths = (openapi as Json).paths as Record<string, Record<string, Json>>;
  return Object.keys(paths).find(
    (template) =>
      paths[template]?.[method.toLowerCase()] !== undefined &&
      new RegExp(`^${template.replaceAll(/\{[^}]+\}/g, "[^/]+")}$`).test(path),
  );
}

/** The header parameters the operation declares required (UCP-Agent, Request-Id, Idempotency-Key…). */
export function requiredHeaders(method: string, path: string): string[] {
  if (!openapiPresent) return [];
  const components = ((openapi as Json).components as Json).parameters as Record<string, Json>;
  const params = (operationOf(method, path).parameters ?? []) as Array<{ $ref: string }>;
  return params
    .map((p) => components[p.$ref.split("/").pop() as string] as Json)
    .filter((p) => p.in === "header" && p.required === true)
    .map((p) => String(p.name).toLowerCase());
}

/** Errors of a webhook's body against `webhooks[name].post.requestBody` (orderEvent: the order). */
export function webhookBodyErrors(name: string, body: unknown): string[] {
  if (!openapiPresent) return [];
  const webhooks = (openapi as Json).webhooks as Record<string, { post: Json }>;
  const post = webhooks[name]?.post;
  if (!post) throw new Error(`the OpenAPI document has no webhook ${name}`);
  return validate(schemaRef(post.requestBody as Json, `webhook ${name}`), body);
}

/** The webhook's header parameters: name (lowercase), required, and the value's schema. */
export function webhookHeaders(name: string): Array<{ name: string; required: boolean; schema: Json }> {
  if (!openapiPresent) return [];
  const components = ((openapi as Json).components as Json).parameters as Record<string, Json>;
  const post = ((openapi as Json).webhooks as Record<string, { post: Json }>)[name]?.post;
  const params = (post?.parameters ?? []) as Array<{ $ref: string }>;
  return params
    .map((p) => components[p.$ref.split("/").pop() as string] as Json)
    .filter((p) => p.in === "header")
    .map((p) => ({ name: String(p.name).toLowerCase(), required: p.required === true, schema: p.schema as Json }));
}
