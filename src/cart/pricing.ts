/**
 * Prices requested lines from the catalog (Worker side, before the Durable Object): title,
 * price and availability come from the catalog, never from the request. Problems become
 * messages with a JSONPath; the lines that survive are what the cart will hold.
 */
import { CART_LIMITS, type LineItemRequest } from "../../schemas/ucp/cart";
import type { Message } from "../../schemas/ucp/common";
import type { Product, Variant } from "../../schemas/ucp/product";
import { type NamedCatalog, namedCatalog } from "../catalog/named-catalog";
import { type LiveStock, liveStock } from "../catalog/stock";
import type { MessageCode } from "../ucp/message-codes";
import { quantityUnitMismatch } from "./quantity-unit";

export interface PricedLine {
  /** The line id the platform sent (kept when it names an existing line). */
  readonly requestedId: string | undefined;
  readonly item: { id: string; title: string; price: number; image_url?: string };
  readonly quantity: number;
}

export interface PricingResult {
  readonly lines: PricedLine[];
  readonly messages: Message[];
}

/**
 * Prices lines against the current catalog and the inventory's live counts (what carts and
 * checkouts use): a variant sold out a moment ago is out of stock here, not only at completion.
 */
export async function priceFromCatalog(
  env: Pick<Env, "CATALOG" | "CATALOG_DB" | "INVENTORY">,
  now: number,
  requested: readonly LineItemRequest[],
): Promise<PricingResult> {
  // Only the products the lines name: a D1 catalog's isolate never loads the KV index.
  const snapshot = await namedCatalog(
    env,
    now,
    requested.map((line) => line.item.id),
  );
  const variantIds = resolveAll(snapshot, requested).flatMap((r) => (r?.variantId ? [r.variantId] : []));
  const stock = snapshot ? await liveStock(env, snapshot, variantIds) : { levels: {}, restocked: new Set<string>() };
  return priceLines(snapshot, requested, stock);
}

/**
 * `stock` limits quantities of in-stock variants (backorder and preorder are not limited); a
 * variant the merchant restocked sells though the catalog file said out of stock.
 * Paths of lines that were dropped point into the request (`$.line_items[i]`); paths of
 * kept lines point at the line as returned.
 */
export async function priceLines(
  snapshot: NamedCatalog | null,
  requested: readonly LineItemRequest[],
  stock: LiveStock,
): Promise<PricingResult> {
  const resolved = resolveAll(snapshot, requested);
  const named = [...new Set(resolved.flatMap((r) => (r ? [r.productId] : [])))];
  const products = snapshot ? await snapshot.documents(named) : new Map<string, Product>();
  const lines: PricedLine[] = [];
  const messages: Message[] = [];
  const remaining = new Map<string, number>();
  requested.forEach((line, i) => {
    const at = `$.line_items[${i}]`;
    const target = resolved[i];
    const product = target ? products.get(target.productId) : undefined;
    const variant = product && target ? product.variants[target.variant] : undefined;
    if (!product || !variant) {
      messages.push(error("not_found", `${at}.item.id`, `No item ${line.item.id} in the catalog`));
      return;
    }
    const basis = quantityUnitMismatch(line.item.quantity_unit, `${at}.item.quantity_unit`);
    if (basis) {
      messages.push(basis);
      return;
    }
    if (variant.availability?.available === false && !stock.restocked.has(variant.id)) {
      messages.push(error("out_of_stock", at, `${variant.title} is out of stock`));
      return;
    }
    if (line.quantity < 1) {
      messages.push(error("invalid_quantity", `${at}.quantity`, "Quantity must be at least 1"));
      return;
    }
    let quantity = Math.min(line.quantity, CART_LIMITS.maxLineQuantity);
    const limit = stockLimit(variant, stock.levels, remaining);
    if (limit !== undefined && quantity > limit) quantity = limit;
    if (quantity < 1) {
      messages.push(error("out_of_stock", at, `${variant.title} is out of stock`));
      return;
    }
    if (limit !== undefined) remaining.set(variant.id, limit - quantity);
    if (quantity !== line.quantity) {
      const why = quantity === CART_LIMITS.maxLineQuantity && line.quantity > quantity ? "per line" : "available";
      messages.push({
        type: "warning",
        code: "quantity_adjusted",
        path: `$.line_items[${lines.length}].quantity`,
        content: `Only ${quantity} of ${variant.title} ${why}; quantity set to ${quantity}.`,
      });
    }
    lines.push({ requestedId: line.id, item: itemOf(product, variant), quantity });
  });
  return { lines, messages };
}

function resolveAll(snapshot: NamedCatalog | null, requested: readonly LineItemRequest[]) {
  return requested.map((line) => {
    if (!snapshot) return undefined;
    const { index } = snapshot;
    const ref = index.variantRefs.get(line.item.id);
    // A SKU is not an item id: only variant ids and product ids (for their default variant).
    const doc = ref ? index.docs[ref.doc] : undefined;
    if (ref && doc?.v[ref.variant]?.[0] === line.item.id)
      return { productId: doc.id, variant: ref.variant, variantId: line.item.id };
    const productDoc = index.productIds.get(line.item.id);
    if (productDoc === undefined) return undefined;
    return { productId: line.item.id, variant: 0, variantId: index.docs[productDoc]?.v[0]?.[0] };
  });
}

function stockLimit(variant: Variant, stock: Readonly<Record<string, number>>, remaining: Map<string, number>) {
  const status = variant.availability?.status;
  if (status === "backorder" || status === "preorder") return undefined;
  return remaining.get(variant.id) ?? stock[variant.id];
}

function itemOf(product: Product, variant: Variant): PricedLine["item"] {
  const image = variant.media?.[0]?.url ?? product.media?.[0]?.url;
  const title =
    variant.title && variant.title !== product.title ? `${product.title} - ${variant.title}` : product.title;
  return { id: variant.id, title, price: variant.price.amount, ...(image ? { image_url: image } : {}) };
}

function error(code: MessageCode, path: string, content: string): Message {
  return { type: "error", code, path, content, severity: "recoverable" };
}
