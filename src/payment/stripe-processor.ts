/**
 * The Stripe processor (docs/payments.md "Connect Stripe"), behind the PaymentProcessor seam.
 *
 * - charge: one PaymentIntent per completion attempt, created and confirmed in one call under
 *   `Idempotency-Key` = the attempt id, so a crash and retry (any client key, the alarm)
 *   replays Stripe's first answer instead of charging again. Metadata names the checkout and
 *   the attempt (ucp_checkout_id, ucp_attempt): webhooks and void find it by them.
 * - 3-D Secure: `requires_action` is answered with the PaymentIntent's id as the
 *   authentication id; the retry that carries it (the buyer verified on the store's page
 *   through Stripe.js) takes over that same PaymentIntent, confirming it if Stripe still
 *   waits for a confirmation, and never creates a second one.
 * - the checkout page's card form: the buyer authorized a PaymentIntent with Stripe.js
 *   (stripe-page-intent.ts); the completion's credential names it and charge adopts it after
 *   checking it is this checkout's and for this total, and captures it (per STRIPE_CAPTURE).
 *   No second PaymentIntent.
 * - refund: a Stripe refund keyed by the order's refund key; an authorization not captured
 *   yet (manual capture) is cancelled instead. void: the attempt's PaymentIntent, found by its
 *   metadata, is cancelled, or refunded when it was captured.
 * Nothing here logs a credential, the secret key, or Stripe's messages: codes only.
 */
import type Stripe from "stripe";
import type { StripeSettings } from "../config/stripe";
import type { ChargeOutcome, ChargeRequest, PaymentProcessor } from "./processor";
import { stripeClient } from "./stripe-client";
import { stripePaymentMethod } from "./stripe-credentials";
import { GOOGLE_PAY_HANDLER_ID, STRIPE_HANDLER_ID, stripeHandlers } from "./stripe-handlers";
import { declineOf, logStripeError, outcomeOf, stripeFailure } from "./stripe-outcomes";

const processors = new WeakMap<StripeSettings, PaymentProcessor>();

export function stripeProcessor(settings: StripeSettings): PaymentProcessor {
  const known = processors.get(settings);
  if (known) return known;
  const stripe = () => stripeClient(settings);
  const processor: PaymentProcessor = {
    handlers: (origin) => stripeHandlers(settings, origin),
    charge: (request) => charge(stripe(), settings, request),
    refund: (chargeId, amount, key, context) => refund(stripe(), chargeId, amount, key, context?.orderId),
    capture: (chargeId, amount, key) => capture(stripe(), chargeId, amount, key),
    void: (key) => voidAttempt(stripe(), key),
    retryCredential(handlerId) {
      // The PaymentIntent the buyer verified is the credential now (charge resumes it by id): no card data.
      return handlerId === GOOGLE_PAY_HANDLER_ID || handlerId === STRIPE_HANDLER_ID
        ? { type: "stripe_payment_intent" }
        : undefined;
    },
  };
  processors.set(settings, processor);
  return processor;
}

async function charge(stripe: Stripe, settings: StripeSettings, request: ChargeRequest): Promise<ChargeOutcome> {
  const verified = request.authentication?.id;
  if (verified?.startsWith("pi_")) return resume(stripe, request, verified);
  const paidOnPage = pageIntentOf(request.credential);
  if (paidOnPage) return adoptPageIntent(stripe, settings, request, paidOnPage);
  const method = stripePaymentMethod(request.handlerId, request.credential);
  if (!method.ok) return { kind: "declined", reason: method.reason };
  const params = {
    amount: request.amount,
    currency: request.currency.toLowerCase(),
    confirm: true,
    capture_method: settings.capture,
    // Cards only need Stripe.js for 3-D Secure; no method that leaves for another site (no return_url).
    automatic_payment_methods: { enabled: true, allow_redirects: "never" },
    metadata: attemptMetadata(request),
    ...method.value,
  } as Stripe.PaymentIntentCreateParams;
  try {
    return outcomeOf(await stripe.paymentIntents.create(params, { idempotencyKey: request.idempotencyKey }));
  } catch (e) {
    return chargeError("charge", request.idempotencyKey, e);
  }
}

/** A charge's failure: Stripe's decline is a decline; anything else is thrown. */
function chargeError(what: string, key: string, e: unknown): ChargeOutcome {
  logStripeError(what, key, e);
  const declined = declineOf(e);
  if (declined) return declined;
  // Unknown (network, Stripe down, rate limit): the attempt stays, its key makes a retry safe.
  throw stripeFailure("charge", e);
}

function attemptMetadata(request: ChargeRequest): Record<string, string> {
  return {
    ...(request.checkoutId ? { ucp_checkout_id: request.checkoutId } : {}),
    ucp_attempt: request.idempotencyKey,
  };
}

/** A PaymentIntent re-tagged with the attempt charging it now: void and recovery look it up by `ucp_attempt`. */
async function tagWithAttempt(
  stripe: Stripe,
  intent: Stripe.Response<Stripe.PaymentIntent>,
  key: string,
): Promise<Stripe.Response<Stripe.PaymentIntent>> {
  if (intent.metadata?.ucp_attempt === key) return intent;
  return stripe.paymentIntents.update(
    intent.id,
    { metadata: { ucp_attempt: key } },
    { idempotencyKey: `${key}:adopt` },
  );
}

/**
 * The retry after the buyer verified: the PaymentIntent the first charge made, only if it is
 * this checkout's and this amount's. It is re-tagged with the attempt charging it now (void
 * and recovery look it up by that), then confirmed if Stripe still waits for that.
 */
async function resume(stripe: Stripe, request: ChargeRequest, intentId: string): Promise<ChargeOutcome> {
  const key = request.idempotencyKey;
  try {
    let intent = await stripe.paymentIntents.retrieve(intentId);
    const ours =
      intent.metadata?.ucp_checkout_id === request.checkoutId &&
      intent.amount === request.amount &&
      intent.currency === request.currency.toLowerCase();
    if (!ours) {
      console.error(`stripe: charge ${key}: the verified PaymentIntent is not this checkout's charge; not used`);
      return { kind: "declined", reason: "The verified payment does not match this checkout. Pay again." };
    }
    intent = await tagWithAttempt(stripe, intent, key);
    if (intent.status === "requires_confirmation")
      intent = await stripe.paymentIntents.confirm(intentId, {}, { idempotencyKey: `${key}:confirm` });
    return outcomeOf(intent);
  } catch (e) {
    return chargeError("charge (verified)", key, e);
  }
}

/** `{type: "stripe_payment_intent", payment_intent: "pi_…"}`: the checkout page's Payment Element paid it. */
function pageIntentOf(credential: ChargeRequest["credential"]): string | undefined {
  if (credential.type !== "stripe_payment_intent") return undefined;
  const id = credential.payment_intent;
  return typeof id === "string" && /^pi_[A-Za-z0-9_]+$/.test(id) ? id : undefined;
}

/**
 * A PaymentIntent the buyer confirmed on the checkout page (stripe-page-intent.ts): never a
 * new charge. The page only authorizes (manual capture), so no money is taken for a checkout
 * that ends without an order. Accepted only when it is this checkout's (metadata
 * ucp_checkout_id), for this total and currency, and authorized; it is re-tagged with the
 * attempt (void and recovery find it by that) and captured now, unless the store captures at
 * shipment. An authorization for another total (the checkout changed meanwhile) is released.
 * Anything else is a decline that charges nothing: the buyer pays again on the page.
 */
async function adoptPageIntent(
  stripe: Stripe,
  settings: StripeSettings,
  request: ChargeRequest,
  intentId: string,
): Promise<ChargeOutcome> {
  const key = request.idempotencyKey;
  try {
    let intent = await stripe.paymentIntents.retrieve(intentId);
    if (request.checkoutId === undefined || intent.metadata?.ucp_checkout_id !== request.checkoutId) {
      console.error(`stripe: charge ${key}: the page's PaymentIntent is not this checkout's; not used`);
      return { kind: "declined", reason: "The card payment is not this checkout's. Pay again." };
    }
    if (intent.amount !== request.amount || intent.currency !== request.currency.toLowerCase()) {
      if (intent.status === "requires_capture")
        await stripe.paymentIntents.cancel(
          intentId,
          { cancellation_reason: "abandoned" },
          { idempotencyKey: `${key}:release` },
        );
      console.error(`stripe: charge ${key}: the page's PaymentIntent is for another total; released, not used`);
      return {
        kind: "declined",
        reason:
          "The checkout's total changed after the card was authorized; that authorization was released. Pay again.",
      };
    }
    if (intent.status !== "succeeded" && intent.status !== "requires_capture")
      return { kind: "declined", reason: "The card payment was not completed. Pay again." };
    intent = await tagWithAttempt(stripe, intent, key);
    if (intent.status === "requires_capture" && settings.capture === "automatic")
      intent = await stripe.paymentIntents.capture(
        intentId,
        { amount_to_capture: request.amount },
        { idempotencyKey: `${key}:capture` },
      );
    return outcomeOf(intent);
  } catch (e) {
    return chargeError("charge (page)", key, e);
  }
}

async function refund(
  stripe: Stripe,
  chargeId: string,
  amount: number,
  key: string,
  orderId: string | undefined,
): Promise<{ ok: boolean }> {
  if (!chargeId.startsWith("pi_")) {
    // A test-mode order's charge (ch_test_…): Stripe never saw it; left pending, as with no processor.
    console.error(`stripe: refund ${key}: charge is not a Stripe PaymentIntent; left pending`);
    return { ok: false };
  }
  try {
    const intent = await stripe.paymentIntents.retrieve(chargeId);
    if (intent.status === "requires_capture") {
      // Not taken yet (capture at shipment): releasing the authorization gives it all back.
      if (amount < intent.amount_capturable) {
        console.error(`stripe: refund ${key}: part of an authorization not captured yet; capture first`);
        return { ok: false };
      }
      await stripe.paymentIntents.cancel(
        chargeId,
        { cancellation_reason: "requested_by_customer" },
        { idempotencyKey: key },
      );
      return { ok: true };
    }
    if (intent.status === "canceled") return { ok: true };
    await stripe.refunds.create(
      {
        payment_intent: chargeId,
        amount,
        metadata: { ...(orderId ? { ucp_order_id: orderId } : {}), ucp_refund: key },
      },
      { idempotencyKey: key },
    );
    return { ok: true };
  } catch (e) {
    logStripeError("refund", key, e);
    return { ok: false };
  }
}

async function capture(stripe: Stripe, chargeId: string, amount: number, key: string): Promise<{ ok: boolean }> {
  try {
    const intent = await stripe.paymentIntents.capture(
      chargeId,
      { amount_to_capture: amount },
      { idempotencyKey: key },
    );
    return { ok: intent.status === "succeeded" };
  } catch (e) {
    logStripeError("capture", key, e);
    // Taken already (an earlier try whose answer was lost, past Stripe's 24 h key replay):
    // Stripe refuses a second capture, and nothing more is owed.
    try {
      return { ok: (await stripe.paymentIntents.retrieve(chargeId)).status === "succeeded" };
    } catch (again) {
      logStripeError("capture (check)", key, again);
      return { ok: false };
    }
  }
}

/**
 * An abandoned attempt: whatever PaymentIntent it made (found by metadata; the alarm runs
 * minutes after the attempt started, past the search index's delay) is cancelled, or refunded
 * when already captured. ok once nothing is held; a processing one waits for the next try.
 */
async function voidAttempt(stripe: Stripe, key: string): Promise<{ ok: boolean }> {
  try {
    const query = `metadata['ucp_attempt']:'${key.replace(/['\\]/g, "\\$&")}'`;
    const found = await stripe.paymentIntents.search({ query, limit: 10 });
    let ok = true;
    for (const intent of found.data) {
      const once = { idempotencyKey: `${key}:void:${intent.id}` };
      if (intent.status === "canceled") continue;
      if (intent.status === "processing") ok = false;
      else if (intent.status === "succeeded")
        await stripe.refunds.create({ payment_intent: intent.id, metadata: { ucp_attempt: key } }, once);
      else await stripe.paymentIntents.cancel(intent.id, { cancellation_reason: "abandoned" }, once);
    }
    return { ok };
  } catch (e) {
    logStripeError("void", key, e);
    return { ok: false };
  }
}
