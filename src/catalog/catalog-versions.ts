/**
 * Catalog versions written by `catalog:load` (issue 27 item 3, issue 28): each load writes
 * under its own keys (`load:<id>:`, catalog-keys.ts) and D1 search tables (search-tables.ts,
 * key <id>), then the manifest names both: the one switch. The replaced version is recorded in
 * `catalog:retired` and collected once no isolate can still be serving it (GRACE_MS: isolates
 * re-read the manifest every 30 s and KV caches up to 60 s), by a later load or `--collect`.
 */
import { keysUnder, LOAD_KEY_PREFIX } from "./catalog-keys";
import { type CatalogManifest, KV_KEYS } from "./kv-layout";

export const RETIRED_KEY = "catalog:retired";
/** As the console's loads wait before cleaning (catalog-job.ts CLEAN_DELAY_MS). */
export const GRACE_MS = 90_000;

export interface RetiredVersion {
  /** Its key prefix ("" for today's unprefixed layout). */
  readonly keys: string;
  /** Its D1 search tables' key, when it had them. */
  readonly search: string | null;
  readonly retired_at: string;
}

/** What a collection needs of KV and D1 (the loader's local or remote stores). */
export interface VersionStores {
  get(key: string): Promise<string | null>;
  put(pairs: ReadonlyArray<{ key: string; value: string }>): Promise<void>;
  list(prefix: string): Promise<string[]>;
  delete(keys: readonly string[]): Promise<void>;
  dropSearch(key: string): Promise<void>;
}

export async function retiredVersions(stores: VersionStores): Promise<RetiredVersion[]> {
  const text = await stores.get(RETIRED_KEY);
  if (!text) return [];
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? (parsed as RetiredVersion[]) : [];
  } catch {
    return [];
  }
}

/** Records the version a new manifest replaced (nothing for the same keys or no catalog). */
export async function retire(stores: VersionStores, previous: CatalogManifest | null, now: Date): Promise<void> {
  if (!previous) return;
  const entry: RetiredVersion = {
    keys: previous.keys ?? "",
    search: previous.search ?? null,
    retired_at: now.toISOString(),
  };
  const list = (await retiredVersions(stores)).filter((r) => r.keys !== entry.keys);
  await stores.put([{ key: RETIRED_KEY, value: JSON.stringify([...list, entry]) }]);
}

export interface Collected {
  readonly versions: number;
  readonly products: number;
  /** Retired versions still inside their grace period. */
  readonly waiting: number;
}

/**
 * Deletes the keys and search tables of versions retired at least `graceMs` ago, never the
 * served one. Safe to repeat: a collection that stopped halfway finishes on the next run.
 */
export async function collect(stores: VersionStores, now: Date, graceMs = GRACE_MS): Promise<Collected> {
  const manifestText = await stores.get(KV_KEYS.manifest);
  const served = manifestText ? (JSON.parse(manifestText) as CatalogManifest) : null;
  const servedKeys = served?.keys ?? "";
  const list = await retiredVersions(stores);
  const keep: RetiredVersion[] = [];
  let versions = 0;
  let products = 0;
  for (const entry of list) {
    const served = entry.keys === servedKeys;
    if (!served && now.getTime() - Date.parse(entry.retired_at) < graceMs) {
      keep.push(entry);
      continue;
    }
    if (!served) {
      products += await deleteVersionKeys(stores, entry.keys);
      if (entry.search) await stores.dropSearch(entry.search);
      versions++;
    }
  }
  if (list.length > 0) await stores.put([{ key: RETIRED_KEY, value: JSON.stringify(keep) }]);
  return { versions, products, waiting: keep.length };
}

async function deleteVersionKeys(stores: VersionStores, prefix: string): Promise<number> {
  const keys = keysUnder(prefix);
  // Today's layout has no prefix of its own: its documents, index values and stock map.
  const doomed =
    prefix === ""
      ? [
          ...(await stores.list(KV_KEYS.productPrefix)),
          ...(await stores.list(KV_KEYS.index)),
          ...(await stores.list(KV_KEYS.stock)),
        ]
      : prefix.startsWith(LOAD_KEY_PREFIX)
        ? await stores.list(prefix)
        : [];
  for (let start = 0; start < doomed.length; start += 5_000) await stores.delete(doomed.slice(start, start + 5_000));
  return doomed.filter((k) => k.startsWith(keys.productPrefix)).length;
}
