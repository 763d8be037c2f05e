/**
 * `npm run geo:table [--check]`: writes src/lib/geo/iso3166-table.ts (country names, aliases
 * and alpha-3 codes for every country; region names for the countries the store taxes by
 * region in the demo settings and wrangler.toml). `--check` only says whether it is current.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CliError } from "./lib/cli-error";
import { buildGeoTable, geoTableModule, regionTaxCountries } from "./lib/geo-table";

const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, "src/lib/geo/iso3166-table.ts");

const countries = regionTaxCountries(path.join(root, "wrangler.toml"));
const text = geoTableModule(buildGeoTable(countries));
if (process.argv.includes("--check")) {
  if (readFileSync(out, "utf8") !== text)
    throw new CliError(`${path.relative(root, out)} is stale: run npm run geo:table`);
  console.log(`${path.relative(root, out)} is current`);
} else {
  writeFileSync(out, text);
  console.log(`wrote ${path.relative(root, out)} (${text.length} bytes; regions for ${countries.join(", ")})`);
}
