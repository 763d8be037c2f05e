/**
 * The merchant's commerce settings from the SHIPPING / TAX / DISCOUNTS vars, parsed once per
 * isolate. A store that sets none gets the demo settings; a store whose settings do not
 * parse fails loudly (every checkout call is a -32603) rather than pricing wrongly.
 */
import { type CommerceConfig, parseCommerceConfig } from "./commerce-config";
import { DEMO_COMMERCE_CONFIG } from "./demo-commerce-config";

let cached: { env: object; config: CommerceConfig } | undefined;

export function commerceConfig(env: { SHIPPING?: unknown; TAX?: unknown; DISCOUNTS?: unknown }): CommerceConfig {
  if (cached?.env === env) return cached.config;
  const configured = env.SHIPPING !== undefined || env.TAX !== undefined || env.DISCOUNTS !== undefined;
  const parsed = parseCommerceConfig(configured ? env : DEMO_COMMERCE_CONFIG);
  if (!parsed.ok) throw new Error(`invalid commerce config: ${parsed.problems.join("; ")}`);
  cached = { env, config: parsed.config };
  return parsed.config;
}
