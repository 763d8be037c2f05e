/**
 * 2026-08-25 catalog tools. The model's answers already have this version's shapes (product,
 * variant and message types moved files but kept their fields; the model emits no
 * `unit_price`, whose measure shape changed, and no `quantity_unit`: it sells `each`). What
 * 2026-08-25 adds is fulfillment on catalog, only when the extension is active for this
 * answer (`ucp.capabilities` lists it: our registry extends catalog with it at this version
 * only). Requests need no reading: the input schemas take `context.location`, `context.payment`
 * and the fulfillment filters, and the model ignores what it does not use.
 */
import { CAPABILITY } from "../capabilities";
import {
  excludesEverything,
  nothingFulfillable,
  type ShippingScope,
  shippingScope,
  withVariantFulfillment,
} from "./current-catalog-fulfillment";
import type { Json, ToolWire, WireContext } from "./tool-wire";

/** The scope when fulfillment is active for this successful answer, else undefined. */
function activeScope(payload: Json, context: WireContext): ShippingScope | undefined {
  const ucp = payload.ucp as { status?: unknown; capabilities?: Record<string, unknown> } | undefined;
  if (ucp?.status !== "success" || !ucp.capabilities?.[CAPABILITY.fulfillment]) return undefined;
  return shippingScope(context);
}

const messagesWith = (payload: Json, message: Json) => [...((payload.messages as Json[] | undefined) ?? []), message];

function products(payload: Json, context: WireContext, paginated: boolean): Json {
  const scope = activeScope(payload, context);
  if (!scope) return payload;
  if (excludesEverything(scope)) {
    return {
      ...payload,
      products: [],
      ...(paginated ? { pagination: { has_next_page: false, total_count: 0 } } : {}),
      messages: messagesWith(payload, nothingFulfillable(scope)),
    };
  }
  const list = Array.isArray(payload.products) ? payload.products : [];
  return { ...payload, products: list.map((p) => withVariantFulfillment(p, scope)) };
}

function product(payload: Json, context: WireContext): Json {
  const scope = activeScope(payload, context);
  return scope ? { ...payload, product: withVariantFulfillment(payload.product, scope) } : payload;
}

export const catalogWire: ToolWire = {
  requests: {},
  responses: {
    search_catalog: (payload, context) => products(payload, context, true),
    lookup_catalog: (payload, context) => products(payload, context, false),
    get_product: product,
  },
};
