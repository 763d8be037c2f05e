/**
 * The workerd tests of a store connected to Stripe (issue 24): the same Worker and Durable
 * Objects as test/vitest.config.ts, but bound as a store with Stripe test keys and WITHOUT
 * test mode, so completion, refunds and void go through the Stripe processor and the real SDK,
 * which reaches the stand-in (test/stripe/) on host stripe.test through the outbound service.
 * A second configuration because the Durable Objects read their bindings, not a test's env.
 * Files: test/payment/stripe/*.stripe-test.ts (the main project's *.test.ts does not take them).
 */
import { workerdStore } from "../../helpers/workerd-store.ts";

export const STRIPE_TEST_BINDINGS = {
  // .dev.vars turns test mode on for npm start; this store is not in test mode.
  PAYMENT_TEST_MODE: "false",
  STRIPE_SECRET_KEY: "sk_test_workerdStandIn",
  STRIPE_WEBHOOK_SECRET: "whsec_workerdStandIn",
  STRIPE_PUBLISHABLE_KEY: "pk_test_workerdStandIn",
  STRIPE_API_BASE: "https://stripe.test",
  STRIPE_PROFILE_ID: "profile_workerdStandIn",
  GOOGLE_PAY_ENVIRONMENT: "TEST",
  GOOGLE_PAY_MERCHANT_NAME: "Demo Outfitters",
};

export default workerdStore({
  bindings: STRIPE_TEST_BINDINGS,
  include: ["test/payment/stripe/**/*.stripe-test.ts"],
});
