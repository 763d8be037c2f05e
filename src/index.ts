/**
 * Worker entry: every request that is not a static asset goes through the router and leaves
 * one structured log line (src/lib/log.ts, docs/operations.md).
 */
import { nextIoTurn } from "./lib/io-turn";
import { logRequest, logUnhandled, startRequestLog } from "./lib/log";
import { route, unhandledAnswer } from "./router";

export { CartObject } from "../durable-objects/cart-object";
export { CatalogLoadObject } from "../durable-objects/catalog-load-object";
export { CheckoutObject } from "../durable-objects/checkout-object";
export { ConsoleSessionObject } from "../durable-objects/console-session-object";
export { InventoryObject } from "../durable-objects/inventory-object";
export { OrderIndexObject } from "../durable-objects/order-index-object";
export { OrderObject } from "../durable-objects/order-object";

export default {
  async fetch(request, env): Promise<Response> {
    // Fair turns under load: src/lib/io-turn.ts.
    await nextIoTurn();
    const log = startRequestLog(request);
    let response: Response;
    try {
      response = await route(request, env, log.facts);
    } catch (e) {
      logUnhandled(e);
      log.facts.outcome = "internal_error";
      response = unhandledAnswer(request, env);
    }
    logRequest(request, log, response.status);
    return response;
  },
} satisfies ExportedHandler<Env>;
