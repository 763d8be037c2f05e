import path from "node:path";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { serveFixtureProfile } from "./fixtures/profile-server.ts";
import { ucpMaterial } from "./helpers/ucp-material.plugin.ts";

export default defineConfig({
  plugins: [
    ucpMaterial(),
    cloudflareTest({
      main: path.join(import.meta.dirname, "../src/index.ts"),
      wrangler: { configPath: path.join(import.meta.dirname, "../wrangler.toml") },
      miniflare: {
        // Tests run as a deployed merchant would: strict profile handling, https origin.
        bindings: {
          PROFILE_FALLBACK: "strict",
          MERCHANT_ORIGIN: "https://shop.example.com",
          ID_SIGNING_KEY: "test-signing-key",
          // The test handler (success_token) is live only in test mode; test/payment/ turns it off.
          PAYMENT_TEST_MODE: "true",
          CART_TTL_HOURS: "72",
          // Profile-fetch deadline (default 4000): test/ucp/profile-fetch.test.ts checks the cut-off
          // at this value. It stays well above the fixture's 300 ms "delayed" profiles.
          PROFILE_FETCH_TIMEOUT_MS: "1500",
          // No local-development exceptions: http and loopback URLs are refused as in production.
          OUTBOUND_ALLOW: "",
        },
        // Anonymous budgets are per client IP, and test/helpers/mcp.ts gives each test file
        // its own; test/auth/rate-limit.test.ts goes past one.
        ratelimits: {
          RATE_LIMIT_ANONYMOUS: { simple: { limit: 200, period: 60 } },
          RATE_LIMIT_AUTHENTICATED: { simple: { limit: 1000, period: 60 } },
        },
        // Every outbound fetch (platform profiles) is answered here: tests never touch the network.
        outboundService: serveFixtureProfile,
      },
    }),
  ],
  test: {
    // A file's first test also pays for loading the Worker into workerd: seconds on a busy CI machine.
    testTimeout: 15_000,
    include: ["test/**/*.test.ts"],
    exclude: ["test/e2e/**", "test/node/**", "test/browser/**", "node_modules/**"],
    setupFiles: [path.join(import.meta.dirname, "helpers/setup.ts")],
    // One file at a time. The credential-burst tests (test/auth/) count against the simulated
    // rate limiter for tens of seconds, and with files in parallel they twice saw 400 charges to
    // one key pass without a 429 in full runs (never alone). Serial, the suite is no slower on
    // two cores: 115 s against 138 s in parallel.
    fileParallelism: false,
  },
});
