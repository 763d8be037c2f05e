/**
 * npm run catalog:migrate-search -- [--remote] [--env NAME] [--persist-to DIR]
 * Moves a store searched through the KV index (loads before issue 28) onto D1: reads the
 * served catalog's documents, writes them into new search tables in batches with progress,
 * then names the tables in the manifest (same version, same documents): the one switch. A
 * store already on D1 is left as it is; a load that switches the catalog meanwhile wins (the
 * migration's tables are dropped, nothing else changes). Remotely every document is one
 * `wrangler kv key get`: slow for a large store, where `catalog:load` of its file does the same.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import type { Product } from "../schemas/ucp/product";
import { catalogKeys } from "../src/catalog/catalog-keys";
import { type CatalogManifest, KV_KEYS } from "../src/catalog/kv-layout";
import {
  createTablesSql,
  dropTablesSql,
  finishTablesSql,
  insertSql,
  newSearchKey,
  type SearchRows,
  STORE_TABLES_SQL,
  searchRows,
} from "../src/catalog/search-tables";
import { CliError } from "./lib/cli-error";
import { withStores } from "./lib/load";

const USAGE = "usage: npm run catalog:migrate-search -- [--remote] [--env NAME] [--persist-to DIR]";
const root = path.resolve(import.meta.dirname, "..");

function args() {
  try {
    return parseArgs({
      args: process.argv.slice(2),
      options: { remote: { type: "boolean" }, env: { type: "string" }, "persist-to": { type: "string" } },
    }).values;
  } catch (e) {
    throw new CliError(`${(e as Error).message.split("\n")[0]}; ${USAGE}`, 2);
  }
}

const values = args();
const target = {
  remote: values.remote === true,
  ...(values.env ? { env: values.env } : {}),
  ...(values["persist-to"] ? { persistTo: path.resolve(values["persist-to"]) } : {}),
};
const started = Date.now();
const progress = (message: string) => console.log(`  ${message} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
const statements = (sql: readonly string[]) => sql.map((statement) => ({ statement }));

const outcome = await withStores(root, target, async (store, search) => {
  const text = await store.get(KV_KEYS.manifest);
  if (!text) return "No catalog is loaded: nothing to migrate.";
  const manifest = JSON.parse(text) as CatalogManifest;
  if (manifest.search) return `Already searched on D1 (tables ${manifest.search}).`;
  const keys = catalogKeys(manifest);
  const ids = (await store.list(keys.productPrefix)).map((k) => k.slice(keys.productPrefix.length));
  const key = newSearchKey();
  await search.batch(statements([...STORE_TABLES_SQL, ...createTablesSql(key)]));
  let rows: SearchRows[] = [];
  let doc = 0;
  for (const id of ids) {
    const body = await store.get(keys.product(id));
    if (!body) continue;
    rows.push(searchRows(doc++, JSON.parse(body) as Product));
    if (rows.length >= search.rowsPerBatch) {
      await search.batch(insertSql(key, rows));
      rows = [];
      progress(`wrote the search rows of ${doc}/${ids.length} products`);
    }
  }
  if (rows.length > 0) await search.batch(insertSql(key, rows));
  await search.batch(statements(finishTablesSql(key)));
  const now = await store.get(KV_KEYS.manifest);
  if (now !== text) {
    await search.batch(statements(dropTablesSql(key)));
    throw new CliError("the catalog was replaced during the migration (a load switched it); nothing changed", 1);
  }
  await store.put([{ key: KV_KEYS.manifest, value: JSON.stringify({ ...manifest, search: key }) }]);
  return `Moved ${doc} products onto D1 search (tables ${key}); the KV index stays until the next load replaces it.`;
});
console.log(outcome);
