/**
 * How stock is addressed, by the Worker and by the InventoryObject alike: the one object of
 * a deployment, and the catalog load a count is from (docs/inventory.md "Levels and catalog
 * versions"). Values both sides need, so they live on the domain side.
 */

/** The single inventory object of a deployment (one merchant per deployment). */
export const INVENTORY_NAME = "inventory";

/** The catalogVersion the inventory takes: load time first, then the content hash, so string order is load order. */
export function stockVersion(manifest: { readonly loaded_at: string; readonly version: string }): string {
  return `${manifest.loaded_at}/${manifest.version}`;
}
