/**
 * How stock is addressed, by the Worker and by the InventoryObject alike: the objects of a
 * deployment, and the catalog load a count is from (docs/inventory.md "Levels and catalog
 * versions"). Values both sides need, so they live on the domain side.
 */

/**
 * The store-wide inventory object of a deployment. Since issue 14 it takes no new
 * reservations: it holds the ones made before stock was sharded (releases still reach it) and
 * the counts a shard starts from (docs/inventory.md "Stock shards").
 */
export const INVENTORY_NAME = "inventory";

/** Names of the per-variant inventory objects (same class): `stock:<variant id>`. State: never rename. */
export const STOCK_SHARD_PREFIX = "stock:";

export function stockShardName(variantId: string): string {
  return `${STOCK_SHARD_PREFIX}${variantId}`;
}

/** The catalogVersion the inventory takes: load time first, then the content hash, so string order is load order. */
export function stockVersion(manifest: { readonly loaded_at: string; readonly version: string }): string {
  return `${manifest.loaded_at}/${manifest.version}`;
}
