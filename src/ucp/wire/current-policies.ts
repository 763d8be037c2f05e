/**
 * 2026-08-25's core `policies[]` (spec-digest-2026-08-25 §3.5): added to the successful
 * answers of the tools whose 2026-08-25 schemas carry it, from the store's config. Absent
 * when the store has none (platforms then read `links[]`), and never on an error answer.
 * 2026-04-08 answers never get it: that wire is the identity.
 */
import { policiesFor } from "../policies";
import type { Json, WireContext } from "./tool-wire";

/** cart.json, checkout.json, catalog_search/lookup.json (search, lookup, get_product) and order.json. */
const POLICY_TOOLS: ReadonlySet<string> = new Set([
  "search_catalog",
  "lookup_catalog",
  "get_product",
  "create_cart",
  "get_cart",
  "update_cart",
  "cancel_cart",
  "create_checkout",
  "get_checkout",
  "update_checkout",
  "complete_checkout",
  "cancel_checkout",
  "get_order",
]);

/** Whether `tool`'s answers may carry policies at all (so the wire parses nothing it need not). */
export function takesPolicies(tool: string, context: WireContext): boolean {
  return POLICY_TOOLS.has(tool) && context.config.policies.length > 0;
}

export function withPolicies(tool: string, payload: Json, context: WireContext): Json {
  if (!takesPolicies(tool, context)) return payload;
  if ((payload.ucp as { status?: unknown } | undefined)?.status !== "success") return payload;
  return { ...payload, policies: policiesFor(context.config) };
}
