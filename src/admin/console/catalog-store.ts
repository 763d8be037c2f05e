/**
 * The CATALOG binding as the shared load writes it (src/catalog/catalog-load.ts), counting
 * operations: a Worker invocation may make at most 1,000 KV operations, so the console
 * refuses a catalog whose writes alone would pass the budget, and when deleting stale keys
 * would, it deletes what fits and says how many are left (unserved: the new index no longer
 * names them; the next load or `catalog:load` removes them).
 */
import type { CatalogStore } from "../../catalog/catalog-load";
import { unavailableUnlessCorrupt } from "../../lib/storage-unavailable";

/** KV operations per invocation, less a margin for the reads around the upload. */
export const KV_OPERATION_BUDGET = 980;
/** Keys in flight at once: KV allows a few dozen concurrent operations per invocation. */
const CONCURRENCY = 32;

export interface BudgetedStore {
  readonly store: CatalogStore;
  /** Stale keys left for a later load once the budget ran out. */
  readonly leftOver: () => number;
}

export function budgetedStore(kv: KVNamespace, budget = KV_OPERATION_BUDGET): BudgetedStore {
  let used = 0;
  let leftOver = 0;
  const store: CatalogStore = {
    async put(pairs) {
      used += pairs.length;
      await inGroups(pairs, (p) => kv.put(p.key, p.value).catch(failed));
    },
    async list(prefix) {
      const keys: string[] = [];
      let cursor: string | undefined;
      do {
        used++;
        const page = await kv.list({ prefix, ...(cursor ? { cursor } : {}) }).catch(failed);
        for (const key of page.keys) keys.push(key.name);
        cursor = page.list_complete ? undefined : page.cursor;
      } while (cursor && used < budget);
      return keys;
    },
    async delete(keys) {
      const room = Math.max(0, budget - used);
      const now = keys.slice(0, room);
      leftOver += keys.length - now.length;
      used += now.length;
      await inGroups(now, (key) => kv.delete(key).catch(failed));
    },
  };
  return { store, leftOver: () => leftOver };
}

/** A write that fails mid-load is the store unavailable: the console asks for the load again (it is safe to repeat). */
const failed = unavailableUnlessCorrupt("catalog");

async function inGroups<T>(items: readonly T[], run: (item: T) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < items.length; start += CONCURRENCY) {
    await Promise.all(items.slice(start, start + CONCURRENCY).map(run));
  }
}
