/**
 * `npm start`'s catalog step: the demo catalog goes into local KV only when the store has
 * no catalog yet, or when asked with `--demo`. A merchant's loaded catalog is never
 * replaced behind their back (a changed data/demo-catalog.json used to do it).
 */
import path from "node:path";
import { CliError } from "./cli-error";
import { hasCatalog, validateCatalogFile, withStores, writeCatalog } from "./load";
import { readVars } from "./wrangler-config";

/** Seeds when due and returns the arguments meant for `wrangler dev` (without --demo). */
export async function seedDemoCatalog(root: string, argv: readonly string[]): Promise<string[]> {
  const demo = argv.includes("--demo");
  const rest = argv.filter((a) => a !== "--demo");
  const persistTo = persistFolder(rest);
  const target = { remote: false, ...(persistTo ? { persistTo: path.resolve(persistTo) } : {}) };
  await withStores(root, target, async (store, search) => {
    if (!demo && (await hasCatalog(store))) {
      console.log("Serving the catalog already in local KV (`npm start -- --demo` replaces it with the demo).");
      return;
    }
    const file = path.join(root, "data", "demo-catalog.json");
    const currency = String(readVars(path.join(root, "wrangler.toml")).MERCHANT_CURRENCY ?? "USD");
    const catalog = await validateCatalogFile(file, currency, () => {});
    if (catalog.problems.length > 0) {
      for (const p of catalog.problems) console.error(`  ${p.where}: ${p.message}`);
      throw new CliError(`${path.relative(root, file)} is invalid (${catalog.problems.length} problems)`);
    }
    console.log(`Loading the demo catalog (${catalog.products} products) into local KV...`);
    await writeCatalog(catalog, store, search, currency, () => {});
  });
  return rest;
}

/** `--persist-to DIR` or `--persist-to=DIR`, as wrangler dev reads it. */
function persistFolder(args: readonly string[]): string | undefined {
  for (const [i, arg] of args.entries()) {
    if (arg === "--persist-to") return args[i + 1];
    if (arg.startsWith("--persist-to=")) return arg.slice("--persist-to=".length);
  }
  return undefined;
}
