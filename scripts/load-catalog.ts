/**
 * npm run catalog:load -- <catalog.json|catalog.csv> [--check] [--remote] [--env NAME] [--persist-to DIR]
 * Validates every product (naming each problem with its file line or product index and its
 * variant id), then replaces the catalog in the CATALOG KV namespace: local (the default,
 * what `npm start` serves; --persist-to as for `wrangler dev`) or remote (the deployed
 * one). Any problem: exit 1 and nothing written.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { CliError } from "./lib/cli-error";
import { validateCatalogFile, withKvStore, writeCatalog } from "./lib/load";
import { readVars } from "./lib/wrangler-config";

const USAGE =
  "usage: npm run catalog:load -- <catalog.json|catalog.csv> [--check] [--remote] [--env NAME] [--persist-to DIR]";
const root = path.resolve(import.meta.dirname, "..");

function args() {
  try {
    return parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: {
        check: { type: "boolean" },
        remote: { type: "boolean" },
        env: { type: "string" },
        "persist-to": { type: "string" },
      },
    });
  } catch (e) {
    throw new CliError(`${(e as Error).message.split("\n")[0]}; ${USAGE}`, 2);
  }
}

const { values, positionals } = args();
if (positionals.length !== 1) throw new CliError(positionals.length === 0 ? USAGE : `one file at a time; ${USAGE}`, 2);
if (values.remote && values["persist-to"])
  throw new CliError("--persist-to is for local state; drop it with --remote", 2);
const file = positionals[0] as string;
const env = values.env;
const currency = String(readVars(path.join(root, "wrangler.toml"), env).MERCHANT_CURRENCY ?? "USD");
const started = Date.now();
const progress = (message: string) => console.log(`  ${message} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

const catalog = await validateCatalogFile(file, currency, progress);
if (catalog.problems.length > 0) {
  console.error(`${file}: ${catalog.problems.length} problem(s); nothing was loaded.`);
  for (const p of catalog.problems) console.error(`  ${p.where}: ${p.message}`);
  process.exit(1);
}
console.log(`${file}: ${catalog.products} products, ${catalog.variants} variants, all valid.`);
if (values.check) process.exit(0);

const target = {
  remote: values.remote === true,
  ...(env ? { env } : {}),
  ...(values["persist-to"] ? { persistTo: path.resolve(values["persist-to"]) } : {}),
};
const { removed } = await withKvStore(root, target, (store) => writeCatalog(catalog, store, currency, progress));
const where = target.remote ? "remote" : "local";
console.log(
  `Loaded ${catalog.products} products into ${where} KV (catalog version ${catalog.version})` +
    `${removed > 0 ? `; removed ${removed} products no longer in the file` : ""}.`,
);
// The figures docs/benchmarks.md reports, on every load.
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`  ${seconds} s, peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
