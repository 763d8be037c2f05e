/**
 * Stock levels: as loaded with the catalog (`catalog:stock`, cached per catalog version), and
 * as the variants' stock shards count them now (liveStock), which is what carts and checkouts show.
 */
import { unavailableUnlessCorrupt } from "../lib/storage-unavailable";
import { catalogKeys } from "./catalog-keys";
import type { CatalogManifest } from "./kv-layout";
import { stockVersion } from "./stock-keys";
import { stockLevelsNow } from "./stock-shards";

let cached: { version: string; stock: Readonly<Record<string, number>> } | undefined;

export async function stockLevels(
  kv: KVNamespace,
  snapshot: { readonly manifest: CatalogManifest },
): Promise<Readonly<Record<string, number>>> {
  const version = snapshot.manifest.version;
  if (cached?.version === version) return cached.stock;
  const read = kv
    .get<Record<string, number>>(catalogKeys(snapshot.manifest).stock, "json")
    .catch(unavailableUnlessCorrupt("catalog"));
  const stock = (await read) ?? {};
  cached = { version, stock };
  return stock;
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
  const catalog = await stockLevels(env.CATALOG, snapshot);
  const ids = [...new Set(variantIds)];
  // fromEntries defines own properties, so an id such as "__proto__" stays data.
  const given: Record<string, number> = Object.fromEntries(
    ids.flatMap((id): Array<[string, number]> => {
      const level = Object.hasOwn(catalog, id) ? catalog[id] : undefined;
      return level === undefined ? [] : [[id, level]];
    }),
  );
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
