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

/** Names of the stock shards (same class as the store-wide object): `stock:<n>`. State: never rename. */
export const STOCK_SHARD_PREFIX = "stock:";

/**
 * How many stock shards a deployment has. State: never change. A variant's shard is this
 * count's remainder of its id's hash, so another count moves variants between objects and
 * their stored counts and holds would stay behind: it needs a migration, not an edit.
 * 64: enough that hot products rarely share a thread on Cloudflare (one per object), few
 * enough that a store's objects stay warm and a catalog page wakes at most 64 of them.
 */
export const STOCK_SHARDS = 64;

/** The shard that counts a variant: `stock:<FNV-1a 32-bit of the id's UTF-8 mod STOCK_SHARDS>`. */
export function stockShardName(variantId: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(variantId)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return `${STOCK_SHARD_PREFIX}${hash % STOCK_SHARDS}`;
}

/** The catalogVersion the inventory takes: load time first, then the content hash, so string order is load order. */
export function stockVersion(manifest: { readonly loaded_at: string; readonly version: string }): string {
  return `${manifest.loaded_at}/${manifest.version}`;
}
