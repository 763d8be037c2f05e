/**
 * End-to-end suite: plain Node (not the workers pool). Each file starts the real local
 * server (`npm start`'s script: demo catalog into local KV, then the built Worker on Miniflare) and talks
 * to it over HTTP, so files run one at a time and time limits are generous.
 */
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: path.resolve(import.meta.dirname, "../.."),
  test: {
    include: ["test/e2e/**/*.e2e.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 90_000,
    teardownTimeout: 30_000,
    fileParallelism: false,
  },
});
