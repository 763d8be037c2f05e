#!/usr/bin/env node
// Runs a TypeScript script on Node 20 (no native type stripping): esbuild bundles it,
// then it is imported. Usage: node scripts/run.mjs <file.ts> [args...]
import { mkdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error("usage: node scripts/run.mjs <file.ts> [args...]");
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, "..");
const outdir = path.join(root, "node_modules", ".cache", "ucp-scripts");
mkdirSync(outdir, { recursive: true });
const outfile = path.join(outdir, `${path.basename(entry, ".ts")}-${process.pid}.mjs`);
await build({
  entryPoints: [path.resolve(entry)],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  logLevel: "warning",
  // The bundle lives under node_modules/.cache; scripts locate the project from their own folder.
  define: { "import.meta.dirname": JSON.stringify(path.dirname(path.resolve(entry))) },
});
process.argv = [process.argv[0], path.resolve(entry), ...args];
try {
  await import(pathToFileURL(outfile).href);
} catch (e) {
  // A CliError (scripts/lib/cli-error.ts) is the user's to fix: one line, no stack trace.
  if (e?.name !== "CliError") throw e;
  console.error(`error: ${e.message}`);
  process.exit(e.exitCode ?? 1);
}
