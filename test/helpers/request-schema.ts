/**
 * Request schemas derived from the official UCP schemas' `ucp_request` annotations, the way
 * the specification repository builds its per-operation schemas (generate_schemas.py at tag
 * v2026-04-08, whose output the docs render as `cart_create_req`, `checkout_update_req`…):
 *
 * - A property annotated `"omit"` leaves `properties` and `required`, `"required"` joins
 *   `required`, `"optional"` leaves it; `{create, update, complete}` picks the operation's
 *   value, and an operation it does not name keeps the property as it is. Annotations go.
 * - Every annotated file gets one variant per operation (`checkout.json` →
 *   `checkout.update_req.json`); `$ref`s to annotated files point at the same operation's
 *   variant, so `line_items[].item` in an update request is `item.update_req.json`.
 * - A file marked `ucp_shared_request` has a single request variant (`_req`), resolved as
 *   `create`, and so is everything it references: fulfillment's methods are create-shaped in
 *   every request. (The newer ucp-schema CLI treats the marker as inert; the tag's script
 *   is what the spec's pages were built with.)
 * - One departure from the script: a `"required"` annotation is added even where the schema
 *   had no `required` array (the script drops it there, against its own rule and the
 *   ucp-schema CLI's); no schema the tests use is affected (ap2's `complete` branch would be).
 *
 * Files without annotations are used as they are. Pure: the caller hands in the schemas.
 */

export type RequestOperation = "create" | "update" | "complete";

type Json = Record<string, unknown>;
type Visibility = "omit" | "required" | "optional" | "include";

const ANNOTATIONS = new Set(["ucp_request", "ucp_response", "ucp_shared_request"]);
const OPERATIONS: readonly RequestOperation[] = ["create", "update", "complete"];

function hasAnnotations(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasAnnotations);
  if (value === null || typeof value !== "object") return false;
  return Object.entries(value).some(([k, v]) => ANNOTATIONS.has(k) || hasAnnotations(v));
}

function visibility(property: unknown, op: RequestOperation): Visibility {
  const annotation = (property as Json | null)?.ucp_request;
  if (annotation === undefined) return "include";
  if (typeof annotation === "string") return annotation as Visibility;
  return ((annotation as Record<string, string>)[op] ?? "include") as Visibility;
}

/** `https://…/checkout.json` → `https://…/checkout.update_req.json` (or `…_req.json` when shared). */
function variantId(id: string, op: RequestOperation, shared: boolean): string {
  return id.replace(/\.json$/, shared ? "_req.json" : `.${op}_req.json`);
}

export class RequestSchemas {
  /** $id → whether the file is `ucp_shared_request`, for every annotated file. */
  private readonly annotated = new Map<string, boolean>();
  /** Every official file as it is (responses, and refs from unannotated files) and the variants. */
  readonly schemas: Json[] = [];

  constructor(official: readonly Json[]) {
    for (const schema of official) {
      if (typeof schema.$id === "string" && hasAnnotations(schema)) {
        this.annotated.set(schema.$id, schema.ucp_shared_request === true);
      }
    }
    for (const schema of official) {
      this.schemas.push(schema);
      const shared = this.annotated.get(schema.$id as string);
      if (shared === undefined) continue;
      if (shared) this.schemas.push(this.variant(schema, "create", true));
      else for (const op of OPERATIONS) this.schemas.push(this.variant(schema, op, false));
    }
  }

  /** The request variant of an absolute schema URL (with or without a `#` pointer) for `op`. */
  ref(url: string, op: RequestOperation): string {
    const [file = "", pointer] = url.split("#");
    const shared = this.annotated.get(file);
    const target = shared === undefined ? file : variantId(file, shared ? "create" : op, shared);
    return pointer === undefined ? target : `${target}#${pointer}`;
  }

  private variant(schema: Json, op: RequestOperation, shared: boolean): Json {
    const id = schema.$id as string;
    const resolved = this.transform(schema, op, id) as Json;
    return { ...resolved, $id: variantId(id, op, shared) };
  }

  private transform(value: unknown, op: RequestOperation, base: string): unknown {
    if (Array.isArray(value)) return value.map((v) => this.transform(v, op, base));
    if (value === null || typeof value !== "object") return value;
    const node = value as Json;
    const out: Json = {};
    // As the script: a $ref node keeps its siblings' shape (no property filtering there).
    const filter = typeof node.$ref !== "string" && typeof node.properties === "object";
    const required = new Set<string>(Array.isArray(node.required) ? (node.required as string[]) : []);
    for (const [key, child] of Object.entries(node)) {
      if (ANNOTATIONS.has(key)) continue;
      if (key === "$ref" && typeof child === "string") out.$ref = this.rewrite(child, op, base);
      else if (key === "properties" && filter) {
        const kept: Json = {};
        for (const [name, property] of Object.entries(child as Json)) {
          const seen = visibility(property, op);
          if (seen === "omit") required.delete(name);
          else {
            if (seen === "required") required.add(name);
            if (seen === "optional") required.delete(name);
            kept[name] = this.transform(property, op, base);
          }
        }
        out.properties = kept;
      } else if (key !== "required" || !filter) out[key] = this.transform(child, op, base);
    }
    if (filter && required.size > 0) out.required = [...required];
    return out;
  }

  /** A ref to an annotated file becomes a ref to its variant for `op`; others stay. */
  private rewrite(ref: string, op: RequestOperation, base: string): string {
    if (ref.startsWith("#")) return ref;
    return this.ref(new URL(ref, base).href, op);
  }
}
