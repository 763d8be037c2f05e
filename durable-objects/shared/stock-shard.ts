/**
 * Where a stock shard (`stock:<variant id>`, docs/inventory.md "Stock shards") starts counting:
 * stores sold before stock was sharded, and the store-wide object knows what is left. A shard
 * with no row for its variant asks it once (its `levels()`: the units a reservation would find
 * there now, counting every unit sold since the catalog load), before its own transaction; the
 * row it then writes wins over the store-wide count as any stored row does.
 */
import { INVENTORY_NAME, STOCK_SHARD_PREFIX, type StockLevel } from "./inventory-plan";

/** What the store-wide object says of one variant now; undefined: it neither counts nor was told a level. */
export interface LegacyStart {
  readonly level: StockLevel;
  readonly restocked: boolean;
}

/** The variant a shard holds, from the object's name; undefined for the store-wide object (or any other). */
export function shardVariant(name: string | undefined): string | undefined {
  return name?.startsWith(STOCK_SHARD_PREFIX) ? name.slice(STOCK_SHARD_PREFIX.length) : undefined;
}

export async function legacyStart(
  env: Pick<Env, "INVENTORY">,
  variantId: string,
  catalogLevel: StockLevel | undefined,
  catalogVersion: string,
): Promise<LegacyStart | undefined> {
  const given = catalogLevel === undefined ? {} : { [variantId]: catalogLevel };
  const answer = await env.INVENTORY.getByName(INVENTORY_NAME).levels([variantId], given, catalogVersion);
  if (!Object.hasOwn(answer.levels, variantId)) return undefined;
  return { level: answer.levels[variantId] ?? null, restocked: answer.restocked.includes(variantId) };
}
