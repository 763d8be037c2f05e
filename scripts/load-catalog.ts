/**
 * npm run catalog:load -- <catalog.json|catalog.csv> [--check] [--remote] [--env NAME] [--persist-to DIR] [--grace SECONDS]
 * npm run catalog:load -- --collect [--remote] [--env NAME] [--persist-to DIR] [--grace SECONDS]
 * Validates every product (naming each problem with its file line or product index and its
 * variant id), then writes the catalog as a new version (documents under load:<id>: in the
 * CATALOG KV namespace, search tables in the CATALOG_DB D1 database) and switches the one
 * manifest to it: local (the default, what `npm start` serves; --persist-to as for `wrangler
 * dev`) or remote (the deployed store). Any problem: exit 1 and nothing written. Replaced
 * versions are deleted once --grace seconds (default 90) have passed, by a later load or
 * --collect (src/catalog/catalog-versions.ts).
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { versionStores } from "../src/catalog/catalog-load";
import { collect, GRACE_MS } from "../src/catalog/catalog-versions";
import { CliError } from "./lib/cli-error";
import { validateCatalogFile, withStores, writeCatalog } from "./lib/load";
import { readVars } from "./lib/wrangler-config";

const USAGE =
  "usage: npm run catalog:load -- <catalog.json|catalog.csv>|--collect [--check] [--remote] [--env NAME] [--persist-to DIR] [--grace SECONDS]";
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
        collect: { type: "boolean" },
        grace: { type: "string" },
      },
    });
  } catch (e) {
    throw new CliError(`${(e as Error).message.split("\n")[0]}; ${USAGE}`, 2);
  }
}

const { values, positionals } = args();
const collecting = values.collect === true;
if (collecting ? positionals.length !== 0 : positionals.length !== 1)
  throw new CliError(positionals.length === 0 || collecting ? USAGE : `one file at a time; ${USAGE}`, 2);
if (values.remote && values["persist-to"])
  throw new CliError("--persist-to is for local state; drop it with --remote", 2);
const graceSeconds = values.grace === undefined ? GRACE_MS / 1000 : Number(values.grace);
if (!Number.isFinite(graceSeconds) || graceSeconds < 0)
  throw new CliError(`--grace takes seconds (0 or more); ${USAGE}`, 2);
const graceMs = graceSeconds * 1000;
const env = values.env;
const target = {
  remote: values.remote === true,
  ...(env ? { env } : {}),
  ...(values["persist-to"] ? { persistTo: path.resolve(values["persist-to"]) } : {}),
};
if (collecting) {
  const done = await withStores(root, target, (store, search) =>
    collect(versionStores(store, search), new Date(), graceMs),
  );
  console.log(
    `Collected ${done.versions} replaced catalog version(s) (${done.products} product documents)` +
      (done.waiting > 0 ? `; ${done.waiting} still inside the ${graceSeconds} s grace period.` : "."),
  );
  process.exit(0);
}
const file = positionals[0] as string;
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

const { key, waiting } = await withStores(root, target, (store, search) =>
  writeCatalog(catalog, store, search, currency, progress, { graceMs }),
);
const where = target.remote ? "remote" : "local";
console.log(
  `Loaded ${catalog.products} products into ${where} KV and D1 as version ${key} (catalog version ${catalog.version}), now served` +
    `${waiting > 0 ? `; ${waiting} replaced version(s) are deleted after ${graceSeconds} s (a later load or --collect)` : ""}.`,
);
// The figures docs/benchmarks.md reports, on every load.
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`  ${seconds} s, peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
