import path from "node:path";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { serveFixtureProfile } from "./fixtures/profile-server.ts";

export default defineConfig({
  plugins: [
    cloudflareTest({
      main: path.join(import.meta.dirname, "../src/index.ts"),
      wrangler: { configPath: path.join(import.meta.dirname, "../wrangler.toml") },
      miniflare: {
        // Tests run as a deployed merchant would: strict profile handling, https origin.
        bindings: {
          PROFILE_FALLBACK: "strict",
          MERCHANT_ORIGIN: "https://shop.example.com",
          ID_SIGNING_KEY: "test-signing-key",
          CART_TTL_HOURS: "72",
        },
        // Every outbound fetch (platform profiles) is answered here: tests never touch the network.
        outboundService: serveFixtureProfile,
      },
    }),
  ],
  server: { fs: { allow: [path.join(import.meta.dirname, "../..")] } },
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/e2e/**", "node_modules/**"],
    setupFiles: [path.join(import.meta.dirname, "helpers/setup.ts")],
  },
});
