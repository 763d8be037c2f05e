/**
 * The merchant's commerce settings from the SHIPPING / TAX / DISCOUNTS vars, parsed once per
 * isolate. A store that sets none gets the demo settings; a store whose settings do not
 * parse refuses to price (a "store misconfigured" error naming the setting) rather than
 * pricing wrongly. `npm run check:config` runs the same parser before deploy.
 */
import { StoreMisconfigured } from "../lib/store-misconfigured";
import { type CommerceConfig, parseCommerceConfig } from "./commerce-config";
import { DEMO_COMMERCE_CONFIG } from "./demo-commerce-config";

// Per env object: the Worker and its Durable Objects each hold their own (one isolate locally).
const cached = new WeakMap<object, CommerceConfig>();

export function commerceConfig(env: { SHIPPING?: unknown; TAX?: unknown; DISCOUNTS?: unknown }): CommerceConfig {
  const hit = cached.get(env);
  if (hit) return hit;
  const configured = env.SHIPPING !== undefined || env.TAX !== undefined || env.DISCOUNTS !== undefined;
  const parsed = parseCommerceConfig(configured ? env : DEMO_COMMERCE_CONFIG);
  if (!parsed.ok) throw new StoreMisconfigured(parsed.problems);
  cached.set(env, parsed.config);
  return parsed.config;
}
