/**
 * Connecting Stripe (docs/payments.md): the settings parsed into config.stripe, the
 * contradictions named by the Worker and check:config, the handlers advertised only when
 * complete and with public config only, and the checkout filter.
 */
import { describe, expect, it } from "vitest";
import { buildConfig } from "../../src/config";
import { stripeVarProblems, stripeVarWarnings, varsForDiscovery } from "../../src/config/stripe";
import { merchantVarProblems } from "../../src/merchant-vars";
import { processorFor } from "../../src/payment/store-processor";
import { handlersForCheckout, stripeHandlers } from "../../src/payment/stripe-handlers";
import { discoveryProfile } from "../../src/ucp/discovery";
import { CURRENT_VERSION, LEGACY_VERSION } from "../../src/ucp/versions";

const SECRET = "sk_test_51SecretValue";
const WEBHOOK = "whsec_SecretToo";
const STORE = {
  MERCHANT_ORIGIN: "https://shop.example.com",
  MERCHANT_NAME: "Example Shop",
  STRIPE_SECRET_KEY: SECRET,
  STRIPE_WEBHOOK_SECRET: WEBHOOK,
  STRIPE_PUBLISHABLE_KEY: "pk_test_51Publishable",
  STRIPE_PROFILE_ID: "profile_test123",
  GOOGLE_PAY_ENVIRONMENT: "TEST",
};

describe("config.stripe", () => {
  it("is undefined without STRIPE_SECRET_KEY, and parsed with defaults with it", () => {
    expect(buildConfig({}).stripe).toBeUndefined();
    const stripe = buildConfig(STORE).stripe;
    expect(stripe).toMatchObject({
      mode: "test",
      apiBase: "https://api.stripe.com",
      capture: "automatic",
      profileId: "profile_test123",
      googlePay: { environment: "TEST", merchantName: "Example Shop" },
    });
    expect(
      buildConfig({ ...STORE, STRIPE_API_BASE: "https://stripe.test/", STRIPE_CAPTURE: "manual" }).stripe,
    ).toMatchObject({
      apiBase: "https://stripe.test",
      capture: "manual",
    });
  });

  it("processorFor: test mode keeps the test processor; Stripe outside it; none without keys", () => {
    const testMode = processorFor(buildConfig({ ...STORE, PAYMENT_TEST_MODE: "true" }));
    expect(Object.keys(testMode?.handlers("https://x.example") ?? {})).toEqual(["example.x.test_payment"]);
    expect(Object.keys(processorFor(buildConfig(STORE))?.handlers("https://shop.example.com") ?? {})).toEqual([
      "com.google.pay",
      "com.stripe.payments",
    ]);
    expect(processorFor(buildConfig({}))).toBeUndefined();
  });
});

describe("settings a merchant gets wrong are named", () => {
  it("formats, never echoing a secret", () => {
    const problems = merchantVarProblems({
      STRIPE_SECRET_KEY: "pk_live_oops",
      STRIPE_WEBHOOK_SECRET: "nope",
      STRIPE_PUBLISHABLE_KEY: "sk_test_oops",
      STRIPE_CAPTURE: "later",
      STRIPE_API_BASE: "api.stripe.com",
      STRIPE_PROFILE_ID: "acct_1",
      GOOGLE_PAY_ENVIRONMENT: "prod",
    });
    expect(problems.map((p) => p.split(":")[0])).toEqual([
      "STRIPE_SECRET_KEY",
      "STRIPE_WEBHOOK_SECRET",
      "STRIPE_PUBLISHABLE_KEY",
      "STRIPE_API_BASE",
      "STRIPE_CAPTURE",
      "STRIPE_PROFILE_ID",
      "GOOGLE_PAY_ENVIRONMENT",
      // Google Pay needs a (valid) publishable key to tokenize for Stripe.
    ]);
    expect(problems.join("\n")).not.toContain("pk_live_oops");
    expect(problems.join("\n")).not.toContain("sk_test_oops");
  });

  it("the issue's contradictions: a live key in test mode; Google Pay PRODUCTION without a merchant id", () => {
    expect(stripeVarProblems({ STRIPE_SECRET_KEY: "sk_live_abc", PAYMENT_TEST_MODE: "true" })).toEqual([
      expect.stringMatching(/^STRIPE_SECRET_KEY: a live key \(sk_live_…\) on a store in test mode/),
    ]);
    expect(
      stripeVarProblems({
        STRIPE_SECRET_KEY: "sk_live_abc",
        STRIPE_PUBLISHABLE_KEY: "pk_live_abc",
        GOOGLE_PAY_ENVIRONMENT: "PRODUCTION",
      }),
    ).toEqual([expect.stringMatching(/^GOOGLE_PAY_MERCHANT_ID: required with GOOGLE_PAY_ENVIRONMENT = "PRODUCTION"/)]);
    // The Worker refuses to serve with them too (merchantConfig runs merchantVarProblems).
    expect(merchantVarProblems({ STRIPE_SECRET_KEY: "sk_live_abc", PAYMENT_TEST_MODE: "true" })).toHaveLength(1);
  });

  it("other contradictions: key modes mixed, Google Pay's environment against the keys, Google Pay without the publishable key", () => {
    expect(stripeVarProblems({ STRIPE_SECRET_KEY: "sk_test_a", STRIPE_PUBLISHABLE_KEY: "pk_live_b" })).toEqual([
      expect.stringMatching(/^STRIPE_PUBLISHABLE_KEY: a live key/),
    ]);
    expect(
      stripeVarProblems({
        STRIPE_SECRET_KEY: "sk_test_a",
        STRIPE_PUBLISHABLE_KEY: "pk_test_b",
        GOOGLE_PAY_ENVIRONMENT: "PRODUCTION",
        GOOGLE_PAY_MERCHANT_ID: "BCR2DN4T",
      }),
    ).toEqual([expect.stringMatching(/^GOOGLE_PAY_ENVIRONMENT: "PRODUCTION" \(real cards\) with Stripe test keys/)]);
    expect(
      stripeVarProblems({
        STRIPE_SECRET_KEY: "sk_live_a",
        STRIPE_PUBLISHABLE_KEY: "pk_live_b",
        GOOGLE_PAY_ENVIRONMENT: "TEST",
      }),
    ).toEqual([expect.stringMatching(/^GOOGLE_PAY_ENVIRONMENT: "TEST"/)]);
    expect(stripeVarProblems({ GOOGLE_PAY_ENVIRONMENT: "TEST" })).toEqual([
      expect.stringMatching(/^STRIPE_PUBLISHABLE_KEY: Google Pay/),
    ]);
    expect(stripeVarProblems(STORE)).toEqual([]);
  });

  it("test keys on a store without PAYMENT_TEST_MODE is a warning (a staging store), not a refusal", () => {
    expect(merchantVarProblems(STORE)).toEqual([]);
    expect(stripeVarWarnings(STORE)).toEqual([
      expect.stringMatching(/^STRIPE_SECRET_KEY: Stripe test keys on a store without PAYMENT_TEST_MODE/),
    ]);
    expect(stripeVarWarnings({ STRIPE_SECRET_KEY: "sk_live_a" })).toEqual([
      expect.stringMatching(/agents are offered no way to pay/),
    ]);
    expect(
      stripeVarWarnings({ ...STORE, STRIPE_SECRET_KEY: "sk_live_a", STRIPE_PUBLISHABLE_KEY: "pk_live_a" }),
    ).toEqual([]);
  });
});

describe("handlers", () => {
  it("each only when complete: Google Pay needs environment, name and publishable key (PRODUCTION: merchant id); Stripe's needs the profile", () => {
    const names = (vars: Record<string, unknown>) =>
      Object.keys(processorFor(buildConfig(vars))?.handlers("https://shop.example.com") ?? {});
    expect(names({ STRIPE_SECRET_KEY: SECRET })).toEqual([]);
    expect(names({ ...STORE, STRIPE_PROFILE_ID: undefined })).toEqual(["com.google.pay"]);
    expect(names({ ...STORE, GOOGLE_PAY_ENVIRONMENT: undefined })).toEqual(["com.stripe.payments"]);
    expect(names({ ...STORE, STRIPE_PUBLISHABLE_KEY: undefined })).toEqual(["com.stripe.payments"]);
    expect(names({ ...STORE, MERCHANT_NAME: undefined, GOOGLE_PAY_MERCHANT_NAME: undefined })).toEqual([
      "com.stripe.payments",
    ]);
    const live = { ...STORE, STRIPE_SECRET_KEY: "sk_live_a", STRIPE_PUBLISHABLE_KEY: "pk_live_a" };
    expect(names({ ...live, GOOGLE_PAY_ENVIRONMENT: "PRODUCTION" })).toEqual(["com.stripe.payments"]);
    expect(names({ ...live, GOOGLE_PAY_ENVIRONMENT: "PRODUCTION", GOOGLE_PAY_MERCHANT_ID: "BCR2DN4T" })).toEqual([
      "com.google.pay",
      "com.stripe.payments",
    ]);
  });

  it("Google Pay's config is Google's shape with Stripe as the gateway; nothing secret anywhere in discovery", () => {
    const config = buildConfig({ ...STORE, GOOGLE_PAY_MERCHANT_NAME: "Example on Google" });
    const registry = stripeHandlers(config.stripe as NonNullable<typeof config.stripe>, config.origin);
    expect(registry["com.google.pay"]?.[0]).toMatchObject({
      id: "google_pay",
      version: "2026-01-23",
      available_instruments: [
        { type: "card", constraints: { brands: ["visa", "mastercard", "amex", "discover", "jcb"] } },
      ],
      config: {
        api_version: 2,
        api_version_minor: 0,
        environment: "TEST",
        merchant_info: { merchant_name: "Example on Google", merchant_origin: "shop.example.com" },
        allowed_payment_methods: [
          {
            type: "CARD",
            tokenization_specification: {
              type: "PAYMENT_GATEWAY",
              parameters: { gateway: "stripe", "stripe:publishableKey": "pk_test_51Publishable" },
            },
          },
        ],
      },
    });
    expect(registry["com.stripe.payments"]?.[0]).toMatchObject({
      id: "stripe_payments",
      config: { profile_id: "profile_test123", environment: "test" },
    });
    for (const version of [CURRENT_VERSION, LEGACY_VERSION] as const) {
      const profile = JSON.stringify(discoveryProfile(config, [], version));
      expect(profile).toContain('"com.google.pay"');
      expect(profile).toContain('"com.stripe.payments"');
      expect(profile).not.toContain("test_payment");
      expect(profile).not.toContain(SECRET);
      expect(profile).not.toContain(WEBHOOK);
      expect(profile).not.toContain("sk_");
    }
    // 2026-08-25 writes the brands as a Constraint Expression.
    const current = discoveryProfile(config, [], CURRENT_VERSION) as unknown as {
      ucp: { payment_handlers: Record<string, Array<{ available_instruments: unknown }>> };
    };
    expect(current.ucp.payment_handlers["com.google.pay"]?.[0]?.available_instruments).toEqual([
      {
        type: "card",
        constraints: { properties: { brand: { enum: ["visa", "mastercard", "amex", "discover", "jcb"] } } },
      },
    ]);
  });

  it("a checkout under Stripe's minimum charge is offered neither Stripe handler; the test handler is untouched", () => {
    const registry = { "com.google.pay": [{ id: "google_pay" }], "com.stripe.payments": [{ id: "stripe_payments" }] };
    expect(Object.keys(handlersForCheckout(registry, { currency: "USD", total: 2599 }))).toEqual([
      "com.google.pay",
      "com.stripe.payments",
    ]);
    expect(handlersForCheckout(registry, { currency: "USD", total: 49 })).toEqual({});
    expect(Object.keys(handlersForCheckout(registry, { currency: "GBP", total: 30 }))).toHaveLength(2);
    const test = { "com.example.shop.test_payment": [{ id: "mock_payment_handler" }] };
    expect(handlersForCheckout(test, { currency: "USD", total: 1 })).toEqual(test);
  });
});

describe("npm run discovery builds from [vars], which never hold the secret key", () => {
  it("a store whose [vars] carry Stripe's public settings advertises the handlers, with no key in the profile", () => {
    const { STRIPE_SECRET_KEY: _secret, STRIPE_WEBHOOK_SECRET: _webhook, ...publicVars } = STORE;
    expect(buildConfig(publicVars).stripe).toBeUndefined();
    const config = buildConfig(varsForDiscovery(publicVars));
    for (const version of [CURRENT_VERSION, LEGACY_VERSION] as const) {
      const profile = JSON.stringify(discoveryProfile(config, [], version));
      expect(profile).toContain('"com.google.pay"');
      expect(profile).toContain('"com.stripe.payments"');
      expect(profile).toContain('"environment":"test"');
      expect(profile).not.toContain("sk_");
      expect(profile).not.toContain("discoveryOnly");
    }
    // Nothing Stripe in [vars]: unchanged (the demo store keeps its test handler only).
    const plain: Record<string, string> = { MERCHANT_NAME: "x" };
    expect(varsForDiscovery(plain)).toBe(plain);
    expect(varsForDiscovery(STORE)).toBe(STORE);
  });
});
