/**
 * The workerd tests of a store connected to Stripe (issue 24): the same Worker and Durable
 * Objects as test/vitest.config.ts, but bound as a store with Stripe test keys and WITHOUT
 * test mode, so completion, refunds and void go through the Stripe processor and the real SDK,
 * which reaches the stand-in (test/stripe/) on host stripe.test through the outbound service.
 * A second configuration because the Durable Objects read their bindings, not a test's env.
 * Files: test/payment/stripe/*.stripe-test.ts (the main project's *.test.ts does not take them).
 */
import path from "node:path";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { serveFixtureProfile } from "../../fixtures/profile-server.ts";
import { ucpMaterial } from "../../helpers/ucp-material.plugin.ts";

export const STRIPE_TEST_BINDINGS = {
  PROFILE_FALLBACK: "strict",
  MERCHANT_ORIGIN: "https://shop.example.com",
  ID_SIGNING_KEY: "test-signing-key",
  // .dev.vars turns test mode on for npm start; this store is not in test mode.
  PAYMENT_TEST_MODE: "false",
  CART_TTL_HOURS: "72",
  PROFILE_FETCH_TIMEOUT_MS: "1500",
  OUTBOUND_ALLOW: "",
  STRIPE_SECRET_KEY: "sk_test_workerdStandIn",
  STRIPE_WEBHOOK_SECRET: "whsec_workerdStandIn",
  STRIPE_PUBLISHABLE_KEY: "pk_test_workerdStandIn",
  STRIPE_API_BASE: "https://stripe.test",
  STRIPE_PROFILE_ID: "profile_workerdStandIn",
  GOOGLE_PAY_ENVIRONMENT: "TEST",
  GOOGLE_PAY_MERCHANT_NAME: "Demo Outfitters",
};

const root = path.resolve(import.meta.dirname, "../../..");

export default defineConfig({
  root,
  plugins: [
    ucpMaterial(),
    cloudflareTest({
      main: path.join(root, "src/index.ts"),
      wrangler: { configPath: path.join(root, "wrangler.toml") },
      miniflare: {
        bindings: STRIPE_TEST_BINDINGS,
        ratelimits: {
          RATE_LIMIT_ANONYMOUS: { simple: { limit: 200, period: 60 } },
          RATE_LIMIT_AUTHENTICATED: { simple: { limit: 1000, period: 60 } },
        },
        outboundService: serveFixtureProfile,
      },
    }),
  ],
  test: {
    // A file's first test also pays for loading the Worker into workerd: seconds on a busy CI machine.
    testTimeout: 15_000,
    include: ["test/payment/stripe/**/*.stripe-test.ts"],
    setupFiles: [path.join(root, "test/helpers/setup.ts")],
    fileParallelism: false,
  },
});
