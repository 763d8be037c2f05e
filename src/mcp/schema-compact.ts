/**
 * Making tools/list affordable (issue 14): every LLM agent pays for the list in context
 * before its first call, and it was 187 KB, 143 KB of it output schemas.
 *
 * Inputs keep every field, bound and description (models read them to build calls); only
 * keywords that restate the default go. Outputs keep what a client validates
 * structuredContent against at the top: each branch's fields, their types and enums, and
 * which are required, without prose; nested shapes are the UCP spec's (and the inputs'). Both
 * steps only drop constraints, so every answer that met the full schema meets this one.
 */

// biome-ignore lint/suspicious/noExplicitAny: -- JSON Schema documents are walked structurally
type Schema = Record<string, any>;

const BRANCHES = ["anyOf", "oneOf", "allOf"] as const;

/**
 * An input schema without `additionalProperties: {}` and `propertyNames: {type: string}`
 * (both always true), and without descriptions of array elements and union branches: the
 * field holding them is described, and that is where a model looks.
 */
export function compactInput(schema: Schema, field = true): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "additionalProperties" && isEmptyObject(value)) continue;
    if (key === "propertyNames" && isPlainObject(value) && value.type === "string" && Object.keys(value).length === 1)
      continue;
    if (key === "description" && !field) continue;
    out[key] = mapChildren(key, value, (child) => compactInput(child, key === "properties"));
  }
  return out;
}

/** An output schema cut to its branches' fields: type, enum or const each, and the required list. */
export function compactOutput(schema: Schema): Schema {
  const branches = BRANCHES.find((key) => Array.isArray(schema[key]));
  if (branches) return { ...leaf(schema), [branches]: schema[branches].map(compactOutput) };
  const out = leaf(schema);
  if (isPlainObject(schema.properties)) out.properties = mapValues(schema.properties, leaf);
  if (Array.isArray(schema.required)) out.required = schema.required;
  return out;
}

function leaf(schema: Schema): Schema {
  const out: Schema = {};
  for (const key of ["type", "enum", "const"]) if (key in schema) out[key] = schema[key];
  return out;
}

function mapChildren(key: string, value: unknown, f: (child: Schema) => Schema): unknown {
  if (key === "properties" && isPlainObject(value)) return mapValues(value, f);
  if ((key === "items" || key === "additionalProperties") && isPlainObject(value)) return f(value);
  if ((BRANCHES as readonly string[]).includes(key) && Array.isArray(value)) return value.map(f);
  return value;
}

function mapValues(record: Schema, f: (child: Schema) => Schema): Schema {
  return Object.fromEntries(Object.entries<Schema>(record).map(([name, child]) => [name, f(child)]));
}

function isPlainObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isEmptyObject(value: unknown): boolean {
  return isPlainObject(value) && Object.keys(value).length === 0;
}
