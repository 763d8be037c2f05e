/**
 * 2026-08-25 (spec-digest-2026-08-25 §1.7, the render-by-version matrix): requests are read
 * into the model, and the model's payloads are rewritten into this version's shapes. Each
 * capability's rewrites live in a file of their own (current-*.ts); this one assembles them.
 */
import { RawJson } from "../../lib/raw-json";
import { ok } from "../../lib/result";
import { productNotFound } from "../product-not-found";
import { CURRENT_VERSION } from "../versions";
import { cartWire } from "./current-cart";
import { catalogWire } from "./current-catalog";
import { checkoutWire } from "./current-checkout";
import { orderWire } from "./current-order";
import { takesPolicies, withPolicies } from "./current-policies";
import type { WireVersion } from "./index";
import type { Json, ToolWire } from "./tool-wire";

const PARTS: readonly ToolWire[] = [catalogWire, cartWire, checkoutWire, orderWire];
const REQUESTS = Object.assign({}, ...PARTS.map((p) => p.requests)) as ToolWire["requests"];
const RESPONSES = Object.assign({}, ...PARTS.map((p) => p.responses)) as ToolWire["responses"];

export const current: WireVersion = {
  version: CURRENT_VERSION,
  request(tool, args, context) {
    const read = REQUESTS[tool];
    return read ? read(args, context) : ok(args);
  },
  response(tool, payload, context) {
    const rewrite = RESPONSES[tool];
    if (!rewrite && !takesPolicies(tool, context)) return payload;
    const value = payload instanceof RawJson ? (JSON.parse(payload.text) as Json) : { ...payload };
    return withPolicies(tool, rewrite ? rewrite(value, context) : value, context);
  },
  // An unknown product is an application outcome at this version on MCP too (catalog/mcp.md).
  error: (tool, error) => productNotFound(error, tool),
};
