/**
 * `POST /payments/stripe/webhook`: Stripe's events about the store's payments (docs/payments.md
 * "Stripe webhooks"). The signature is checked by the official SDK over WebCrypto (tolerance
 * 300 s, Stripe's default), then the event becomes a fact for the object it concerns:
 *
 * - a refund made in Stripe's dashboard or a dispute → the order's adjustment, once (the order
 *   object keys it by the event id in its ledger and by the refund's or dispute's id in the
 *   order); the store's own refunds are recognised by their metadata and not added again;
 * - a payment that finished after the buyer's action (3-D Secure) → the checkout's pending
 *   verification, through the same path as the buyer's answer on the challenge page.
 *
 * Answers: 404 while STRIPE_WEBHOOK_SECRET is unset (the route does not exist), 400 for a
 * missing, forged or stale signature, 200 once handled, ignored or for an object this store
 * does not know (Stripe must not retry those forever), 500 only when the store could not
 * act just now (an object unavailable), which Stripe retries. The body is never logged.
 */
import Stripe from "stripe";
import type { CheckoutObject } from "../../durable-objects/checkout-object";
import type { VerificationView } from "../../durable-objects/checkout-verification";
import type { Caller } from "../../durable-objects/shared/owner";
import { type MerchantConfig, merchantConfig } from "../config";
import { canonicalJson, sha256Hex } from "../lib/canonical-json";
import { jsonResponse } from "../lib/http";
import { isIssuedId, orderHome } from "../lib/ids";
import type { RequestFacts } from "../lib/log";
import { readCapped } from "../lib/read-capped";
import { ORDER_ONLY_ENVELOPE } from "../order/merchant-envelope";
import { type EventTarget, readStripeEvent, refundChange, type StripeEventFacts } from "../payment/stripe-events";
import { ledgerEntry } from "../tools/object-reply";
import { orderStub } from "../tools/order-stub";
import { type PaymentIntentLookup, stripeLookup } from "./stripe-lookup";

export const STRIPE_WEBHOOK_PATH = "/payments/stripe/webhook";

/** Stripe's events are a few KiB; a charge with many refunds stays far below this. */
const BODY_LIMIT = 512 * 1024;
/** WebCrypto HMAC-SHA256, as Workers have it (the SDK's Node crypto is not there). */
const CRYPTO = Stripe.createSubtleCryptoProvider();

export interface WebhookPorts {
  /** Finds a PaymentIntent's checkout; default: asks Stripe (stripe-lookup.ts). */
  readonly lookup?: PaymentIntentLookup;
}

type Outcome = { readonly outcome: string; readonly [fact: string]: string | number | boolean | undefined };

function log(facts: Outcome): void {
  console.log(JSON.stringify({ log: "stripe_webhook", ...facts }));
}

export async function stripeWebhook(
  request: Request,
  env: Env,
  facts: RequestFacts = {},
  ports: WebhookPorts = {},
): Promise<Response> {
  facts.tool = "stripe_webhook";
  const config = merchantConfig(env);
  const secret = config.stripe?.webhookSecret;
  if (!secret) return jsonResponse({ error: "not_found", message: `No route for ${STRIPE_WEBHOOK_PATH}` }, 404);
  if (request.method !== "POST")
    return jsonResponse({ error: "method_not_allowed", message: "Stripe posts events here" }, 405, { allow: "POST" });
  const signature = request.headers.get("stripe-signature");
  if (!signature) return refused(facts, "missing Stripe-Signature header");
  const body = await readCapped(request, BODY_LIMIT);
  if (body === undefined) return refused(facts, `body over ${BODY_LIMIT} bytes`, 413);
  let event: unknown;
  try {
    event = await Stripe.webhooks.constructEventAsync(body, signature, secret, undefined, CRYPTO);
  } catch (e) {
    return refused(facts, refusal(e));
  }
  const read = readStripeEvent(event);
  if (!read) {
    log({ outcome: "ignored", reason: "signed, but not an event" });
    return received(facts, "ignored");
  }
  const base = { event_id: read.id, event_type: read.type };
  if (read.plan.kind === "ignored") {
    log({ outcome: "ignored", ...base, reason: read.plan.reason });
    return received(facts, "ignored");
  }
  try {
    const result = await handle(read, env, config, ports.lookup ?? stripeLookup(config.stripe));
    log({ ...base, ...result });
    return received(facts, result.outcome);
  } catch (e) {
    // The store could not act just now (an object or Stripe unreachable): Stripe redelivers.
    log({ outcome: "failed", ...base, error: e instanceof Error ? e.message.slice(0, 200) : "unknown" });
    facts.outcome = "internal_error";
    return jsonResponse({ error: "unavailable", message: "The event could not be recorded now; retry later." }, 500);
  }
}

/** The SDK's failure in a few words (its messages name the failure, never the body, but run long). */
function refusal(e: unknown): string {
  const message = e instanceof Error ? e.message : "";
  if (/tolerance/i.test(message)) return "timestamp outside the tolerance (300 s): stale or replayed";
  if (/No signatures found matching/i.test(message)) return "no signature matches the body and secret";
  if (/extract timestamp|expected scheme/i.test(message)) return "malformed Stripe-Signature header";
  return message.slice(0, 80) || "signature check failed";
}

function refused(facts: RequestFacts, reason: string, status = 400): Response {
  log({ outcome: "refused", reason });
  facts.outcome = "refused";
  return jsonResponse(
    { error: "invalid_signature", message: "The Stripe-Signature header does not verify this event." },
    status,
  );
}

function received(facts: RequestFacts, outcome: string): Response {
  facts.outcome = outcome;
  return jsonResponse({ received: true });
}

/** The storefront's own caller, as the buyer's pages act (shared/owner.ts): admitted on any session. */
const storeCaller = (config: MerchantConfig): Caller => ({
  profile: `${config.origin}/`,
  authenticated: false,
  handoff: true,
});

async function handle(
  read: StripeEventFacts,
  env: Env,
  config: MerchantConfig,
  lookup: PaymentIntentLookup | undefined,
): Promise<Outcome> {
  const { plan } = read;
  if (plan.kind === "ignored") return { outcome: "ignored", reason: plan.reason };
  if (plan.kind === "payment") {
    // The event's object is the PaymentIntent itself: its metadata is all there is to ask.
    const checkoutId = await issued("chk", plan.target.checkoutId, config);
    if (!checkoutId) return unknown(plan.target, "no checkout in the PaymentIntent's metadata");
    return verifyPayment(read, checkoutId, plan.passed, env, config);
  }
  const checkoutId = await checkoutOf(plan.target, config, lookup);
  let orderId = (await issued("ord", plan.target.orderId, config)) ?? (await orderOf(checkoutId, env, config));
  let changes = plan.changes;
  if (plan.refundsOfCharge) {
    // charge.refunded names no refund in current API versions: each refund of the charge is
    // recorded by its own id, so one already recorded (by refund.created) changes nothing.
    const listed = (await lookup?.refundsOf?.(plan.refundsOfCharge)) ?? [];
    const refunds = listed.map(refundChange).filter((r) => r !== undefined);
    changes = refunds.map((r) => r.change);
    orderId ??= await issued("ord", refunds.find((r) => r.target.orderId)?.target.orderId, config);
  }
  if (!orderId) return unknown(plan.target, "no order for this payment");
  if (changes.length === 0) return { outcome: "ignored", order_id: orderId, reason: "no refunds on the charge" };
  const idempotency = {
    key: `stripe-event:${read.id}`,
    hash: await sha256Hex(canonicalJson({ op: "stripe-event", id: orderId, payload: read.id })),
  };
  const order = await orderStub(env, config.idSecret, orderId);
  if (!order) return unknown(plan.target, "no order for this payment");
  const reply = await order.recordProcessorEvent({
    input: {
      eventId: read.id,
      eventType: read.type,
      occurredAt: read.created,
      ...(plan.target.paymentIntentId ? { chargeId: plan.target.paymentIntentId } : {}),
      changes,
    },
    idempotency,
    envelope: ORDER_ONLY_ENVELOPE,
  });
  if (reply.kind === "ok") return { outcome: "recorded", order_id: orderId };
  if (reply.kind === "invalid")
    return { outcome: "unknown_object", order_id: orderId, reason: "not this order's charge" };
  return { outcome: "unknown_object", order_id: orderId, reason: reply.kind };
}

function unknown(target: EventTarget, reason: string): Outcome {
  return {
    outcome: "unknown_object",
    reason,
    ...(target.paymentIntentId ? { payment_intent: target.paymentIntentId } : {}),
  };
}

/** A store id the metadata names, if it is one this store issued (a forged or foreign one is not). */
async function issued(prefix: "ord" | "chk", id: string | undefined, config: MerchantConfig) {
  if (!id) return undefined;
  const valid =
    prefix === "ord"
      ? (await orderHome(config.idSecret, id)) !== undefined
      : await isIssuedId(prefix, config.idSecret, id);
  return valid ? id : undefined;
}

/** The checkout: named by the object's metadata, else by its PaymentIntent's (asked of Stripe). */
async function checkoutOf(target: EventTarget, config: MerchantConfig, lookup: PaymentIntentLookup | undefined) {
  const named = await issued("chk", target.checkoutId, config);
  if (named || target.orderId || !target.paymentIntentId || !lookup) return named;
  return issued("chk", await lookup.checkoutOf(target.paymentIntentId), config);
}

async function orderOf(checkoutId: string | undefined, env: Env, config: MerchantConfig) {
  if (!checkoutId) return undefined;
  const view = await checkoutView(env, config, checkoutId);
  return view?.checkout.order?.id;
}

async function checkoutView(env: Env, config: MerchantConfig, checkoutId: string) {
  const reply = await checkoutStub(env, checkoutId).verification(storeCaller(config));
  return reply.kind === "ok" ? (JSON.parse(reply.body) as VerificationView) : undefined;
}

/**
 * The bank's answer to the buyer's 3-D Secure, as the challenge page gives the buyer's: only a
 * verification still pending changes (passed: the completion goes on; failed: the checkout is
 * open with payment_failed). Keyed by the event id in the checkout's ledger.
 */
async function verifyPayment(
  read: StripeEventFacts,
  checkoutId: string,
  passed: boolean,
  env: Env,
  config: MerchantConfig,
): Promise<Outcome> {
  const view = await checkoutView(env, config, checkoutId);
  if (!view) return { outcome: "unknown_object", checkout_id: checkoutId, reason: "no such checkout" };
  if (view.verification?.status !== "pending")
    return { outcome: "no_change", checkout_id: checkoutId, reason: "no verification pending" };
  const idempotency = await ledgerEntry("verify_payment", `stripe:${read.id}`, checkoutId, { passed }, config.idSecret);
  const reply = await checkoutStub(env, checkoutId).verify({ caller: storeCaller(config), idempotency, passed });
  return { outcome: reply.kind === "ok" ? "verification_answered" : reply.kind, checkout_id: checkoutId, passed };
}

const checkoutStub = (env: Env, id: string) => env.CHECKOUT.getByName(id) as DurableObjectStub<CheckoutObject>;
