/**
 * `npm run geo:table [--check]`: writes src/lib/geo/iso3166-table.ts (country names, aliases
 * and alpha-3 codes for every country; region names for the countries the store taxes by
 * region in the demo settings and wrangler.toml). `--check` only says whether it is current.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DEMO_COMMERCE_CONFIG, parseCommerceConfig } from "../src/checkout/commerce-config";
import { CliError } from "./lib/cli-error";
import { buildGeoTable, geoTableModule } from "./lib/geo-table";
import { readVars } from "./lib/wrangler-config";

const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, "src/lib/geo/iso3166-table.ts");

const countries = new Set<string>();
for (const [where, vars] of [
  ["the demo settings", DEMO_COMMERCE_CONFIG],
  ["wrangler.toml", readVars(path.join(root, "wrangler.toml"))],
] as const) {
  const parsed = parseCommerceConfig({ TAX: vars.TAX });
  if (!parsed.ok) throw new CliError(`${where}: ${parsed.problems[0]}`);
  for (const rate of parsed.config.tax.rates) if (rate.region !== undefined) countries.add(rate.country);
}
const text = geoTableModule(buildGeoTable([...countries]));
if (process.argv.includes("--check")) {
  if (readFileSync(out, "utf8") !== text)
    throw new CliError(`${path.relative(root, out)} is stale: run npm run geo:table`);
  console.log(`${path.relative(root, out)} is current`);
} else {
  writeFileSync(out, text);
  console.log(
    `wrote ${path.relative(root, out)} (${text.length} bytes; regions for ${[...countries].sort().join(", ")})`,
  );
}
