/**
 * The checkout page's card form, server side (issue 24 item 3): the checkout's PaymentIntent
 * is created once per checkout and total (a reload finds it), and a completion whose
 * credential names it is accepted only when it is this checkout's, for this total, and paid,
 * without creating another. Through the real SDK against the stand-in (test/stripe/).
 */
import Stripe from "stripe";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { buildConfig } from "../../src/config";
import type { StripeSettings } from "../../src/config/stripe";
import { merchantVarProblems } from "../../src/merchant-vars";
import { contentSecurityPolicy } from "../../src/pages/respond";
import { stripeCspSources } from "../../src/pages/stripe-card-form";
import type { ChargeRequest, PaymentProcessor } from "../../src/payment/processor";
import { processorFor } from "../../src/payment/store-processor";
import { pageIntent } from "../../src/payment/stripe-page-intent";
import { createStripeStandIn, type StripeStandIn } from "../stripe/handler";

const SECRET = "sk_test_51PageIntentSecret";
const VARS = {
  MERCHANT_ORIGIN: "https://shop.example.com",
  STRIPE_SECRET_KEY: SECRET,
  STRIPE_PUBLISHABLE_KEY: "pk_test_51Publishable",
  STRIPE_API_BASE: "https://stripe.test",
  STRIPE_PROFILE_ID: "profile_test123",
};
const CHECKOUT = { checkoutId: "chk_page_1", amount: 4200, currency: "USD" };

let standIn: StripeStandIn;
let settings: StripeSettings;
let processor: PaymentProcessor;
const sdk = new Stripe(SECRET, {
  host: "stripe.test",
  protocol: "https",
  httpClient: Stripe.createFetchHttpClient((input, init) => fetch(input, init)),
});

beforeEach(() => {
  standIn = createStripeStandIn();
  vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => standIn.handle(new Request(input, init)));
  const config = buildConfig(VARS);
  settings = config.stripe as StripeSettings;
  processor = processorFor(config) as PaymentProcessor;
});
afterEach(() => vi.unstubAllGlobals());

function completion(paymentIntent: string, over: Partial<ChargeRequest> = {}): ChargeRequest {
  return {
    idempotencyKey: `${CHECKOUT.checkoutId}:a1`,
    checkoutId: CHECKOUT.checkoutId,
    amount: CHECKOUT.amount,
    currency: CHECKOUT.currency,
    handlerId: "stripe_payments",
    credential: { type: "stripe_payment_intent", payment_intent: paymentIntent },
    ...over,
  };
}

describe("the checkout page's PaymentIntent", () => {
  it("is one per checkout and total: a reload finds it, a new total makes another", async () => {
    const first = await pageIntent(settings, CHECKOUT);
    const again = await pageIntent(settings, CHECKOUT);
    expect(first?.id).toMatch(/^pi_/);
    expect(again).toEqual(first);
    expect(first?.clientSecret.startsWith(`${first?.id}_secret_`)).toBe(true);
    const other = await pageIntent(settings, { ...CHECKOUT, amount: 5200 });
    expect(other?.id).not.toBe(first?.id);
    const stored = standIn.state.paymentIntents.get(first?.id ?? "");
    expect(stored).toMatchObject({ amount: 4200, currency: "usd", metadata: { ucp_checkout_id: "chk_page_1" } });
  });

  it("says it is paid after the browser confirmed it (a reload offers to place the order)", async () => {
    const created = await pageIntent(settings, CHECKOUT);
    await sdk.paymentIntents.confirm(created?.id ?? "", { payment_method: "pm_card_visa" });
    expect((await pageIntent(settings, CHECKOUT))?.paid).toBe(true);
  });

  it("is undefined when Stripe does not answer", async () => {
    vi.stubGlobal("fetch", () => Promise.reject(new TypeError("network down")));
    expect(await pageIntent(settings, CHECKOUT)).toBeUndefined();
  });
});

describe("a completion naming the page's PaymentIntent", () => {
  it("the page only authorizes; the completion captures it, re-tagged with the attempt, and makes no other", async () => {
    const created = await pageIntent(settings, CHECKOUT);
    const id = created?.id ?? "";
    const confirmed = await sdk.paymentIntents.confirm(id, { payment_method: "pm_card_visa" });
    expect(confirmed.status).toBe("requires_capture");
    expect(await processor.charge(completion(id))).toEqual({ kind: "captured", chargeId: id });
    expect(standIn.state.paymentIntents.size).toBe(1);
    const stored = standIn.state.paymentIntents.get(id);
    expect(stored?.status).toBe("succeeded");
    expect(stored?.metadata).toMatchObject({ ucp_attempt: "chk_page_1:a1" });
    // The same attempt again (a retry of the completion): the same answer, nothing more.
    expect(await processor.charge(completion(id))).toEqual({ kind: "captured", chargeId: id });
  });

  it("a store capturing at shipment keeps the authorization", async () => {
    const manual = processorFor(buildConfig({ ...VARS, STRIPE_CAPTURE: "manual" })) as PaymentProcessor;
    const id = (await pageIntent(settings, CHECKOUT))?.id ?? "";
    await sdk.paymentIntents.confirm(id, { payment_method: "pm_card_visa" });
    expect(await manual.charge(completion(id))).toEqual({ kind: "captured", chargeId: id });
    expect(standIn.state.paymentIntents.get(id)?.status).toBe("requires_capture");
  });

  it("an authorization for another total (the checkout changed) is released, not used", async () => {
    const id = (await pageIntent(settings, CHECKOUT))?.id ?? "";
    await sdk.paymentIntents.confirm(id, { payment_method: "pm_card_visa" });
    expect(await processor.charge(completion(id, { amount: 4300 }))).toMatchObject({ kind: "declined" });
    expect(standIn.state.paymentIntents.get(id)?.status).toBe("canceled");
  });

  it("after 3-D Secure in Stripe.js is captured the same way", async () => {
    const id = (await pageIntent(settings, CHECKOUT))?.id ?? "";
    const confirmed = await sdk.paymentIntents.confirm(id, { payment_method: "pm_card_authenticationRequired" });
    expect(confirmed.status).toBe("requires_action");
    expect(await processor.charge(completion(id))).toMatchObject({ kind: "declined" });
    await standIn.handle(new Request(`https://stripe.test/__stand-in/authenticate/${id}`, { method: "POST" }));
    expect(await processor.charge(completion(id))).toEqual({ kind: "captured", chargeId: id });
  });

  it("is declined, charging nothing, when unconfirmed or another checkout's", async () => {
    const id = (await pageIntent(settings, CHECKOUT))?.id ?? "";
    expect(await processor.charge(completion(id))).toMatchObject({ kind: "declined" });
    await sdk.paymentIntents.confirm(id, { payment_method: "pm_card_visa" });
    expect(await processor.charge(completion(id, { checkoutId: "chk_other" }))).toMatchObject({ kind: "declined" });
    expect(await processor.charge(completion(id, { checkoutId: undefined }))).toMatchObject({ kind: "declined" });
    expect(await processor.charge(completion("pi_doesNotExist"))).toMatchObject({ kind: "declined" });
    expect(standIn.state.paymentIntents.size).toBe(1);
    expect(standIn.state.paymentIntents.get(id)?.status).toBe("requires_capture");
  });
});

describe("STRIPE_JS_URL", () => {
  it("defaults to Stripe's own Stripe.js; anything but an http(s) URL is named", () => {
    expect(settings.jsUrl).toBe("https://js.stripe.com/v3");
    expect(buildConfig({ ...VARS, STRIPE_JS_URL: "http://127.0.0.1:9700/v3" }).stripe?.jsUrl).toBe(
      "http://127.0.0.1:9700/v3",
    );
    expect(merchantVarProblems({ STRIPE_JS_URL: "javascript:alert(1)" })).toEqual([
      expect.stringMatching(/^STRIPE_JS_URL: /),
    ]);
  });
});

describe("the card form's Content-Security-Policy", () => {
  it("allows Stripe's script, frames and API, derived from the configured URLs", () => {
    expect(stripeCspSources(settings)).toEqual({
      script: ["https://js.stripe.com", "https://*.js.stripe.com"],
      frame: ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
      connect: ["https://stripe.test"],
    });
    const standInJs = stripeCspSources({ jsUrl: "http://127.0.0.1:9700/v3", apiBase: "http://127.0.0.1:9700" });
    expect(standInJs).toEqual({
      script: ["http://127.0.0.1:9700"],
      frame: ["http://127.0.0.1:9700"],
      connect: ["http://127.0.0.1:9700"],
    });
    const policy = contentSecurityPolicy("n0nce", stripeCspSources({ ...settings, apiBase: "https://api.stripe.com" }));
    expect(policy).toContain("script-src 'nonce-n0nce' https://js.stripe.com https://*.js.stripe.com;");
    expect(policy).toContain("frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com;");
    expect(policy).toContain("connect-src https://api.stripe.com;");
    expect(contentSecurityPolicy("n0nce")).not.toMatch(/stripe|frame-src|connect-src/);
  });
});
