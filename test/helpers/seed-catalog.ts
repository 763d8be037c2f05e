/** Loads the demo catalog into this test file's KV exactly as the loader would. */
import { env } from "cloudflare:workers";
import demo from "../../data/demo-catalog.json";
import { kvEntries, validateCatalog } from "../../scripts/lib/catalog-file";
import { resetCatalogCache } from "../../src/catalog/kv-catalog";

export async function seedDemoCatalog(doc: unknown = demo): Promise<void> {
  const { catalog, problems } = validateCatalog(doc, "USD");
  if (!catalog) throw new Error(`catalog invalid: ${JSON.stringify(problems.slice(0, 3))}`);
  const { data, manifest } = kvEntries(catalog, `test-${crypto.randomUUID()}`, new Date());
  await Promise.all(data.map(({ key, value }) => env.CATALOG.put(key, value)));
  await env.CATALOG.put(manifest.key, manifest.value);
  resetCatalogCache();
}
