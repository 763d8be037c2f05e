/**
 * What a permalink's UCP field paths set on the cart it builds (permalink.md §UCP Fields,
 * §Merge Rules). Only fields a platform may send in a cart request are applied, within the
 * cart's own limits (schemas/ucp/cart.ts); everything else under a UCP root (totals, ids,
 * `line_items/*` against the compact path, payment, unknown paths) is consumed and dropped,
 * so server-owned state and payment credentials are never set from a URL. Pure.
 */
import type { PermalinkItem } from "./item-path";
import type { FieldPath } from "./query";

/** Applicable `buyer/*` and `context/*` fields with the cart's length limit of each. */
const BUYER_FIELDS: Readonly<Record<string, number>> = {
  email: 320,
  first_name: 200,
  last_name: 200,
  phone_number: 64,
};
const CONTEXT_FIELDS: Readonly<Record<string, number>> = {
  address_country: 64,
  address_region: 64,
  postal_code: 32,
  language: 35,
  currency: 3,
  intent: 2000,
};
const MAX_CODES = 10;
const INDEX = /^(0|[1-9][0-9]?)$/;
const ATTRIBUTION_NAME = /^[A-Za-z0-9_]{1,64}$/;

export interface ShoppingState {
  /** create_cart's `cart` argument. */
  readonly cart: Record<string, unknown>;
  /** `attribution/<name>` values, for the destination's analytics parameters (destination.ts). */
  readonly attribution: ReadonlyMap<string, string>;
}

export function shoppingState(items: readonly PermalinkItem[], fields: readonly FieldPath[]): ShoppingState {
  const buyer: Record<string, string> = {};
  const context: Record<string, string> = {};
  const codes: Array<[number, string]> = [];
  const attribution = new Map<string, string>();
  for (const { tokens, value } of fields) {
    if (!tokens || value === "") continue;
    const [root, field, index, ...rest] = tokens as [string, string?, string?, ...string[]];
    if (field === undefined) continue;
    const leaf = index === undefined;
    if (root === "buyer" && leaf && value.length <= (BUYER_FIELDS[field] ?? -1)) buyer[field] = value;
    else if (root === "context" && leaf && value.length <= (CONTEXT_FIELDS[field] ?? -1)) context[field] = value;
    else if (root === "discounts" && field === "codes" && index && rest.length === 0 && INDEX.test(index)) {
      if (Number(index) < MAX_CODES && value.length <= 64) codes.push([Number(index), value]);
    } else if (root === "attribution" && leaf && ATTRIBUTION_NAME.test(field)) attribution.set(field, value);
  }
  codes.sort((a, b) => a[0] - b[0]);
  const cart: Record<string, unknown> = {
    line_items: items.map((i) => ({ item: { id: i.id }, quantity: i.quantity })),
    ...(Object.keys(buyer).length > 0 ? { buyer } : {}),
    ...(Object.keys(context).length > 0 ? { context } : {}),
    ...(codes.length > 0 ? { discounts: { codes: codes.map(([, code]) => code) } } : {}),
    ...(attribution.size > 0 ? { attribution: Object.fromEntries(attribution) } : {}),
  };
  return { cart, attribution };
}
