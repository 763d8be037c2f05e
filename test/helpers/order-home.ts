/**
 * An order's object and calls in tests, wherever it lives (src/tools/order-stub.ts): since
 * issue 29 an order placed by a completion is in its checkout's object.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
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

/**
 * Runs a checkout's alarm until its aged session is gone (retention). The order's follow-up
 * may still be arming when the test ages the session, or the object's own alarm may already
 * have run at the past deadline: either way the session must end cleared.
 */
export async function sessionClearedByAlarm(checkout: DurableObjectStub): Promise<void> {
  await vi.waitUntil(
    async () => {
      await runDurableObjectAlarm(checkout);
      return runInDurableObject(
        checkout,
        (_o: unknown, state: DurableObjectState) =>
          state.storage.sql.exec("SELECT 1 FROM checkout").toArray().length === 0,
      );
    },
    { timeout: 5000, interval: 50 },
  );
}
