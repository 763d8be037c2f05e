/**
 * The Stripe stand-in (test/stripe/) driven by the official `stripe` SDK: its objects have the
 * keys and value types of Stripe's published examples (../shared/stripe/fixtures3.json), its
 * status machine, idempotency replay and errors behave as Stripe documents, and its webhook
 * signatures pass the SDK's own verification.
 */
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fixturesNotice, loadFixtures3 } from "../stripe/fixtures3.ts";
import { canonical, parseForm } from "../stripe/form.ts";
import { createStripeStandIn } from "../stripe/handler.ts";
import { type RunningStandIn, startStripeStandIn } from "../stripe/server.ts";

const KEY = "sk_test_standInKey123";
const SECRET = "whsec_standInSecret";
const fixtures = loadFixtures3();
if (!fixtures) console.warn(fixturesNotice());

let server: RunningStandIn;
let stripe: Stripe;

beforeAll(async () => {
  server = await startStripeStandIn();
  const url = new URL(server.url);
  stripe = new Stripe(KEY, {
    host: url.hostname,
    port: Number(url.port),
    protocol: "http",
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 0,
    telemetry: false,
  });
});
afterAll(() => server.stop());
beforeEach(() => server.standIn.reset());

type Json = Record<string, unknown>;

/** Raw HTTP, for what the SDK hides (headers, status codes). */
async function raw(method: string, path: string, body?: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/x-www-form-urlencoded", ...headers },
    ...(body ? { body: new URLSearchParams(body).toString() } : {}),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
}

const card = (token: string) => ({ payment_method_data: { type: "card", card: { token } } }) as Json;
const base = { amount: 2500, currency: "usd", automatic_payment_methods: { enabled: true, allow_redirects: "never" } };

async function createConfirmed(extra: Json): Promise<Stripe.PaymentIntent> {
  return stripe.paymentIntents.create({ ...base, confirm: true, ...extra } as Stripe.PaymentIntentCreateParams);
}

async function declineError(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await promise;
  } catch (e) {
    return e as Stripe.errors.StripeError;
  }
  throw new Error("expected a Stripe error");
}

describe("finding fixtures3.json", () => {
  it("absent: skipped (undefined); absent under UCP_SPEC_REQUIRED or a wrong STRIPE_FIXTURES: an error", () => {
    const nowhere = "/nonexistent/repo";
    expect(loadFixtures3({}, nowhere)).toBeUndefined();
    expect(() => loadFixtures3({ UCP_SPEC_REQUIRED: "1" }, nowhere)).toThrow(/UCP_SPEC_REQUIRED/);
    expect(() => loadFixtures3({ STRIPE_FIXTURES: "/nonexistent/fixtures3.json" })).toThrow(/STRIPE_FIXTURES/);
  });
});

describe("form bodies as the SDK writes them", () => {
  it("nests bracketed keys, builds arrays from indices or [], and compares params regardless of order", () => {
    const body =
      "amount=100&metadata[ucp_attempt]=a%27b&payment_method_data[card][token]=tok_visa&expand[0]=latest_charge&expand[1]=payment_method&payment_method_types[]=card";
    expect(parseForm(body)).toEqual({
      amount: "100",
      metadata: { ucp_attempt: "a'b" },
      payment_method_data: { card: { token: "tok_visa" } },
      expand: ["latest_charge", "payment_method"],
      payment_method_types: ["card"],
    });
    expect(canonical(parseForm("a=1&b[c]=2"))).toBe(canonical(parseForm("b[c]=2&a=1")));
    expect(canonical(parseForm("a=1"))).not.toBe(canonical(parseForm("a=2")));
  });
});

describe("PaymentIntents through the SDK", () => {
  it("tok_visa, pm_card_visa and an SPT pay; the charge names the card", async () => {
    const byToken = await createConfirmed(card("tok_visa"));
    expect(byToken.status).toBe("succeeded");
    expect(byToken.amount_received).toBe(2500);
    const byAlias = await createConfirmed({ payment_method: "pm_card_mastercard" });
    expect(byAlias.status).toBe("succeeded");
    const bySpt = await createConfirmed({ shared_payment_granted_token: "spt_123abc" });
    expect(bySpt.status).toBe("succeeded");
    const bySptData = await createConfirmed({ payment_method_data: { shared_payment_granted_token: "spt_456" } });
    expect(bySptData.status).toBe("succeeded");
    const charge = await stripe.charges.retrieve(byAlias.latest_charge as string);
    expect(charge.payment_method_details?.card).toMatchObject({ brand: "mastercard", last4: "4444" });
    const expanded = await stripe.paymentIntents.retrieve(byToken.id, { expand: ["latest_charge", "payment_method"] });
    expect((expanded.latest_charge as Stripe.Charge).payment_method_details?.card?.last4).toBe("4242");
    expect((expanded.payment_method as Stripe.PaymentMethod).card?.brand).toBe("visa");
  });

  it("a declined card is a 402 StripeCardError carrying the intent, back in requires_payment_method", async () => {
    for (const extra of [
      card("tok_chargeDeclined"),
      { payment_method: "pm_card_chargeDeclined" },
      { shared_payment_granted_token: "spt_declined" },
    ]) {
      const error = await declineError(createConfirmed({ ...extra, metadata: { ucp_attempt: "a1" } }));
      expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
      expect(error.statusCode).toBe(402);
      expect(error.code).toBe("card_declined");
      expect(error.decline_code).toBe("generic_decline");
      const intent = error.payment_intent as Stripe.PaymentIntent;
      expect(intent.status).toBe("requires_payment_method");
      expect(intent.last_payment_error?.decline_code).toBe("generic_decline");
      expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe("requires_payment_method");
    }
    const funds = await declineError(createConfirmed(card("tok_chargeDeclinedInsufficientFunds")));
    expect(funds.decline_code).toBe("insufficient_funds");
  });

  it("3-D Secure: requires_action until the buyer passes, then paid (automatic confirmation)", async () => {
    const intent = await createConfirmed(card("tok_threeDSecure2Required"));
    expect(intent.status).toBe("requires_action");
    expect(intent.next_action?.type).toBe("use_stripe_sdk");
    expect(intent.latest_charge).toBeNull();
    const passed = await fetch(`${server.url}/__stand-in/authenticate/${intent.id}`, { method: "POST" });
    expect(((await passed.json()) as Json).status).toBe("succeeded");
    const after = await stripe.paymentIntents.retrieve(intent.id);
    expect(after.status).toBe("succeeded");
    // Already paid: a confirm now is refused, as Stripe refuses it.
    const again = await declineError(stripe.paymentIntents.confirm(intent.id));
    expect(again.code).toBe("payment_intent_unexpected_state");
  });

  it("3-D Secure with manual confirmation: the server confirms after the buyer passed", async () => {
    const intent = await createConfirmed({
      payment_method: "pm_card_authenticationRequired",
      confirmation_method: "manual",
    });
    expect(intent.status).toBe("requires_action");
    await fetch(`${server.url}/__stand-in/authenticate/${intent.id}`, { method: "POST" });
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe("requires_confirmation");
    expect((await stripe.paymentIntents.confirm(intent.id)).status).toBe("succeeded");
  });

  it("3-D Secure: a return_url gives redirect_to_url; a failed challenge returns to requires_payment_method", async () => {
    const intent = await stripe.paymentIntents.create({
      amount: 900,
      currency: "eur",
      confirm: true,
      return_url: "https://shop.example.com/back",
      ...card("tok_threeDSecure2Required"),
    } as Stripe.PaymentIntentCreateParams);
    expect(intent.next_action?.type).toBe("redirect_to_url");
    const page = await fetch(intent.next_action?.redirect_to_url?.url as string);
    expect(await page.text()).toContain("Complete authentication");
    const failed = await fetch(`${server.url}/__stand-in/authenticate/${intent.id}`, {
      method: "POST",
      body: new URLSearchParams({ result: "fail", return_url: "https://shop.example.com/back" }),
      redirect: "manual",
    });
    expect(failed.status).toBe(303);
    expect(failed.headers.get("location")).toContain("redirect_status=failed");
    const after = await stripe.paymentIntents.retrieve(intent.id);
    expect(after.status).toBe("requires_payment_method");
    expect(after.last_payment_error?.code).toBe("payment_intent_authentication_failure");
  });

  it("confirming with automatic payment methods and no return_url is refused, as Stripe refuses it", async () => {
    const error = await declineError(
      stripe.paymentIntents.create({
        amount: 2500,
        currency: "usd",
        confirm: true,
        ...card("tok_visa"),
      } as Stripe.PaymentIntentCreateParams),
    );
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error.param).toBe("return_url");
    expect((await stripe.paymentIntents.list()).data).toHaveLength(0);
  });

  it("manual capture: requires_capture, then capture (partial releases the rest); cancel releases an authorization", async () => {
    const held = await createConfirmed({ ...card("tok_visa"), capture_method: "manual" });
    expect(held.status).toBe("requires_capture");
    expect(held.amount_capturable).toBe(2500);
    const captured = await stripe.paymentIntents.capture(held.id, { amount_to_capture: 2000 });
    expect(captured).toMatchObject({ status: "succeeded", amount_received: 2000, amount_capturable: 0 });
    const other = await createConfirmed({ ...card("tok_visa"), capture_method: "manual" });
    const canceled = await stripe.paymentIntents.cancel(other.id, { cancellation_reason: "abandoned" });
    expect(canceled).toMatchObject({ status: "canceled", cancellation_reason: "abandoned", amount_capturable: 0 });
    const twice = await declineError(stripe.paymentIntents.cancel(other.id));
    expect(twice.code).toBe("payment_intent_unexpected_state");
    const paid = await declineError(stripe.paymentIntents.cancel(captured.id));
    expect(paid.code).toBe("payment_intent_unexpected_state");
  });

  it("update changes metadata in any status; list and search find intents", async () => {
    const one = await createConfirmed({
      ...card("tok_visa"),
      metadata: { ucp_attempt: "att_1", ucp_checkout_id: "chk_1" },
    });
    await createConfirmed({ ...card("tok_visa"), metadata: { ucp_attempt: "att_2", ucp_checkout_id: "chk_1" } });
    const updated = await stripe.paymentIntents.update(one.id, { metadata: { ucp_attempt: "att_3" } });
    expect(updated.metadata).toEqual({ ucp_attempt: "att_3", ucp_checkout_id: "chk_1" });
    const amount = await declineError(stripe.paymentIntents.update(one.id, { amount: 3000 }));
    expect(amount.code).toBe("payment_intent_unexpected_state");
    const list = await stripe.paymentIntents.list({ limit: 1 });
    expect(list.data).toHaveLength(1);
    expect(list.has_more).toBe(true);
    const found = await stripe.paymentIntents.search({ query: "metadata['ucp_attempt']:'att_3'" });
    expect(found.data.map((pi) => pi.id)).toEqual([one.id]);
    const both = await stripe.paymentIntents.search({
      query: "metadata['ucp_checkout_id']:'chk_1' AND status:'succeeded'",
    });
    expect(both.data).toHaveLength(2);
    const quoted = await createConfirmed({ ...card("tok_visa"), metadata: { ucp_attempt: "it's" } });
    const escaped = await stripe.paymentIntents.search({ query: "metadata['ucp_attempt']:'it\\'s'" });
    expect(escaped.data.map((pi) => pi.id)).toEqual([quoted.id]);
    const bad = await declineError(stripe.paymentIntents.search({ query: "metadata['a']:'b' AND x OR y" }));
    expect(bad.param).toBe("query");
  });

  it("refunds: whole or part, never more than captured; metadata kept", async () => {
    const paid = await createConfirmed(card("tok_visa"));
    const part = await stripe.refunds.create({
      payment_intent: paid.id,
      amount: 1000,
      metadata: { ucp_order_id: "ord_1" },
    });
    expect(part).toMatchObject({
      amount: 1000,
      status: "succeeded",
      payment_intent: paid.id,
      metadata: { ucp_order_id: "ord_1" },
    });
    expect((await stripe.refunds.retrieve(part.id)).id).toBe(part.id);
    const tooMuch = await declineError(stripe.refunds.create({ payment_intent: paid.id, amount: 2000 }));
    expect(tooMuch.code).toBe("amount_too_large");
    const rest = await stripe.refunds.create({ payment_intent: paid.id });
    expect(rest.amount).toBe(1500);
    const done = await declineError(stripe.refunds.create({ payment_intent: paid.id }));
    expect(done.code).toBe("charge_already_refunded");
    const held = await createConfirmed({ ...card("tok_visa"), capture_method: "manual" });
    expect((await declineError(stripe.refunds.create({ payment_intent: held.id }))).code).toBe("charge_not_refundable");
  });

  it("wants a test secret key (401 as StripeAuthenticationError); unknown parameters and ids are 400/404", async () => {
    const url = new URL(server.url);
    const options = {
      host: url.hostname,
      port: Number(url.port),
      protocol: "http" as const,
      httpClient: Stripe.createFetchHttpClient(),
      maxNetworkRetries: 0,
    };
    const live = new Stripe("sk_live_nope", options);
    const denied = await declineError(live.paymentIntents.list());
    expect(denied).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(denied.message).not.toContain("sk_live_nope");
    expect((await raw("GET", "/v1/payment_intents", undefined, { authorization: "" })).status).toBe(401);
    const unknown = await declineError(
      stripe.paymentIntents.create({ ...base, colour: "red" } as Stripe.PaymentIntentCreateParams),
    );
    expect(unknown.code).toBe("parameter_unknown");
    const missing = await declineError(stripe.paymentIntents.retrieve("pi_missing"));
    expect(missing.statusCode).toBe(404);
    expect(missing.code).toBe("resource_missing");
    expect(
      (await declineError(stripe.paymentIntents.create({ currency: "usd" } as Stripe.PaymentIntentCreateParams))).code,
    ).toBe("parameter_missing");
  });
});

describe("idempotency, as Stripe documents it", () => {
  const create = {
    amount: "2500",
    currency: "usd",
    confirm: "true",
    "payment_method_types[0]": "card",
    "payment_method_data[type]": "card",
    "payment_method_data[card][token]": "tok_visa",
    "metadata[ucp_attempt]": "att_9",
  };

  it("same key, same params: the saved answer replayed, one PaymentIntent", async () => {
    const first = await raw("POST", "/v1/payment_intents", create, { "idempotency-key": "att_9" });
    // The same parameters in another order are the same parameters.
    const reordered = Object.fromEntries(Object.entries(create).reverse());
    const second = await raw("POST", "/v1/payment_intents", reordered, { "idempotency-key": "att_9" });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(second.headers.get("original-request")).toBe(first.headers.get("request-id"));
    const inspected = (await (
      await fetch(`${server.url}/__stand-in/payment_intents?idempotency_key=att_9`)
    ).json()) as Json;
    expect(inspected.count).toBe(1);
    // Through the SDK too.
    const sdk = await stripe.paymentIntents.create(
      {
        amount: 2500,
        currency: "usd",
        confirm: true,
        payment_method_types: ["card"],
        ...card("tok_visa"),
        metadata: { ucp_attempt: "att_9" },
      } as Stripe.PaymentIntentCreateParams,
      { idempotencyKey: "att_9" },
    );
    expect(sdk.id).toBe(first.body.id);
    // The fetch client's raw response keeps a Headers object; the node client a plain record.
    expect(new Headers(sdk.lastResponse.headers as HeadersInit).get("idempotent-replayed")).toBe("true");
  });

  it("a decline is saved and replayed too: the same 402, the same PaymentIntent", async () => {
    const declined = { ...create, "payment_method_data[card][token]": "tok_chargeDeclined" };
    const first = await raw("POST", "/v1/payment_intents", declined, { "idempotency-key": "k-decline" });
    const second = await raw("POST", "/v1/payment_intents", declined, { "idempotency-key": "k-decline" });
    expect(first.status).toBe(402);
    expect(second.status).toBe(402);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(server.standIn.state.paymentIntents.size).toBe(1);
  });

  it("same key, other params, or another endpoint: 400 idempotency_error (StripeIdempotencyError)", async () => {
    await stripe.paymentIntents.create({ ...base, metadata: { a: "1" } } as Stripe.PaymentIntentCreateParams, {
      idempotencyKey: "k1",
    });
    const other = await declineError(
      stripe.paymentIntents.create(
        { ...base, amount: 2600, metadata: { a: "1" } } as Stripe.PaymentIntentCreateParams,
        { idempotencyKey: "k1" },
      ),
    );
    expect(other).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(other.statusCode).toBe(400);
    expect(other.type).toBe("StripeIdempotencyError");
    const paid = await createConfirmed(card("tok_visa"));
    const elsewhere = await declineError(stripe.refunds.create({ payment_intent: paid.id }, { idempotencyKey: "k1" }));
    expect(elsewhere).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(elsewhere.message).toContain("same endpoint");
    expect(server.standIn.state.paymentIntents.size).toBe(2);
  });

  it("a validation error is not saved: the key still works once the request is right", async () => {
    const bad = await raw("POST", "/v1/payment_intents", { currency: "usd" }, { "idempotency-key": "k-valid" });
    expect(bad.status).toBe(400);
    const good = await raw(
      "POST",
      "/v1/payment_intents",
      { amount: "700", currency: "usd" },
      { "idempotency-key": "k-valid" },
    );
    expect(good.status).toBe(200);
    expect(good.headers.get("idempotent-replayed")).toBeNull();
  });

  it("refunds keyed once are made once", async () => {
    const paid = await createConfirmed(card("tok_visa"));
    const a = await stripe.refunds.create({ payment_intent: paid.id, amount: 500 }, { idempotencyKey: "refund-1" });
    const b = await stripe.refunds.create({ payment_intent: paid.id, amount: 500 }, { idempotencyKey: "refund-1" });
    expect(b.id).toBe(a.id);
    const inspected = (await (await fetch(`${server.url}/__stand-in/refunds`)).json()) as {
      count: number;
      data: Json[];
    };
    expect(inspected.count).toBe(1);
    expect(inspected.data[0]?.stand_in).toEqual({ idempotency_key: "refund-1" });
  });
});

describe("webhook events signed like Stripe's", () => {
  const crypto = Stripe.createSubtleCryptoProvider();

  async function deliver(body: Json): Promise<{ event: Json; payload: string; signature: string; delivery?: Json }> {
    const response = await fetch(`${server.url}/__stand-in/deliver`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { event: Json; payload: string; signature: string };
  }

  it("the SDK verifies the signature; a tampered body or an old timestamp fails", async () => {
    const paid = await createConfirmed(card("tok_visa"));
    const sent = await deliver({ type: "payment_intent.succeeded", id: paid.id, secret: SECRET });
    const event = await stripe.webhooks.constructEventAsync(sent.payload, sent.signature, SECRET, undefined, crypto);
    expect(event.type).toBe("payment_intent.succeeded");
    expect((event.data.object as Stripe.PaymentIntent).id).toBe(paid.id);
    expect(event).toMatchObject({ livemode: false, object: "event" });
    expect(event.id).toMatch(/^evt_/);
    await expect(
      stripe.webhooks.constructEventAsync(
        sent.payload.replace(paid.id, "pi_other"),
        sent.signature,
        SECRET,
        undefined,
        crypto,
      ),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeSignatureVerificationError);
    await expect(
      stripe.webhooks.constructEventAsync(sent.payload, sent.signature, "whsec_wrong", undefined, crypto),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeSignatureVerificationError);
    const old = await deliver({
      type: "payment_intent.succeeded",
      id: paid.id,
      secret: SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    await expect(
      stripe.webhooks.constructEventAsync(old.payload, old.signature, SECRET, undefined, crypto),
    ).rejects.toThrow(/tolerance/i);
  });

  it("charge.refunded makes a dashboard refund; charge.dispute.created opens a dispute; events are POSTed when given a URL", async () => {
    const posts: Array<{ url: string; headers: Headers; body: string }> = [];
    const standIn = createStripeStandIn({
      fetch: async (input, init) => {
        posts.push({ url: String(input), headers: new Headers(init?.headers), body: String(init?.body) });
        return new Response("ok");
      },
    });
    const post = (path: string, body: Record<string, string>, json = false) =>
      standIn.handle(
        new Request(`https://stripe.test${path}`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${KEY}`,
            "content-type": json ? "application/json" : "application/x-www-form-urlencoded",
          },
          body: json ? JSON.stringify(body) : new URLSearchParams(body).toString(),
        }),
      );
    const created = (await (
      await post("/v1/payment_intents", {
        amount: "5000",
        currency: "usd",
        confirm: "true",
        "payment_method_types[0]": "card",
        payment_method: "pm_card_visa",
      })
    ).json()) as Json;
    const refunded = (await (
      await post(
        "/__stand-in/deliver",
        {
          type: "charge.refunded",
          id: String(created.id),
          amount: "1200",
          secret: SECRET,
          url: "https://shop.example.com/webhooks/stripe",
        },
        true,
      )
    ).json()) as { event: { data: { object: Json; previous_attributes: Json } }; delivery: Json };
    expect(refunded.event.data.object).toMatchObject({ object: "charge", amount_refunded: 1200, refunded: false });
    expect(refunded.event.data.previous_attributes).toEqual({ amount_refunded: 0, refunded: false });
    expect(refunded.delivery.status).toBe(200);
    expect(posts[0]?.url).toBe("https://shop.example.com/webhooks/stripe");
    const verified = await Stripe.webhooks.constructEventAsync(
      posts[0]?.body ?? "",
      posts[0]?.headers.get("stripe-signature") ?? "",
      SECRET,
      undefined,
      crypto,
    );
    expect(verified.type).toBe("charge.refunded");
    const refunds = (await (await standIn.handle(new Request("https://stripe.test/__stand-in/refunds"))).json()) as {
      data: Json[];
    };
    expect(refunds.data).toHaveLength(1);
    expect(refunds.data[0]).toMatchObject({ amount: 1200, metadata: {}, stand_in: { idempotency_key: null } });
    const disputed = (await (
      await post(
        "/__stand-in/deliver",
        { type: "charge.dispute.created", id: String(created.id), secret: SECRET },
        true,
      )
    ).json()) as {
      event: { data: { object: Json } };
    };
    expect(disputed.event.data.object).toMatchObject({
      object: "dispute",
      amount: 3800,
      payment_intent: created.id,
      status: "needs_response",
    });
  });
});

/**
 * Key sets and value types against Stripe's published example of each object. A key in one
 * and not the other fails; a value whose JSON type differs fails unless listed below with why.
 */
const ALLOWED: Record<string, readonly string[]> = {
  // payment_intent: null until the state that sets it, or not modeled (processing, shipping, transfers)
  "payment_intent.automatic_payment_methods": ["null"], // null with explicit payment_method_types, as on Stripe
  "payment_intent.canceled_at": ["null"],
  "payment_intent.cancellation_reason": ["string"],
  "payment_intent.latest_charge": ["string"],
  "payment_intent.payment_method": ["string"],
  "payment_intent.last_payment_error": ["null"],
  "payment_intent.next_action": ["null"],
  "payment_intent.payment_method_configuration_details": ["null"],
  "payment_intent.processing": ["null"], // processing is for async methods; cards never stay in it here
  "payment_intent.shipping": ["null"],
  "payment_intent.transfer_data": ["null"],
  "payment_intent.description": ["string"],
  "payment_intent.receipt_email": ["string"],
  // charge
  "charge.balance_transaction": ["null"], // not captured yet
  "charge.billing_details.name": ["null"], // no billing details are sent with a token
  "charge.calculated_statement_descriptor": ["string"],
  "charge.description": ["string", "null"],
  "charge.failure_code": ["string"],
  "charge.failure_message": ["string"],
  "charge.outcome.network_status": ["string"],
  "charge.outcome.reason": ["string"],
  "charge.outcome.seller_message": ["string"],
  "charge.payment_method_details.card.amount_authorized": ["number"],
  "charge.payment_method_details.card.checks.cvc_check": ["null"], // tokens carry no CVC result
  "charge.payment_method_details.card.installments": ["null"],
  "charge.payment_method_details.card.three_d_secure": ["null"], // an object only after 3-D Secure
  "charge.payment_method_details.card.wallet": ["null"],
  "charge.payment_method_details.card.regulated_status": ["string"],
  "charge.shipping": ["null"],
  "charge.source": ["null"], // legacy Sources: never used
  "charge.transfer_data": ["null"],
  // payment_method: no billing details are sent with a token
  "payment_method.billing_details.address.city": ["null"],
  "payment_method.billing_details.address.country": ["null"],
  "payment_method.billing_details.address.line1": ["null"],
  "payment_method.billing_details.address.postal_code": ["null"],
  "payment_method.billing_details.address.state": ["null"],
  "payment_method.billing_details.email": ["null"],
  "payment_method.billing_details.phone": ["null"],
  "payment_method.card.checks.cvc_check": ["null"],
  "payment_method.card.generated_from": ["null"],
  "payment_method.card.wallet": ["null"],
  "payment_method.card.regulated_status": ["string"],
  // refund
  "refund.balance_transaction": ["string"],
  "refund.payment_intent": ["string"],
  "refund.reason": ["string"],
  // event
  "event.api_version": ["string"],
};
/** Maps or placeholders in the examples (`{}`, `{type: "type"}`): their inner keys are not compared. */
const OPAQUE = new Set([
  "payment_intent.metadata",
  "payment_intent.payment_method_options",
  "payment_intent.next_action",
  "payment_intent.last_payment_error",
  "charge.metadata",
  "charge.refunds.data",
  "refund.metadata",
  "payment_method.metadata",
  "event.data.object",
  "dispute.metadata",
]);
/** Keys ours has and the example does not, each with why. */
const EXTRA: Record<string, string> = {
  // Stripe sends previous_attributes on events about a change (docs "The Event object").
  "event.data.previous_attributes": "present on change events",
  // Present when the request set it (API reference: automatic_payment_methods.allow_redirects).
  "payment_intent.automatic_payment_methods.allow_redirects": "set by the request",
};

const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

function shapeDifferences(ours: unknown, example: unknown, path: string, out: string[] = []): string[] {
  const a = typeOf(ours);
  const b = typeOf(example);
  if (a !== b && !(ALLOWED[path] ?? []).includes(a) && b !== "null")
    out.push(`${path}: ${a} where Stripe's example has ${b}`);
  if (b === "null" && a !== "null" && !(ALLOWED[path] ?? []).includes(a) && a !== "string" && a !== "number") {
    out.push(`${path}: ${a} where Stripe's example has null`);
  }
  if (OPAQUE.has(path) || a !== b) return out;
  if (a === "array") {
    const [x] = ours as unknown[];
    const [y] = example as unknown[];
    if (x !== undefined && y !== undefined) shapeDifferences(x, y, `${path}[]`, out);
    return out;
  }
  if (a !== "object") return out;
  const o = ours as Json;
  const e = example as Json;
  for (const k of Object.keys(e)) if (!(k in o)) out.push(`${path}.${k}: missing (in Stripe's example)`);
  for (const k of Object.keys(o)) {
    if (!(k in e)) {
      if (!EXTRA[`${path}.${k}`]) out.push(`${path}.${k}: not in Stripe's example`);
      continue;
    }
    shapeDifferences(o[k], e[k], `${path}.${k}`, out);
  }
  return out;
}

/** The fields the SDK reads from an error body (stripe-node src/Types.ts StripeRawError) and `type`. */
const SDK_ERROR_FIELDS = [
  "type",
  "advice_code",
  "charge",
  "code",
  "decline_code",
  "doc_url",
  "message",
  "network_advice_code",
  "network_decline_code",
  "param",
  "payment_intent",
  "payment_method",
  "payment_method_type",
  "request_log_url",
  "setup_intent",
  "source",
];

describe.skipIf(!fixtures)("objects have the shape of Stripe's published examples (fixtures3.json)", () => {
  const example = (name: string) => fixtures?.resources[name];

  it("a PaymentIntent in every status the stand-in produces", async () => {
    const intents: Json[] = [];
    intents.push((await raw("POST", "/v1/payment_intents", { amount: "900", currency: "usd" })).body); // requires_payment_method
    intents.push(
      (
        await raw("POST", "/v1/payment_intents", {
          amount: "900",
          currency: "usd",
          payment_method: "pm_card_visa",
          "payment_method_types[0]": "card",
        })
      ).body,
    ); // requires_confirmation
    const confirm = {
      amount: "900",
      currency: "usd",
      confirm: "true",
      "automatic_payment_methods[enabled]": "true",
      "automatic_payment_methods[allow_redirects]": "never",
    };
    intents.push(
      (await raw("POST", "/v1/payment_intents", { ...confirm, payment_method: "pm_card_threeDSecure2Required" })).body,
    ); // requires_action
    intents.push(
      (
        await raw("POST", "/v1/payment_intents", {
          ...confirm,
          payment_method: "pm_card_visa",
          capture_method: "manual",
        })
      ).body,
    ); // requires_capture
    intents.push(
      (
        await raw("POST", "/v1/payment_intents", {
          ...confirm,
          payment_method: "pm_card_visa",
          description: "Order",
          receipt_email: "a@example.com",
        })
      ).body,
    ); // succeeded
    const declined = await raw("POST", "/v1/payment_intents", { ...confirm, payment_method: "pm_card_chargeDeclined" });
    intents.push((declined.body.error as Json).payment_intent as Json); // requires_payment_method, with last_payment_error
    const toCancel = intents[0] as Json;
    intents.push(
      (await raw("POST", `/v1/payment_intents/${toCancel.id}/cancel`, { cancellation_reason: "abandoned" })).body,
    ); // canceled
    expect(intents.map((pi) => pi.status)).toEqual([
      "requires_payment_method",
      "requires_confirmation",
      "requires_action",
      "requires_capture",
      "succeeded",
      "requires_payment_method",
      "canceled",
    ]);
    for (const pi of intents)
      expect(shapeDifferences(pi, example("payment_intent"), "payment_intent"), String(pi.status)).toEqual([]);
    // last_payment_error is an error body: only fields the SDK knows.
    const lastError = intents[5]?.last_payment_error as Json;
    expect(Object.keys(lastError).filter((k) => !SDK_ERROR_FIELDS.includes(k))).toEqual([]);
    expect(shapeDifferences(lastError.payment_method, example("payment_method"), "payment_method")).toEqual([]);
  });

  it("a charge, a PaymentMethod, a refund, an event and a dispute", async () => {
    const pi = (
      await raw("POST", "/v1/payment_intents", {
        amount: "900",
        currency: "usd",
        confirm: "true",
        "payment_method_types[0]": "card",
        ...{ "payment_method_data[type]": "card", "payment_method_data[card][token]": "tok_visa" },
      })
    ).body;
    const charge = (await raw("GET", `/v1/charges/${pi.latest_charge}`)).body;
    expect(shapeDifferences(charge, example("charge"), "charge")).toEqual([]);
    const pm = (await raw("GET", `/v1/payment_methods/${pi.payment_method}`)).body;
    expect(shapeDifferences(pm, example("payment_method"), "payment_method")).toEqual([]);
    const refund = (
      await raw("POST", "/v1/refunds", {
        payment_intent: String(pi.id),
        amount: "100",
        reason: "requested_by_customer",
      })
    ).body;
    expect(shapeDifferences(refund, example("refund"), "refund")).toEqual([]);
    const withRefund = (await raw("GET", `/v1/charges/${pi.latest_charge}`)).body;
    expect(shapeDifferences((withRefund.refunds as { data: Json[] }).data[0], example("refund"), "refund")).toEqual([]);
    const deliver = async (type: string) =>
      (await (
        await fetch(`${server.url}/__stand-in/deliver`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ type, id: pi.id, secret: SECRET }),
        })
      ).json()) as { event: Json };
    for (const type of ["payment_intent.succeeded", "charge.refunded", "charge.dispute.created"]) {
      const { event } = await deliver(type);
      expect(shapeDifferences(event, example("event"), "event"), type).toEqual([]);
    }
    const { event } = await deliver("charge.dispute.created");
    expect(shapeDifferences((event.data as Json).object, example("dispute"), "dispute")).toEqual([]);
    // A charge after 3-D Secure carries its three_d_secure details.
    const challenged = (
      await raw("POST", "/v1/payment_intents", {
        amount: "900",
        currency: "usd",
        confirm: "true",
        "payment_method_types[0]": "card",
        payment_method: "pm_card_threeDSecure2Required",
      })
    ).body;
    const passed = (await (
      await fetch(`${server.url}/__stand-in/authenticate/${challenged.id}`, { method: "POST" })
    ).json()) as Json;
    const secured = (await raw("GET", `/v1/charges/${passed.latest_charge}`)).body;
    expect((secured.payment_method_details as { card: Json }).card.three_d_secure).toMatchObject({
      result: "authenticated",
    });
    expect(shapeDifferences(secured, example("charge"), "charge")).toEqual([]);
  });

  it("errors carry only the fields the SDK reads, and a card error carries the PaymentIntent", async () => {
    const errors: Json[] = [];
    const confirm = { amount: "900", currency: "usd", confirm: "true", "payment_method_types[0]": "card" };
    errors.push(
      (await raw("POST", "/v1/payment_intents", { ...confirm, payment_method: "pm_card_chargeDeclined" })).body
        .error as Json,
    );
    errors.push((await raw("POST", "/v1/payment_intents", { currency: "usd" })).body.error as Json);
    errors.push((await raw("GET", "/v1/payment_intents/pi_nope")).body.error as Json);
    errors.push(
      (await raw("GET", "/v1/payment_intents", undefined, { authorization: "Bearer sk_live_x" })).body.error as Json,
    );
    await raw("POST", "/v1/payment_intents", { amount: "900", currency: "usd" }, { "idempotency-key": "e1" });
    errors.push(
      (await raw("POST", "/v1/payment_intents", { amount: "901", currency: "usd" }, { "idempotency-key": "e1" })).body
        .error as Json,
    );
    expect(errors.map((e) => e.type)).toEqual([
      "card_error",
      "invalid_request_error",
      "invalid_request_error",
      "invalid_request_error",
      "idempotency_error",
    ]);
    for (const e of errors) {
      expect(Object.keys(e).filter((k) => !SDK_ERROR_FIELDS.includes(k))).toEqual([]);
      expect(typeof e.message).toBe("string");
    }
    expect(shapeDifferences(errors[0]?.payment_intent, example("payment_intent"), "payment_intent")).toEqual([]);
    expect(errors[0]).toMatchObject({ code: "card_declined", decline_code: "generic_decline" });
  });
});
