/** Shapes stored products for responses: composed URLs, chosen variants. Pure. */
import type { Product, Variant } from "../../schemas/ucp/product";

/** The product as stored plus its canonical URL on the merchant's origin. */
export function withUrl(product: Product, origin: string): Product {
  if (product.url || !product.handle) return product;
  return { ...product, url: `${origin}/products/${encodeURIComponent(product.handle)}` };
}

export function withVariants<V extends Variant>(product: Product, origin: string, variants: V[]) {
  return { ...withUrl(product, origin), variants };
}
