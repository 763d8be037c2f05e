/**
 * 2026-08-25 order tools. Nothing to rewrite: the model's order already has this version's
 * shape (quantities are step counts of `each`, expectations keep their string description,
 * method types were an enum and are now open). `policies[]` comes from current-policies.ts.
 * Order webhooks go through this same get_order wire when their platform speaks this version
 * (src/order/webhook-version.ts).
 */
import type { ToolWire } from "./tool-wire";

export const orderWire: ToolWire = {
  requests: {},
  responses: {},
};
