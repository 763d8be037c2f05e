/**
 * Browser project: Debian's Chromium driven by playwright-core against the real local server
 * (test/e2e/server.ts), one file at a time, with generous time limits (a page load, an axe
 * run and two screenshots per URL on a shared machine). Without Chromium the files are
 * skipped with one notice, unless UCP_BROWSER_REQUIRED=1 (CI), which fails the run.
 */
import { appendFileSync } from "node:fs";
import path from "node:path";
import { defineConfig, type Plugin } from "vitest/config";
import { findChromium, NO_CHROMIUM_NOTICE } from "./chromium.ts";

function chromiumNotice(env = process.env): Plugin {
  return {
    name: "chromium-notice",
    configResolved() {
      if (findChromium(env)) return;
      if (env.UCP_BROWSER_REQUIRED) {
        throw new Error(
          "UCP_BROWSER_REQUIRED is set, so the browser tests may not be skipped, but no Chromium was found (CHROMIUM_PATH, or chromium / chromium-browser on PATH).",
        );
      }
      if (env.UCP_NOTICE_FILE) appendFileSync(env.UCP_NOTICE_FILE, `${NO_CHROMIUM_NOTICE}\n`);
      else console.warn(NO_CHROMIUM_NOTICE);
    },
  };
}

export default defineConfig({
  root: path.resolve(import.meta.dirname, "../.."),
  plugins: [chromiumNotice()],
  test: {
    include: ["test/browser/**/*.browser.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    fileParallelism: false,
  },
});
