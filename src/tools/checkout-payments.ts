/**
 * What the store's payment mode (src/payment/store-processor.ts) changes in checkout answers:
 * the test-mode note on every checkout, and complete_checkout's answer when no processor is
 * live. Both are added on the way out, never stored: switching the mode changes every later
 * answer, replays included.
 */
import type { CheckoutObject, CheckoutView } from "../../durable-objects/checkout-object";
import type { ObjectReply } from "../../durable-objects/shared/object-reply";
import type { MerchantConfig } from "../config";
import { PAYMENTS_NOT_CONFIGURED, TEST_MODE_NOTE } from "../payment/store-processor";

interface CheckoutBody {
  status: string;
  messages?: unknown[];
  [key: string]: unknown;
}

/** The object's reply, with the test-mode note when the store is in test mode. */
export async function withPaymentMode(
  config: Pick<MerchantConfig, "paymentTestMode">,
  call: () => Promise<ObjectReply>,
): Promise<ObjectReply> {
  const reply = await call();
  if (!config.paymentTestMode || reply.kind !== "ok") return reply;
  return edit(reply.body, (checkout) => ({ ...checkout, messages: [...(checkout.messages ?? []), TEST_MODE_NOTE] }));
}

/**
 * complete_checkout without a live processor: the checkout as it is, escalated to the buyer
 * (UCP: a requires_* error means requires_escalation), with why. Nothing is reserved, charged
 * or placed, and the session itself is unchanged. A closed session is shown as it is.
 */
export async function paymentsNotConfigured(
  object: DurableObjectStub<CheckoutObject>,
  view: CheckoutView,
): Promise<ObjectReply> {
  const reply = await object.read(view);
  if (reply.kind !== "ok") return reply;
  return edit(reply.body, (checkout) =>
    checkout.status === "completed" || checkout.status === "canceled"
      ? checkout
      : {
          ...checkout,
          status: "requires_escalation",
          messages: [...(checkout.messages ?? []), PAYMENTS_NOT_CONFIGURED],
        },
  );
}

function edit(body: string, change: (checkout: CheckoutBody) => CheckoutBody): ObjectReply {
  return { kind: "ok", body: JSON.stringify(change(JSON.parse(body) as CheckoutBody)) };
}
