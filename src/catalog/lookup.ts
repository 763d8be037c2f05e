/**
 * lookup_catalog: ids → products, deduplicated, each returned variant carrying the
 * request ids that resolved to it (`inputs`). Unknown ids become info messages.
 */
import type { LookupRequest } from "../../schemas/ucp/catalog";
import type { Message } from "../../schemas/ucp/common";
import type { Product, Variant } from "../../schemas/ucp/product";
import { liveProducts } from "./availability";
import type { CatalogSnapshot } from "./kv-catalog";
import { withVariants } from "./product-view";
import { featuredVariant, type VariantFilter, variantPasses } from "./search-engine";

type Input = { id: string; match: "exact" | "featured" };
type LookupVariant = Variant & { inputs: Input[] };

export async function runLookup(
  kv: KVNamespace,
  snapshot: CatalogSnapshot | null,
  request: LookupRequest,
  filter: VariantFilter,
  origin: string,
  messages: Message[],
  db?: D1Database,
): Promise<Array<Product & { variants: LookupVariant[] }>> {
  // doc index → variant index → request ids that resolved there
  const resolved = new Map<number, Map<number, Input[]>>();
  for (const id of new Set(request.ids)) {
    const target = snapshot ? resolve(snapshot, id, filter) : undefined;
    if (!target) {
      messages.push({ type: "info", code: "not_found", content: id });
      continue;
    }
    const variants = resolved.get(target.doc) ?? new Map<number, Input[]>();
    resolved.set(target.doc, variants);
    const inputs = variants.get(target.variant) ?? [];
    inputs.push({ id, match: target.match });
    variants.set(target.variant, inputs);
  }
  if (!snapshot || resolved.size === 0) return [];
  const docIds = [...resolved.keys()].map((doc) => snapshot.index.docs[doc]?.id ?? "");
  const products = await liveProducts(kv, snapshot, docIds, db);
  const out: Array<Product & { variants: LookupVariant[] }> = [];
  [...resolved.entries()].forEach(([, variants], i) => {
    const product = products.get(docIds[i] ?? "");
    if (!product) return;
    const chosen = [...variants.entries()]
      .sort(([a], [b]) => a - b)
      .flatMap(([variantIndex, inputs]) => {
        const variant = product.variants[variantIndex];
        return variant ? [{ ...variant, inputs }] : [];
      });
    if (chosen.length > 0) out.push(withVariants(product, origin, chosen));
  });
  return out;
}

function resolve(
  snapshot: CatalogSnapshot,
  id: string,
  filter: VariantFilter,
): { doc: number; variant: number; match: Input["match"] } | undefined {
  const { index } = snapshot;
  const docIndex = index.productIds.get(id);
  if (docIndex !== undefined) {
    const doc = index.docs[docIndex];
    const variant = doc ? featuredVariant(doc, filter) : -1;
    return variant >= 0 ? { doc: docIndex, variant, match: "featured" } : undefined;
  }
  const ref = index.variantRefs.get(id);
  if (!ref) return undefined;
  const doc = index.docs[ref.doc];
  return doc && variantPasses(doc, ref.variant, filter) ? { ...ref, match: "exact" } : undefined;
}
