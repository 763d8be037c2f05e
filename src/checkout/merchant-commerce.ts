/**
 * The merchant's commerce settings from the SHIPPING / TAX / DISCOUNTS vars, parsed once per
 * isolate. A store that sets none gets the demo settings; a store whose settings do not
 * parse refuses to price (a "store misconfigured" error naming the setting) rather than
 * pricing wrongly. `npm run check:config` runs the same parser before deploy.
 */
import { StoreMisconfigured } from "../lib/store-misconfigured";
import { type CommerceConfig, parseCommerceConfig } from "./commerce-config";
import { DEMO_COMMERCE_CONFIG } from "./demo-commerce-config";

let cached: { env: object; config: CommerceConfig } | undefined;

export function commerceConfig(env: { SHIPPING?: unknown; TAX?: unknown; DISCOUNTS?: unknown }): CommerceConfig {
  if (cached?.env === env) return cached.config;
  const configured = env.SHIPPING !== undefined || env.TAX !== undefined || env.DISCOUNTS !== undefined;
  const parsed = parseCommerceConfig(configured ? env : DEMO_COMMERCE_CONFIG);
  if (!parsed.ok) throw new StoreMisconfigured(parsed.problems);
  cached = { env, config: parsed.config };
  return parsed.config;
}
