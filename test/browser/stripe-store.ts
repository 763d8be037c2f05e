/**
 * A local store that charges through Stripe, for browser tests: the Stripe stand-in
 * (test/stripe/server.ts) with Stripe.js at its /v3, the real local server pointed at it (no
 * test mode), Chromium, and browser contexts that reach only the store and the stand-in
 * (anything else, like catalog images on example hosts, is refused at once).
 */
import { type Browser, type BrowserContext, chromium } from "playwright-core";
import { type LocalServer, startServer } from "../e2e/server";
import { type RunningStandIn, startStripeStandIn } from "../stripe/server";
import { findChromium } from "./chromium";

export interface StripeStore {
  readonly stripe: RunningStandIn;
  readonly server: LocalServer;
  readonly browser: Browser;
  context(options?: {
    javaScriptEnabled?: boolean;
    viewport?: { width: number; height: number };
  }): Promise<BrowserContext>;
  /** The stand-in's PaymentIntents for one checkout (by metadata ucp_checkout_id). */
  intentsOf(checkoutId: string): ReturnType<RunningStandIn["standIn"]["state"]["paymentIntents"]["get"]>[];
  stop(): Promise<void>;
}

/** `name` keys the Stripe credentials (one stand-in account per test file); `vars` go over the store's. */
export async function startStripeStore(
  name: string,
  vars: Readonly<Record<string, string>> = {},
): Promise<StripeStore> {
  const stripe = await startStripeStandIn();
  const executablePath = findChromium();
  if (!executablePath) throw new Error("no Chromium");
  const [server, browser] = await Promise.all([
    startServer({
      vars: {
        PAYMENT_TEST_MODE: "false",
        STRIPE_SECRET_KEY: `sk_test_${name}`,
        STRIPE_PUBLISHABLE_KEY: `pk_test_${name}`,
        STRIPE_PROFILE_ID: `profile_${name}`,
        STRIPE_API_BASE: stripe.url,
        STRIPE_JS_URL: `${stripe.url}/v3`,
        // Google Pay offered too: agents pay with its tokens, charged through Stripe.
        GOOGLE_PAY_ENVIRONMENT: "TEST",
        GOOGLE_PAY_MERCHANT_NAME: "Demo Outfitters",
        ...vars,
      },
    }),
    chromium.launch({ executablePath, args: ["--no-sandbox"] }),
  ]);
  const allowed = new Set([new URL(server.baseUrl).origin, stripe.url]);
  return {
    stripe,
    server,
    browser,
    async context(options = {}) {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
      await ctx.route(
        (url) => !allowed.has(url.origin),
        (route) => route.abort("blockedbyclient"),
      );
      return ctx;
    },
    intentsOf: (checkoutId) =>
      [...stripe.standIn.state.paymentIntents.values()].filter((pi) => pi.metadata.ucp_checkout_id === checkoutId),
    async stop() {
      await browser.close();
      await server.stop();
      await stripe.stop();
    },
  };
}
