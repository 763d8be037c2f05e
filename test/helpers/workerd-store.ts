/**
 * One workerd test project: the Worker and its Durable Objects bound as one store. The main
 * project (test/vitest.config.ts) and the stores bound differently (Stripe, tax-inclusive) differ
 * only in their vars and files, because the Durable Objects read their bindings, not a test's env.
 */
import path from "node:path";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { serveFixtureProfile } from "../fixtures/profile-server.ts";
import { ucpMaterial } from "./ucp-material.plugin.ts";

const root = path.resolve(import.meta.dirname, "../..");

/** The vars every test store starts from: a deployed merchant's, in test mode. */
export const STORE_BINDINGS = {
  // Tests run as a deployed merchant would: strict profile handling, https origin.
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
} as const;

export interface WorkerdStore {
  /** Vars over STORE_BINDINGS. */
  readonly bindings?: Readonly<Record<string, string>>;
  readonly include: string[];
  readonly exclude?: string[];
}

export function workerdStore(store: WorkerdStore) {
  return defineConfig({
    root,
    plugins: [
      ucpMaterial(),
      cloudflareTest({
        main: path.join(root, "src/index.ts"),
        wrangler: { configPath: path.join(root, "wrangler.toml") },
        miniflare: {
          bindings: { ...STORE_BINDINGS, ...store.bindings },
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
      include: store.include,
      ...(store.exclude ? { exclude: store.exclude } : {}),
      setupFiles: [path.join(root, "test/helpers/setup.ts")],
      // One file at a time. The credential-burst tests (test/auth/) count against the simulated
      // rate limiter for tens of seconds, and with files in parallel they twice saw 400 charges to
      // one key pass without a 429 in full runs (never alone). Serial, the suite is no slower on
      // two cores: 115 s against 138 s in parallel.
      fileParallelism: false,
    },
  });
}
