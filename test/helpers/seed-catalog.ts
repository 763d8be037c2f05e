/** Loads the demo catalog into this test file's KV and D1 exactly as the loader would. */
import { env } from "cloudflare:workers";
import demo from "../../data/demo-catalog.json";
import { kvEntries, validateCatalog } from "../../scripts/lib/catalog-file";
import { resetCatalogCache } from "../../src/catalog/kv-catalog";
import { resetServedManifest } from "../../src/catalog/search-served";
import { newSearchKey, writeSearchCatalog } from "../../src/catalog/search-tables";

export async function seedDemoCatalog(doc: unknown = demo, options: { search?: "d1" | "kv" } = {}): Promise<void> {
  const { catalog, problems } = validateCatalog(doc, "USD");
  if (!catalog) throw new Error(`catalog invalid: ${JSON.stringify(problems.slice(0, 3))}`);
  const now = new Date();
  const { data, manifest } = kvEntries(catalog, `test-${crypto.randomUUID()}`, now);
  await Promise.all(data.map(({ key, value }) => env.CATALOG.put(key, value)));
  let value = manifest.value;
  if (options.search !== "kv") {
    // Search tables first, then the manifest naming them: the one switch, as a load makes it.
    const key = newSearchKey();
    await writeSearchCatalog(env.CATALOG_DB, key, catalog.products, now);
    value = JSON.stringify({ ...JSON.parse(value), search: key });
  }
  await env.CATALOG.put(manifest.key, value);
  resetCatalogCache();
  resetServedManifest();
}
