/**
 * Validates a merchant's products (JSON in the UCP product shape, or grouped CSV rows)
 * one at a time and turns each into what the Worker serves. The caller names where a
 * problem is (a JSON product index or a CSV file line); nothing is written unless the
 * whole file is valid.
 */
import * as z from "zod";
import { PriceRangeSchema } from "../../schemas/ucp/common";
import { type Product, ProductSchema, VariantSchema } from "../../schemas/ucp/product";
import { toJsonPath } from "../lib/json-path";
import { LONGEST_PRODUCT_KEY_PREFIX } from "./catalog-keys";
import { type CatalogManifest, KV_KEYS } from "./kv-layout";
import { buildSearchIndex } from "./search-index";

const MerchantVariantSchema = VariantSchema.extend({
  stock: z.number().int().min(0).optional().describe("Units on hand; kept out of catalog responses."),
});
const MerchantProductSchema = ProductSchema.extend({
  price_range: PriceRangeSchema.optional(),
  variants: z.array(MerchantVariantSchema).min(1),
});
type MerchantProduct = z.infer<typeof MerchantProductSchema>;

export interface CatalogProblem {
  /** Where: `products[3] (prod_x), variant var_y` for JSON, `line 12 (var_y)` for CSV. */
  readonly where: string;
  readonly message: string;
}

/** A problem inside one product: `variant` is the index in its variants when it is about one. */
export interface ProductProblem {
  readonly variant?: number;
  readonly message: string;
}

/**
 * Checks products one by one, remembering ids across them (duplicates are problems) and
 * collecting stock levels. Holds no product: a catalog streams through it.
 */
export class CatalogValidator {
  private readonly productIds = new Set<string>();
  private readonly variantIds = new Set<string>();
  /** variant id → units on hand, for variants that declare stock and are limited by it */
  readonly stock: Record<string, number> = {};

  constructor(readonly currency: string) {}

  /** The product as served, or every problem found in it. */
  check(raw: unknown): { product: Product; problems?: undefined } | { problems: ProductProblem[] } {
    const parsed = MerchantProductSchema.safeParse(raw);
    if (!parsed.success) {
      return {
        problems: parsed.error.issues.slice(0, 5).map((issue) => ({
          ...(issue.path[0] === "variants" && typeof issue.path[1] === "number" ? { variant: issue.path[1] } : {}),
          message: `${toJsonPath(issue.path)}: ${issue.message}`,
        })),
      };
    }
    const product = parsed.data;
    const problems: ProductProblem[] = [];
    const productKey = keyOverflow(LONGEST_PRODUCT_KEY_PREFIX, product.id);
    if (productKey)
      problems.push({ message: `$.id: ${productKey.bytes} bytes; ids can be at most ${productKey.max} bytes` });
    if (this.productIds.has(product.id) || this.variantIds.has(product.id))
      problems.push({ message: `duplicate product id ${product.id}` });
    this.productIds.add(product.id);
    for (const [v, variant] of product.variants.entries()) {
      const report = (message: string) => problems.push({ variant: v, message: `$.variants[${v}].${message}` });
      if (this.variantIds.has(variant.id) || this.productIds.has(variant.id)) report(`id: duplicate id ${variant.id}`);
      const variantKey = keyOverflow(KV_KEYS.variantAvailabilityPrefix, variant.id);
      if (variantKey) report(`id: ${variantKey.bytes} bytes; variant ids can be at most ${variantKey.max} bytes`);
      this.variantIds.add(variant.id);
      if (variant.price.currency !== this.currency) report(`price.currency: expected ${this.currency}`);
      for (const problem of optionProblems(product, variant)) report(`options: ${problem}`);
    }
    if (problems.length > 0) return { problems };
    const served = toServed(product);
    if ("problem" in served) return { problems: [{ message: served.problem }] };
    for (const variant of product.variants) {
      // Backorder and preorder sell past what is on hand: their stock is not a limit.
      const status = variant.availability?.status;
      if (variant.stock !== undefined && status !== "backorder" && status !== "preorder")
        this.stock[variant.id] = variant.stock;
    }
    return { product: served.product };
  }
}

/** KV refuses keys over 512 bytes, and it would refuse them mid-load, after other writes. */
const KV_KEY_BYTES = 512;
const utf8 = new TextEncoder();

/** An id too long to follow `prefix` in a KV key: its size, and the most the prefix leaves. */
function keyOverflow(prefix: string, id: string): { bytes: number; max: number } | undefined {
  const max = KV_KEY_BYTES - utf8.encode(prefix).byteLength;
  const bytes = utf8.encode(id).byteLength;
  return bytes > max ? { bytes, max } : undefined;
}

/** The served form of a product already checked by a CatalogValidator (a second pass). */
export function servedProduct(raw: unknown): Product {
  const served = toServed(MerchantProductSchema.parse(raw));
  if ("problem" in served) throw new Error(served.problem);
  return served.product;
}

function toServed(product: MerchantProduct): { product: Product } | { problem: string } {
  const { variants, price_range, ...rest } = product;
  const clean = variants.map(({ stock: _units, ...variant }) => variant);
  const derived = priceRange(clean);
  if (price_range && JSON.stringify(price_range) !== JSON.stringify(derived)) {
    return {
      problem: `$.price_range: does not match the variant prices (expected ${derived.min.amount}..${derived.max.amount})`,
    };
  }
  return { product: { ...rest, price_range: derived, variants: clean } };
}

function optionProblems(product: MerchantProduct, variant: MerchantProduct["variants"][number]): string[] {
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
  // reduce, not Math.min(...): a product with very many variants must not overflow the stack.
  const min = amounts.reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
  const max = amounts.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);
  return { min: { amount: min, currency }, max: { amount: max, currency } };
}

/** The products of a parsed JSON catalog document, or why it is not one. */
export function jsonProducts(
  doc: unknown,
  storeCurrency: string,
): { products?: unknown[]; problems: CatalogProblem[] } {
  const products = Array.isArray(doc) ? doc : (doc as { products?: unknown } | null)?.products;
  if (!Array.isArray(products)) {
    return { problems: [{ where: "file", message: 'expected {"products": [...]} or an array of products' }] };
  }
  const fileCurrency = (doc as { currency?: unknown }).currency;
  if (typeof fileCurrency === "string" && fileCurrency !== storeCurrency) {
    const message = `currency ${fileCurrency} differs from the store currency ${storeCurrency}`;
    return { products, problems: [{ where: "file", message }] };
  }
  return { products, problems: [] };
}

/** How a JSON product (index i) and one of its variants are named in a problem. */
export function jsonWhere(raw: unknown, i: number, variant?: number): string {
  const product = raw as { id?: unknown; variants?: Array<{ id?: unknown }> } | null;
  const id = typeof product?.id === "string" ? ` (${product.id})` : "";
  const variantId = variant === undefined ? undefined : product?.variants?.[variant]?.id;
  return `products[${i}]${id}${typeof variantId === "string" ? `, variant ${variantId}` : ""}`;
}

export interface ValidCatalog {
  readonly currency: string;
  readonly products: Product[];
  readonly stock: Record<string, number>;
}

/**
 * A whole JSON catalog document validated in memory: for tests and the benchmark, which
 * seed KV themselves. The loader streams through CatalogValidator instead (load.ts).
 */
export function validateCatalog(
  doc: unknown,
  storeCurrency: string,
): { catalog?: ValidCatalog; problems: CatalogProblem[] } {
  const { products: raws, problems } = jsonProducts(doc, storeCurrency);
  if (!raws) return { problems };
  const validator = new CatalogValidator(storeCurrency);
  const products: Product[] = [];
  for (const [i, raw] of raws.entries()) {
    const result = validator.check(raw);
    if (result.problems)
      for (const p of result.problems) problems.push({ where: jsonWhere(raw, i, p.variant), message: p.message });
    else products.push(result.product);
  }
  if (problems.length > 0) return { problems };
  return { catalog: { currency: storeCurrency, products, stock: validator.stock }, problems };
}

/** Key/value pairs for KV as a load writes them: documents, index and stock, the manifest last. */
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
