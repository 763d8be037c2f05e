/**
 * What the catalog says about an order's lines for its merchant: each variant's SKU (the
 * packing slip's and the items table's) and the units in stock now, as the stock shards count
 * them (so a restock shows at once). A variant gone from the catalog has neither; a store whose
 * catalog or inventory cannot answer shows the order without them, never an error.
 */
import { namedCatalog } from "../../catalog/named-catalog";
import { liveStock } from "../../catalog/stock";

export interface LineFacts {
  readonly sku?: string;
  /** Units in stock now; undefined: not counted (backorder, untracked) or unknown. */
  readonly stock?: number;
}

export async function lineFacts(env: Env, variantIds: readonly string[]): Promise<Map<string, LineFacts>> {
  const facts = new Map<string, LineFacts>();
  try {
    const snapshot = await namedCatalog(env, Date.now(), variantIds);
    if (!snapshot) return facts;
    const live = await liveStock(env, snapshot, variantIds);
    for (const id of variantIds) {
      const ref = snapshot.index.variantRefs.get(id);
      const variant = ref ? snapshot.index.docs[ref.doc]?.v[ref.variant] : undefined;
      const sku = variant?.[0] === id ? variant[1] : undefined;
      const stock = Object.hasOwn(live.levels, id) ? live.levels[id] : undefined;
      facts.set(id, { ...(sku ? { sku } : {}), ...(stock !== undefined ? { stock } : {}) });
    }
  } catch (error) {
    console.error(JSON.stringify({ event: "order_line_facts_failed", error: String(error) }));
  }
  return facts;
}
