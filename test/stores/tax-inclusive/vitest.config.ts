/**
 * The workerd tests of a store whose prices include tax (TAX.prices_include_tax, issue 25):
 * the same Worker and Durable Objects as test/vitest.config.ts, bound with a tax-inclusive
 * TAX (19% VAT in Germany, shipping taxable; California's rate for a region-level case).
 * A configuration of its own because the Durable Objects read their bindings, not a test's env.
 * Files: test/stores/tax-inclusive/*.store-test.ts.
 */
import path from "node:path";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { serveFixtureProfile } from "../../fixtures/profile-server.ts";
import { ucpMaterial } from "../../helpers/ucp-material.plugin.ts";

export const TAX_INCLUSIVE = {
  prices_include_tax: true,
  shipping_taxable: true,
  rates: [
    { country: "DE", rate_bps: 1900, label: "VAT (19%)" },
    { country: "US", region: "CA", rate_bps: 725, label: "California Sales Tax" },
  ],
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
        bindings: {
          PROFILE_FALLBACK: "strict",
          MERCHANT_ORIGIN: "https://shop.example.com",
          ID_SIGNING_KEY: "test-signing-key",
          PAYMENT_TEST_MODE: "true",
          CART_TTL_HOURS: "72",
          PROFILE_FETCH_TIMEOUT_MS: "1500",
          OUTBOUND_ALLOW: "",
          TAX: JSON.stringify(TAX_INCLUSIVE),
        },
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
    include: ["test/stores/tax-inclusive/**/*.store-test.ts"],
    setupFiles: [path.join(root, "test/helpers/setup.ts")],
    fileParallelism: false,
  },
});
