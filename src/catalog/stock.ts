/**
 * Stock levels: as loaded with the catalog (the stock map's parts, stock-parts.ts, or the one
 * `catalog:stock` value of older loads; cached per catalog version), and as the variants' stock
 * shards count them now (liveStock), which is what carts and checkouts show.
 */
import { Lru } from "../lib/lru";
import { unavailableUnlessCorrupt } from "../lib/storage-unavailable";
import { catalogKeys } from "./catalog-keys";
import type { CatalogManifest } from "./kv-layout";
import { stockVersion } from "./stock-keys";
import { stockPartOf } from "./stock-parts";
import { stockLevelsNow } from "./stock-shards";

/** Parts read by this isolate (~200 KB each): bounded whatever the catalog's size. */
const parts = new Lru<string, Readonly<Record<string, number>>>(32);

/**
 * The catalog's levels of these variants (a variant without one is not limited); without ids,
 * every level (every part: for callers that still take the whole map).
 */
export async function stockLevels(
  kv: KVNamespace,
  snapshot: { readonly manifest: CatalogManifest },
  variantIds?: readonly string[],
): Promise<Record<string, number>> {
  const { manifest } = snapshot;
  const keys = catalogKeys(manifest);
  const count = manifest.stock_parts;
  const keyOf = (id: string) => (count === undefined ? keys.stock : keys.stockPart(stockPartOf(id, count)));
  const wanted =
    variantIds === undefined
      ? count === undefined
        ? [keys.stock]
        : Array.from({ length: count }, (_, i) => keys.stockPart(i))
      : [...new Set(variantIds.map(keyOf))];
  const cacheKey = (key: string) => `${manifest.version}|${key}`;
  const read = new Map<string, Readonly<Record<string, number>>>();
  for (const key of wanted) {
    const hit = parts.get(cacheKey(key));
    if (hit) read.set(key, hit);
  }
  const missing = wanted.filter((key) => !read.has(key));
  // KV reads at most 100 keys at once.
  for (let i = 0; i < missing.length; i += 100) {
    const batch = missing.slice(i, i + 100);
    const got = await kv.get<Record<string, number>>(batch, "json").catch(unavailableUnlessCorrupt("catalog"));
    for (const key of batch) read.set(key, parts.set(cacheKey(key), got.get(key) ?? {}));
  }
  const levels: Record<string, number> = {};
  // defineProperty: an id such as "__proto__" stays data.
  const put = (id: string, level: number) =>
    Object.defineProperty(levels, id, { value: level, enumerable: true, writable: true });
  if (variantIds === undefined) {
    for (const part of read.values()) for (const [id, level] of Object.entries(part)) put(id, level);
    return levels;
  }
  for (const id of variantIds) {
    const part = read.get(keyOf(id)) ?? {};
    const level = Object.hasOwn(part, id) ? part[id] : undefined;
    if (level !== undefined) put(id, level);
  }
  return levels;
}

export interface LiveStock {
  /** Units a reservation would find now; absent = not limited. */
  readonly levels: Readonly<Record<string, number>>;
  /** Variants a merchant restocked: they sell though the catalog file said out of stock. */
  readonly restocked: ReadonlySet<string>;
}

/**
 * One read per variant of one cart or checkout write, to its stock shard, in parallel. If one
 * cannot answer, the catalog's levels stand in (logged): completion still reserves against
 * the object, so nothing oversells; only the early message may be missing.
 */
export async function liveStock(
  env: Pick<Env, "CATALOG" | "INVENTORY">,
  snapshot: { readonly manifest: CatalogManifest },
  variantIds: readonly string[],
): Promise<LiveStock> {
  const ids = [...new Set(variantIds)];
  const given = await stockLevels(env.CATALOG, snapshot, ids);
  if (ids.length === 0) return { levels: given, restocked: new Set() };
  try {
    // Typed by the binding (worker-configuration.d.ts), so this module names no object.
    const live = await stockLevelsNow(env, ids, given, stockVersion(snapshot.manifest));
    const levels: Record<string, number> = Object.fromEntries(
      Object.entries(live.levels).filter((e): e is [string, number] => typeof e[1] === "number"),
    );
    return { levels, restocked: new Set(live.restocked) };
  } catch (error) {
    console.error(JSON.stringify({ event: "inventory_levels_failed", error: String(error) }));
    return { levels: given, restocked: new Set() };
  }
}

/** Test hook. */
export function resetStockLevels(): void {
  parts.clear();
}
