/** Worker entry: every request that is not a static asset goes through the router. */
import { jsonResponse } from "./lib/http";
import { route } from "./router";

export { CartObject } from "../durable-objects/cart-object";
export { CheckoutObject } from "../durable-objects/checkout-object";
export { InventoryObject } from "../durable-objects/inventory-object";
export { OrderObject } from "../durable-objects/order-object";

export default {
  async fetch(request, env): Promise<Response> {
    try {
      return await route(request, env);
    } catch (e) {
      console.error("unhandled", e instanceof Error ? e.stack : e);
      return jsonResponse({ error: "internal_error", message: "Internal error" }, 500);
    }
  },
} satisfies ExportedHandler<Env>;
