/**
 * An order's object and calls in tests, wherever it lives (src/tools/order-stub.ts): since
 * issue 29 an order placed by a completion is in its checkout's object.
 */
import { env } from "cloudflare:workers";
import type { OrderObject } from "../../durable-objects/order-object";
import { orderHome } from "../../src/lib/ids";
import { type OrderStub, orderStub as stubOf } from "../../src/tools/order-stub";

const secret = () => (env as unknown as { ID_SIGNING_KEY: string }).ID_SIGNING_KEY;

/**
 * The Durable Object the order lives in (for runInDurableObject and runDurableObjectAlarm):
 * typed as an OrderObject, which it is for orders placed before issue 29; since, it is the
 * checkout's object, which holds the same tables and runs the order's alarm in its own.
 */
export async function orderObject(orderId: string): Promise<DurableObjectStub<OrderObject>> {
  const home = await orderHome(secret(), orderId);
  if (home === undefined) throw new Error(`not an order id this store issued: ${orderId}`);
  const object = home === "own" ? env.ORDER.getByName(orderId) : env.CHECKOUT.getByName(home.checkout);
  return object as DurableObjectStub<OrderObject>;
}

/** The order's calls (read, webhooks, outbox, …), resolved on first use: callable without an await first. */
export function orderStub(orderId: string): OrderStub {
  const at = stubOf(env, secret(), orderId).then((stub) => {
    if (!stub) throw new Error(`not an order id this store issued: ${orderId}`);
    return stub;
  });
  return new Proxy({} as OrderStub, {
    get:
      (_target, name) =>
      async (...args: unknown[]) =>
        ((await at) as unknown as Record<string | symbol, (...a: unknown[]) => unknown>)[name]?.(...args),
  });
}
