/**
 * 2026-08-25 cart tools. Nothing to rewrite: the model's cart already has this version's
 * shape (cart.json moved its types to common/ and added only optional members). Lines never
 * carry `quantity_unit` or `unit_price`: everything here is sold and priced `each`, which
 * absence encodes. `policies[]` is added for every tool by current-policies.ts; `actions` has
 * nothing to say (no extension this store offers on carts declares an Action). Requests need
 * no reading either: `update_cart` without `cart.id` and the optional `context.location` /
 * `context.payment` pass the version-neutral input schema, and an asserted
 * `item.quantity_unit` is checked where lines are priced (src/cart/quantity-unit.ts).
 */
import type { ToolWire } from "./tool-wire";

export const cartWire: ToolWire = {
  requests: {},
  responses: {},
};
