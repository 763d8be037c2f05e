/**
 * npm start [-- wrangler dev flags]: loads the demo catalog into local KV (skipped when
 * unchanged since the last start), then serves the Worker with `wrangler dev` on
 * http://localhost:8787 (PORT overrides). `--persist-to <dir>` moves all local state,
 * catalog included, out of .wrangler/state (the e2e tests use a temporary one).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { prepareDevLaunch } from "./lib/dev-launch";
import { wranglerBin } from "./lib/kv-writer";
import { catalogVersion, loadIntoKv, readCatalogFile } from "./lib/load";
import { readVars } from "./lib/wrangler-config";

const root = path.resolve(import.meta.dirname, "..");
const demo = path.join(root, "data", "demo-catalog.json");
const port = process.env.PORT ?? "8787";
const args = process.argv.slice(2);
const persistIndex = args.indexOf("--persist-to");
const persistTo = persistIndex >= 0 ? args[persistIndex + 1] : undefined;
const marker = path.join(persistTo ? path.resolve(persistTo) : path.join(root, ".wrangler"), "demo-catalog.version");

const currency = readVars(path.join(root, "wrangler.toml")).MERCHANT_CURRENCY ?? "USD";
const { catalog, problems } = readCatalogFile(demo, currency);
if (!catalog) {
  for (const p of problems) console.error(`  ${p.where}: ${p.message}`);
  throw new Error("The demo catalog is invalid");
}
const version = catalogVersion(catalog);
if (!existsSync(marker) || readFileSync(marker, "utf8") !== version) {
  console.log(`Loading the demo catalog (${catalog.products.length} products) into local KV...`);
  loadIntoKv(root, catalog, { remote: false, ...(persistTo ? { persistTo: path.resolve(persistTo) } : {}) });
  mkdirSync(path.dirname(marker), { recursive: true });
  writeFileSync(marker, version);
}

// Discovery and every URL name the origin actually served, not wrangler.toml's MERCHANT_ORIGIN.
const launch = prepareDevLaunch(root, args, port);
console.log(`Serving ${launch.origin} (discovery: ${launch.origin}/.well-known/ucp)`);
const child = spawn(wranglerBin(root), ["dev", "--port", port, ...launch.args, ...args], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
