/**
 * Where a stock shard (`stock:<n>`, docs/inventory.md "Stock shards") starts counting a
 * variant: stores sold before stock was sharded, and the store-wide object knows what is left.
 * A shard asks it once for all the variants of a request it has no row for (its `levels()`:
 * the units a reservation would find there now, counting every unit sold since the catalog
 * load), before its own transaction; the row it then writes wins over the store-wide count as
 * any stored row does.
 */
import { INVENTORY_NAME, STOCK_SHARD_PREFIX, type StockLevel, stockShardName } from "./inventory-plan";

/** What the store-wide object says of one variant now. */
export interface LegacyStart {
  readonly level: StockLevel;
  /** The catalog load that level counts from: the store-wide row's when it is newer than the request's. */
  readonly version: string;
  readonly restocked: boolean;
}

/** Whether an object of this name is a stock shard (otherwise: the store-wide object, or a test's). */
export function isStockShard(name: string | undefined): boolean {
  return name?.startsWith(STOCK_SHARD_PREFIX) === true;
}

/**
 * A shard counts only the variants that hash to it: lines for any other are refused (as
 * invalid input) before anything is read. Any other object's name accepts every line.
 */
export function foreignLines(
  name: string | undefined,
  lines: readonly { variantId: string }[],
): Array<{ path: string; message: string }> | undefined {
  const foreign = lines.find((l) => stockShardName(l.variantId) !== name);
  if (!isStockShard(name) || !foreign) return undefined;
  return [{ path: "lines", message: `${foreign.variantId.slice(0, 200)} is counted by another stock shard` }];
}

/**
 * The store-wide object's view of these variants. `counts: false`: it holds no stock row, so
 * none of them has a start there (and, taking no new reservations, it never will again).
 * Variants it neither counts nor was told a level of are absent from `starts`.
 */
export async function legacyStarts(
  env: Pick<Env, "INVENTORY">,
  variantIds: readonly string[],
  catalogLevels: ReadonlyMap<string, StockLevel>,
  catalogVersion: string,
): Promise<{ counts: boolean; starts: Map<string, LegacyStart> }> {
  const given = Object.fromEntries(
    variantIds.flatMap((v) => (catalogLevels.has(v) ? [[v, catalogLevels.get(v) ?? null]] : [])),
  );
  const answer = await env.INVENTORY.getByName(INVENTORY_NAME).levels([...variantIds], given, catalogVersion);
  const starts = new Map<string, LegacyStart>();
  if (answer.counts === false) return { counts: false, starts };
  for (const v of variantIds) {
    if (Object.hasOwn(answer.levels, v))
      starts.set(v, {
        level: answer.levels[v] ?? null,
        version: answer.versions?.[v] ?? catalogVersion,
        restocked: answer.restocked.includes(v),
      });
  }
  return { counts: true, starts };
}
