/**
 * Validates payloads against the official UCP 2026-04-08 JSON Schemas, found by
 * test/helpers/ucp-material.plugin.ts (@cfworker/json-schema needs no eval, so it runs in workerd).
 *
 * Without the schemas (no UCP_SPEC_DIR, no ../shared), validateOfficial() reports no errors:
 * the schema half of a test is skipped and its other assertions still run. The run says so in
 * one line, and CI (UCP_SPEC_REQUIRED) refuses to start without them. Tests that check the
 * validator itself skip on `officialSchemasPresent`.
 */

import { profileSchema, schemas } from "virtual:ucp-material";
import { type OutputUnit, Validator } from "@cfworker/json-schema";

// profile_schema.json declares $id .../schemas/discovery/profile.json but its relative $refs
// (../schemas/ucp.json) are written for its repository path, source/discovery/: give it an $id
// that resolves them as its authors meant.
const PROFILE_ID = "https://ucp.dev/discovery/profile_schema.json";
const ALL = [...schemas, ...(profileSchema ? [{ ...profileSchema, $id: PROFILE_ID }] : [])];

export const officialSchemasPresent = schemas.length > 0;

const validators = new Map<string, Validator>();

/** `ref` is an absolute schema URL, optionally with a JSON pointer: `https://ucp.dev/schemas/shopping/catalog_search.json#/$defs/search_response`. */
export function validateOfficial(ref: string, value: unknown): { valid: boolean; errors: string[] } {
  if (!officialSchemasPresent) return { valid: true, errors: [] };
  let validator = validators.get(ref);
  if (!validator) {
    validator = new Validator({ $id: `https://test.invalid/${validators.size}`, $ref: ref }, "2020-12", false);
    for (const schema of ALL) validator.addSchema(schema as never);
    validators.set(ref, validator);
  }
  const result = validator.validate(value);
  return { valid: result.valid, errors: result.errors.slice(0, 8).map(describe) };
}

function describe(unit: OutputUnit): string {
  return `${unit.instanceLocation} ${unit.keywordLocation}: ${unit.error}`;
}

export const OFFICIAL = {
  search: "https://ucp.dev/schemas/shopping/catalog_search.json#/$defs/search_response",
  lookup: "https://ucp.dev/schemas/shopping/catalog_lookup.json#/$defs/lookup_response",
  getProduct: "https://ucp.dev/schemas/shopping/catalog_lookup.json#/$defs/get_product_response",
  errorResponse: "https://ucp.dev/schemas/shopping/types/error_response.json",
  cart: "https://ucp.dev/schemas/shopping/cart.json",
  order: "https://ucp.dev/schemas/shopping/order.json",
  profile: PROFILE_ID,
} as const;

/** A checkout response against checkout.json and every negotiated extension's checkout shape. */
export function validateCheckout(payload: unknown): string[] {
  const refs = [
    "https://ucp.dev/schemas/shopping/checkout.json",
    "https://ucp.dev/schemas/shopping/fulfillment.json#/$defs/dev.ucp.shopping.checkout",
    "https://ucp.dev/schemas/shopping/discount.json#/$defs/dev.ucp.shopping.checkout",
    "https://ucp.dev/schemas/shopping/buyer_consent.json#/$defs/dev.ucp.shopping.checkout",
  ];
  return refs.flatMap((ref) => validateOfficial(ref, payload).errors.map((e) => `${ref.split("/").pop()}: ${e}`));
}
