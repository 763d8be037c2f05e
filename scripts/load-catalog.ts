/**
 * npm run catalog:load -- <catalog.json|catalog.csv> [--remote] [--env NAME] [--check]
 * Validates every product (naming each bad one) and writes the catalog to the CATALOG KV
 * namespace: local (the default, what `npm start` serves) or remote (the deployed one).
 */
import path from "node:path";
import { loadIntoKv, readCatalogFile } from "./lib/load";
import { readVars } from "./lib/wrangler-config";

const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const env = option("--env");
const file = args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--env");
if (!file) {
  console.error("usage: npm run catalog:load -- <catalog.json|catalog.csv> [--remote] [--env NAME] [--check]");
  process.exit(2);
}
const vars = {
  ...readVars(path.join(root, "wrangler.toml")),
  ...(env ? readVars(path.join(root, "wrangler.toml"), env) : {}),
};
const currency = vars.MERCHANT_CURRENCY ?? "USD";
const { catalog, problems } = readCatalogFile(path.resolve(file), currency);
if (!catalog) {
  console.error(`${file}: ${problems.length} problem(s); nothing was loaded.`);
  for (const p of problems) console.error(`  ${p.where}: ${p.message}`);
  process.exit(1);
}
console.log(
  `${file}: ${catalog.products.length} products, ${Object.keys(catalog.stock).length} stock levels, all valid.`,
);
if (flag("--check")) process.exit(0);
const remote = flag("--remote");
const version = loadIntoKv(root, catalog, { remote, ...(env ? { env } : {}) });
console.log(`Loaded into ${remote ? "remote" : "local"} KV (catalog version ${version}).`);
