/**
 * Writes a generated catalog (generate-catalog.ts) as a merchant CSV, one row per variant,
 * in the columns of data/demo-catalog.csv: what the loader benchmark and tests feed to
 * `npm run catalog:load`.
 *   node scripts/run.mjs bench/catalog-csv.ts <products> <out.csv> [seed]
 */

import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { generateCatalog } from "./generate-catalog";

export const CSV_COLUMNS = [
  "product_id",
  "handle",
  "title",
  "description",
  "categories",
  "tags",
  "image_url",
  "variant_id",
  "sku",
  "variant_title",
  "price",
  "list_price",
  "currency",
  "option1_name",
  "option1_value",
  "option2_name",
  "option2_value",
  "availability",
  "stock",
] as const;

interface GeneratedProduct {
  id: string;
  handle: string;
  title: string;
  description: { plain: string };
  categories?: Array<{ value: string }>;
  tags?: string[];
  media?: Array<{ url: string }>;
  variants: Array<{
    id: string;
    sku?: string;
    title: string;
    price: { amount: number; currency: string };
    list_price?: { amount: number };
    availability: { status: string };
    options?: Array<{ name: string; label: string }>;
    stock: number;
  }>;
}

export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The CSV rows (header first) of one product per element of `products`. */
export function* catalogCsvLines(products: readonly unknown[]): Generator<string> {
  yield CSV_COLUMNS.join(",");
  for (const raw of products) {
    const p = raw as GeneratedProduct;
    for (const v of p.variants) {
      const [o1, o2] = v.options ?? [];
      const row: Record<(typeof CSV_COLUMNS)[number], string> = {
        product_id: p.id,
        handle: p.handle,
        title: p.title,
        description: p.description.plain,
        categories: (p.categories ?? []).map((c) => c.value).join("|"),
        tags: (p.tags ?? []).join("|"),
        image_url: p.media?.[0]?.url ?? "",
        variant_id: v.id,
        sku: v.sku ?? "",
        variant_title: v.title,
        price: String(v.price.amount),
        list_price: v.list_price ? String(v.list_price.amount) : "",
        currency: v.price.currency,
        option1_name: o1?.name ?? "",
        option1_value: o1?.label ?? "",
        option2_name: o2?.name ?? "",
        option2_value: o2?.label ?? "",
        availability: v.availability.status,
        stock: String(v.stock),
      };
      yield CSV_COLUMNS.map((c) => csvCell(row[c])).join(",");
    }
  }
}

export async function writeCatalogCsv(file: string, count: number, seed = 1): Promise<void> {
  const out = createWriteStream(file);
  for (const line of catalogCsvLines(generateCatalog(count, seed).products)) {
    if (!out.write(`${line}\n`)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

if (process.argv[1]?.endsWith("catalog-csv.ts")) {
  const [count, file, seed] = process.argv.slice(2);
  if (!count || !file) throw new Error("usage: node scripts/run.mjs bench/catalog-csv.ts <products> <out.csv> [seed]");
  await writeCatalogCsv(file, Number(count), seed ? Number(seed) : 1);
}
