/**
 * Stock levels as loaded with the catalog (`catalog:stock`), cached per catalog version.
 * KV is eventually consistent: these are estimates for carts, never a reservation.
 */
import type { CatalogSnapshot } from "./kv-catalog";
import { KV_KEYS } from "./kv-layout";

let cached: { version: string; stock: Readonly<Record<string, number>> } | undefined;

export async function stockLevels(
  kv: KVNamespace,
  snapshot: CatalogSnapshot,
): Promise<Readonly<Record<string, number>>> {
  const version = snapshot.manifest.version;
  if (cached?.version === version) return cached.stock;
  const stock = (await kv.get<Record<string, number>>(KV_KEYS.stock, "json")) ?? {};
  cached = { version, stock };
  return stock;
}
