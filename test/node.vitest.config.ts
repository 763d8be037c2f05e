/**
 * Plain Node project: tests that need no workerd (pure functions, the scripts a merchant
 * runs). They take seconds here instead of a workerd isolate per file.
 */
import path from "node:path";
import { defineConfig } from "vitest/config";
import { ucpMaterial } from "./helpers/ucp-material.plugin.ts";

export default defineConfig({
  root: path.resolve(import.meta.dirname, ".."),
  plugins: [ucpMaterial()],
  test: {
    include: ["test/node/**/*.test.ts"],
    environment: "node",
  },
});
