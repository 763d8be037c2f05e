/** The tool registry. Only tools of capabilities in BUSINESS_CAPABILITIES are listed here. */
import { cancelCart, createCart, getCart, updateCart } from "./cart.tools";
import { getProduct, lookupCatalog, searchCatalog } from "./catalog.tools";
import { cancelCheckout, completeCheckout, createCheckout, getCheckout, updateCheckout } from "./checkout.tools";
import { getOrder } from "./order.tools";
import type { ToolDefinition } from "./types";

export const TOOLS: ReadonlyMap<string, ToolDefinition> = new Map(
  [
    searchCatalog,
    lookupCatalog,
    getProduct,
    createCart,
    getCart,
    updateCart,
    cancelCart,
    createCheckout,
    getCheckout,
    updateCheckout,
    completeCheckout,
    cancelCheckout,
    getOrder,
  ].map((tool) => [tool.name, tool]),
);
