/**
 * Validates a merchant's catalog (JSON in the UCP product shape, or rows from CSV) and
 * turns it into what the Worker reads from KV. Every bad product is named; nothing is
 * written unless the whole file is valid.
 */
import * as z from "zod";
import { PriceRangeSchema } from "../../schemas/ucp/common";
import { type Product, ProductSchema, VariantSchema } from "../../schemas/ucp/product";
import { type CatalogManifest, KV_KEYS } from "../../src/catalog/kv-layout";
import { buildSearchIndex } from "../../src/catalog/search-index";
import { toJsonPath } from "../../src/lib/json-path";

const MerchantVariantSchema = VariantSchema.extend({
  stock: z.number().int().min(0).optional().describe("Units on hand; kept out of catalog responses."),
});
const MerchantProductSchema = ProductSchema.extend({
  price_range: PriceRangeSchema.optional(),
  variants: z.array(MerchantVariantSchema).min(1),
});

export interface CatalogProblem {
  /** Where: `products[3] (prod_x)` or a CSV row. */
  readonly where: string;
  readonly message: string;
}

export interface ValidCatalog {
  readonly currency: string;
  readonly products: Product[];
  /** variant id → units on hand, for variants that declare stock and are limited by it */
  readonly stock: Record<string, number>;
}

export function validateCatalog(
  doc: unknown,
  storeCurrency: string,
): { catalog?: ValidCatalog; problems: CatalogProblem[] } {
  const problems: CatalogProblem[] = [];
  const rawProducts = Array.isArray(doc) ? doc : (doc as { products?: unknown } | null)?.products;
  if (!Array.isArray(rawProducts)) {
    return { problems: [{ where: "file", message: 'expected {"products": [...]} or an array of products' }] };
  }
  const fileCurrency = (doc as { currency?: unknown }).currency;
  if (typeof fileCurrency === "string" && fileCurrency !== storeCurrency) {
    problems.push({
      where: "file",
      message: `currency ${fileCurrency} differs from the store currency ${storeCurrency}`,
    });
  }
  const products: Product[] = [];
  const stock: Record<string, number> = {};
  const productIds = new Set<string>();
  const variantIds = new Set<string>();
  rawProducts.forEach((raw, i) => {
    const id = (raw as { id?: unknown } | null)?.id;
    const where = `products[${i}]${typeof id === "string" ? ` (${id})` : ""}`;
    const report = (message: string) => problems.push({ where, message });
    const parsed = MerchantProductSchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues.slice(0, 5)) report(`${toJsonPath(issue.path)}: ${issue.message}`);
      return;
    }
    const product = parsed.data;
    if (productIds.has(product.id)) report(`duplicate product id ${product.id}`);
    productIds.add(product.id);
    const before = problems.length;
    for (const [v, variant] of product.variants.entries()) {
      if (variantIds.has(variant.id) || productIds.has(variant.id))
        report(`$.variants[${v}].id: duplicate id ${variant.id}`);
      variantIds.add(variant.id);
      if (variant.price.currency !== storeCurrency)
        report(`$.variants[${v}].price.currency: expected ${storeCurrency}`);
      for (const problem of optionProblems(product, variant)) report(`$.variants[${v}].options: ${problem}`);
    }
    if (problems.length > before) return;
    const { variants, price_range, ...rest } = product;
    const clean = variants.map(({ stock: units, ...variant }) => {
      // Backorder and preorder sell past what is on hand: their stock is not a limit.
      const status = variant.availability?.status;
      if (units !== undefined && status !== "backorder" && status !== "preorder") stock[variant.id] = units;
      return variant;
    });
    const derived = priceRange(clean);
    if (price_range && JSON.stringify(price_range) !== JSON.stringify(derived)) {
      report(
        `$.price_range: does not match the variant prices (expected ${derived.min.amount}..${derived.max.amount})`,
      );
      return;
    }
    products.push({ ...rest, price_range: derived, variants: clean });
  });
  if (problems.length > 0) return { problems };
  return { catalog: { currency: storeCurrency, products, stock }, problems };
}

function optionProblems(
  product: z.infer<typeof MerchantProductSchema>,
  variant: z.infer<typeof MerchantVariantSchema>,
): string[] {
  const options = product.options ?? [];
  const out: string[] = [];
  for (const selected of variant.options ?? []) {
    const option = options.find((o) => o.name === selected.name);
    if (!option) out.push(`option ${selected.name} is not among the product's options`);
    else if (!option.values.some((v) => v.label === selected.label))
      out.push(`${selected.name} has no value ${selected.label}`);
  }
  return out;
}

function priceRange(variants: ReadonlyArray<{ price: { amount: number; currency: string } }>) {
  const amounts = variants.map((v) => v.price.amount);
  const currency = variants[0]?.price.currency ?? "USD";
  return { min: { amount: Math.min(...amounts), currency }, max: { amount: Math.max(...amounts), currency } };
}

/** Key/value pairs for KV: product documents, the search index, stock, and the manifest last. */
export function kvEntries(catalog: ValidCatalog, version: string, now: Date): { data: KvPair[]; manifest: KvPair } {
  const data: KvPair[] = catalog.products.map((p) => ({ key: KV_KEYS.product(p.id), value: JSON.stringify(p) }));
  data.push({ key: KV_KEYS.index, value: JSON.stringify(buildSearchIndex(catalog.products)) });
  data.push({ key: KV_KEYS.stock, value: JSON.stringify(catalog.stock) });
  const manifest: CatalogManifest = {
    version,
    currency: catalog.currency,
    products: catalog.products.length,
    loaded_at: now.toISOString(),
  };
  return { data, manifest: { key: KV_KEYS.manifest, value: JSON.stringify(manifest) } };
}

export interface KvPair {
  key: string;
  value: string;
}
