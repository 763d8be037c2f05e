/**
 * Validates payloads against the official UCP 2026-08-25 JSON Schemas (issue 23), beside
 * official-schema.ts's 2026-04-08 ones. The two releases share `$id`s
 * (https://ucp.dev/schemas/...), so each version has validators of its own.
 *
 * Without the material, validation reports no errors and `currentSchemasPresent` is false;
 * CI (UCP_SPEC_REQUIRED) refuses to start without it (ucp-material.plugin.ts).
 */
import { currentSchemas } from "virtual:ucp-material";
import { type OutputUnit, Validator } from "@cfworker/json-schema";

export const currentSchemasPresent = currentSchemas.length > 0;

const validators = new Map<string, Validator>();

/** `ref`: an absolute schema URL with an optional pointer, e.g. `${CURRENT.profile}#/$defs/business_schema`. */
export function validateCurrent(ref: string, value: unknown): { valid: boolean; errors: string[] } {
  if (!currentSchemasPresent) return { valid: true, errors: [] };
  let validator = validators.get(ref);
  if (!validator) {
    validator = new Validator({ $id: `https://test-current.invalid/${validators.size}`, $ref: ref }, "2020-12", false);
    for (const schema of currentSchemas) validator.addSchema(schema as never);
    validators.set(ref, validator);
  }
  const result = validator.validate(value);
  return { valid: result.valid, errors: result.errors.slice(0, 8).map(describe) };
}

function describe(unit: OutputUnit): string {
  return `${unit.instanceLocation} ${unit.keywordLocation}: ${unit.error}`;
}

const S = "https://ucp.dev/schemas";

export const CURRENT = {
  profile: `${S}/profile.json`,
  businessProfile: `${S}/profile.json#/$defs/business_schema`,
  platformProfile: `${S}/profile.json#/$defs/platform_schema`,
  search: `${S}/shopping/catalog_search.json#/$defs/search_response`,
  lookup: `${S}/shopping/catalog_lookup.json#/$defs/lookup_response`,
  getProduct: `${S}/shopping/catalog_lookup.json#/$defs/get_product_response`,
  errorResponse: `${S}/common/types/error_response.json`,
  cart: `${S}/shopping/cart.json`,
  checkout: `${S}/shopping/checkout.json`,
  order: `${S}/shopping/order.json`,
} as const;

/**
 * A response against its root schema composed with every extension it says is active in
 * `ucp.capabilities`, as a platform composes them: `extension.json#/$defs/<root capability>`.
 */
export function validateComposed(root: string, rootCapability: string, payload: unknown): string[] {
  const active = Object.keys(
    (payload as { ucp?: { capabilities?: Record<string, unknown> } }).ucp?.capabilities ?? {},
  ).filter((name) => name !== rootCapability);
  const refs = [root, ...active.map((name) => `${S}/shopping/${name.split(".").at(-1)}.json#/$defs/${rootCapability}`)];
  return refs.flatMap((ref) => validateCurrent(ref, payload).errors.map((e) => `${ref.split("/").pop()}: ${e}`));
}
