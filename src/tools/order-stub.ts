/**
 * The object an order lives in, from its id alone (src/lib/ids.ts orderHome): the object of
 * the checkout session that placed it (orders since issue 29), or an OrderObject of its own
 * (every order before). Both answer the same calls; nothing is touched for an id the store
 * never issued.
 */
import type { CheckoutObject } from "../../durable-objects/checkout-object";
import type { OrderObject } from "../../durable-objects/order-object";
import { orderHome } from "../lib/ids";

type OrderCall =
  | "read"
  | "confirmationEmail"
  | "indexState"
  | "recordEvent"
  | "recordAdjustment"
  | "recordProcessorEvent"
  | "webhooks"
  | "merchantView"
  | "retryWebhooks"
  | "outbox";

/** What a caller may ask of an order, wherever it is stored. */
export type OrderStub = Pick<DurableObjectStub<OrderObject>, OrderCall>;

/**
 * The order's calls, or undefined for an id this store never issued. Each call makes a new
 * stub, so a caller's retry (callObject) never goes through one that threw.
 */
export async function orderStub(env: Env, secret: string, orderId: string): Promise<OrderStub | undefined> {
  const home = await orderHome(secret, orderId);
  if (home === undefined) return undefined;
  if (home === "own") return ownObject(() => env.ORDER.getByName(orderId) as DurableObjectStub<OrderObject>);
  return inCheckout(() => env.CHECKOUT.getByName(home.checkout) as DurableObjectStub<CheckoutObject>);
}

function ownObject(stub: () => DurableObjectStub<OrderObject>): OrderStub {
  return {
    read: (owner, envelope, handoff) => stub().read(owner, envelope, handoff),
    confirmationEmail: () => stub().confirmationEmail(),
    indexState: () => stub().indexState(),
    recordEvent: (change) => stub().recordEvent(change),
    recordAdjustment: (change) => stub().recordAdjustment(change),
    recordProcessorEvent: (change) => stub().recordProcessorEvent(change),
    webhooks: () => stub().webhooks(),
    merchantView: (envelope) => stub().merchantView(envelope),
    retryWebhooks: () => stub().retryWebhooks(),
    outbox: () => stub().outbox(),
  };
}

function inCheckout(stub: () => DurableObjectStub<CheckoutObject>): OrderStub {
  return {
    read: (owner, envelope, handoff) => stub().orderRead(owner, envelope, handoff),
    confirmationEmail: () => stub().orderConfirmationEmail(),
    indexState: () => stub().orderIndexState(),
    recordEvent: (change) => stub().orderRecordEvent(change),
    recordAdjustment: (change) => stub().orderRecordAdjustment(change),
    recordProcessorEvent: (change) => stub().orderRecordProcessorEvent(change),
    webhooks: () => stub().orderWebhooks(),
    merchantView: (envelope) => stub().orderMerchantView(envelope),
    retryWebhooks: () => stub().orderRetryWebhooks(),
    outbox: () => stub().orderOutbox(),
  };
}
