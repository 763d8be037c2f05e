/**
 * What a local store serves after a load, read through the Worker's own catalog code:
 *   node scripts/run.mjs bench/catalog-served.ts <persist-dir> <product id>...
 * prints the catalog manifest and, per id, whether lookup_catalog finds it and whether
 * its key is still in KV. Used to check a reload in docs/benchmarks.md.
 */
import path from "node:path";
import type { Message } from "../schemas/ucp/common";
import { openLocalNamespace } from "../scripts/lib/kv-writer";
import { catalogSnapshot } from "../src/catalog/kv-catalog";
import { KV_KEYS } from "../src/catalog/kv-layout";
import { runLookup } from "../src/catalog/lookup";

const [persistTo, ...ids] = process.argv.slice(2);
if (!persistTo || ids.length === 0) throw new Error("usage: bench/catalog-served.ts <persist-dir> <product id>...");
const root = path.resolve(import.meta.dirname, "..");
const { kv, dispose } = await openLocalNamespace(root, { persistTo });
try {
  const namespace = kv as unknown as KVNamespace;
  const snapshot = await catalogSnapshot(namespace, Date.now());
  console.log("manifest", JSON.stringify(snapshot?.manifest ?? null));
  const messages: Message[] = [];
  const found = new Set(
    (await runLookup(namespace, snapshot, { ids }, {}, "https://shop.example", messages)).map((p) => p.id),
  );
  for (const id of ids) {
    const key = (await kv.get(KV_KEYS.product(id))) !== null;
    console.log(`${id}: ${found.has(id) ? "served" : "not served"}, key ${key ? "present" : "absent"}`);
  }
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await namespace.list({ prefix: KV_KEYS.productPrefix, ...(cursor ? { cursor } : {}) });
    count += page.keys.length;
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  console.log(`product keys in KV: ${count}`);
} finally {
  await dispose();
}
