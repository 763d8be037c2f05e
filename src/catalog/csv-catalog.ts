/**
 * The merchant CSV catalog (one row per variant; data/demo-catalog.csv shows the columns)
 * read as a stream of records and grouped into UCP products shaped like data/demo-catalog.json.
 * Every bad row is named with the file line it starts on and its variant id; nothing of a
 * file with a bad row is used.
 */

import type { CsvRecord } from "./csv-records";
import {
  AVAILABILITY,
  type Availability,
  type ParsedRow,
  PRODUCT_FIELDS,
  type ProductField,
  parseRow,
  readHeader,
  type SelectedOption,
  variantIdOf,
} from "./csv-row";

export interface CsvProblem {
  /** File line the row starts on. */
  readonly line: number;
  /** The row's variant id, when it has one. */
  readonly variant?: string;
  readonly message: string;
}

interface Money {
  amount: number;
  currency: string;
}

interface VariantOut {
  id: string;
  sku?: string;
  title: string;
  description: { plain: string };
  price: Money;
  list_price?: Money;
  availability: { available: boolean; status: Availability };
  options?: SelectedOption[];
  stock: number;
}

interface ProductOut {
  id: string;
  handle: string;
  title: string;
  description: { plain: string };
  categories?: Array<{ value: string; taxonomy: "merchant" }>;
  price_range: { min: Money; max: Money };
  list_price_range?: { min: Money; max: Money };
  media?: Array<{ type: "image"; url: string; alt_text: string }>;
  options?: Array<{ name: string; values: Array<{ label: string }> }>;
  variants: VariantOut[];
  tags?: string[];
}
// ---------------------------------------------------------------------------
// Grouping rows into products
// ---------------------------------------------------------------------------

/** A variant row once accepted: its product-level cells live on the draft. */
type VariantRow = Omit<ParsedRow, "product">;

export interface ProductDraft {
  id: string;
  /** Line of the product's first row. */
  line: number;
  fields: Record<ProductField, string>;
  optionNames: string[];
  variants: VariantRow[];
}

class CatalogBuilder {
  readonly drafts = new Map<string, ProductDraft>();
  private readonly variantRows = new Map<string, number>();
  private readonly skuRows = new Map<string, number>();
  private readonly handles = new Map<string, string>();

  /** Returns the reasons the row cannot be accepted; accepts it when there are none. */
  add(row: ParsedRow): string[] {
    const draft = this.drafts.get(row.productId);
    const problems = [...this.duplicates(row), ...(draft ? conflicts(draft, row) : this.newProductProblems(row))];
    if (problems.length > 0) return problems;
    this.accept(row, draft);
    return [];
  }

  private duplicates(row: ParsedRow): string[] {
    const problems: string[] = [];
    const seen = this.variantRows.get(row.variantId);
    if (seen !== undefined) problems.push(`duplicate variant_id "${row.variantId}" (first used on line ${seen})`);
    const skuSeen = row.sku === "" ? undefined : this.skuRows.get(row.sku);
    if (skuSeen !== undefined) problems.push(`duplicate sku "${row.sku}" (first used on line ${skuSeen})`);
    return problems;
  }

  private newProductProblems(row: ParsedRow): string[] {
    const problems: string[] = [];
    for (const column of ["title", "description"] as const) {
      if (row.product[column] === "") problems.push(`missing value for required column "${column}"`);
    }
    if (row.product.title === "") return problems;
    const handle = handleOf(row.product);
    const owner = this.handles.get(handle);
    if (handle === "") problems.push("handle is empty and cannot be derived from the title");
    else if (owner !== undefined) problems.push(`handle "${handle}" is already used by product ${owner}`);
    return problems;
  }

  private accept(row: ParsedRow, draft: ProductDraft | undefined): void {
    this.variantRows.set(row.variantId, row.line);
    if (row.sku !== "") this.skuRows.set(row.sku, row.line);
    const { product: _sameAsDraft, ...variant } = row;
    if (draft) {
      draft.variants.push(variant);
      return;
    }
    this.handles.set(handleOf(row.product), row.productId);
    this.drafts.set(row.productId, {
      id: row.productId,
      line: row.line,
      fields: { ...row.product, handle: handleOf(row.product) },
      optionNames: row.options.map((o) => o.name),
      variants: [variant],
    });
  }
}

function handleOf(fields: Record<ProductField, string>): string {
  return fields.handle !== "" ? fields.handle : slugify(fields.title);
}

function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

// A blank product-level cell on a later row inherits the product's value.
function conflicts(draft: ProductDraft, row: ParsedRow): string[] {
  const problems: string[] = [];
  for (const field of PRODUCT_FIELDS) {
    const value = row.product[field];
    const expected = draft.fields[field];
    if (value !== "" && !sameField(field, value, expected)) {
      problems.push(`${field} "${value}" conflicts with "${expected}" from line ${draft.line} for product ${draft.id}`);
    }
  }
  problems.push(...optionConflicts(draft, row));
  return problems;
}

function sameField(field: ProductField, a: string, b: string): boolean {
  if (field === "categories" || field === "tags") return splitList(a).join("|") === splitList(b).join("|");
  return a === b;
}

function optionConflicts(draft: ProductDraft, row: ParsedRow): string[] {
  const names = row.options.map((o) => o.name);
  const expected = draft.optionNames;
  if (names.length !== expected.length || names.some((n) => !expected.includes(n))) {
    const want = expected.length > 0 ? expected.join(", ") : "no options";
    const got = names.length > 0 ? names.join(", ") : "no options";
    return [`options (${got}) conflict with (${want}) from line ${draft.line} for product ${draft.id}`];
  }
  const key = comboKey(expected, row.options);
  const twin = draft.variants.find((v) => comboKey(expected, v.options) === key);
  return twin ? [`option combination ${key} is already used by variant ${twin.variantId} (line ${twin.line})`] : [];
}

function comboKey(names: string[], options: SelectedOption[]): string {
  return names.map((n) => options.find((o) => o.name === n)?.label ?? "").join(" / ");
}

// ---------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------

function splitList(value: string): string[] {
  return value
    .split("|")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

export function toProduct(draft: ProductDraft): ProductOut {
  const { fields, optionNames } = draft;
  const variants = draft.variants.map((row) => toVariant(row, fields, optionNames));
  const categories = splitList(fields.categories).map((value) => ({ value, taxonomy: "merchant" as const }));
  const tags = [...new Set(splitList(fields.tags).map((t) => t.toLowerCase()))];
  const onSale = variants.some((v) => v.list_price !== undefined);
  // Key order mirrors data/demo-catalog.json so converted output diffs cleanly.
  return {
    id: draft.id,
    handle: fields.handle,
    title: fields.title,
    description: { plain: fields.description },
    ...(categories.length > 0 ? { categories } : {}),
    price_range: priceRange(variants.map((v) => v.price)),
    ...(onSale ? { list_price_range: priceRange(variants.map((v) => v.list_price ?? v.price)) } : {}),
    ...(fields.image_url !== ""
      ? { media: [{ type: "image" as const, url: fields.image_url, alt_text: fields.title }] }
      : {}),
    ...(optionNames.length > 0 ? { options: collectOptions(optionNames, variants) } : {}),
    variants,
    ...(tags.length > 0 ? { tags } : {}),
  };
}

function toVariant(row: VariantRow, fields: Record<ProductField, string>, optionNames: string[]): VariantOut {
  const currency = fields.currency;
  const options = optionNames.map((name) => ({ name, label: row.options.find((o) => o.name === name)?.label ?? "" }));
  const labels = options.map((o) => o.label).join(" / ");
  return {
    id: row.variantId,
    ...(row.sku !== "" ? { sku: row.sku } : {}),
    title: row.variantTitle !== "" ? row.variantTitle : labels || "Default",
    description: { plain: labels !== "" ? `${fields.title} (${labels})` : fields.title },
    price: { amount: row.price, currency },
    ...(row.listPrice !== undefined ? { list_price: { amount: row.listPrice, currency } } : {}),
    availability: { available: AVAILABILITY[row.status], status: row.status },
    ...(options.length > 0 ? { options } : {}),
    stock: row.stock,
  };
}

// reduce rather than Math.min(...spread): a huge product must not overflow the call stack.
function priceRange(prices: Money[]): { min: Money; max: Money } {
  const amounts = prices.map((p) => p.amount);
  const currency = prices[0]?.currency ?? "USD";
  const min = amounts.reduce((x, y) => Math.min(x, y), Number.POSITIVE_INFINITY);
  const max = amounts.reduce((x, y) => Math.max(x, y), 0);
  return { min: { amount: min, currency }, max: { amount: max, currency } };
}

function collectOptions(names: string[], variants: VariantOut[]): NonNullable<ProductOut["options"]> {
  return names.map((name) => {
    const labels: string[] = [];
    for (const v of variants) {
      const label = v.options?.find((o) => o.name === name)?.label;
      if (label !== undefined && !labels.includes(label)) labels.push(label);
    }
    return { name, values: labels.map((label) => ({ label })) };
  });
}

export interface CsvCatalog {
  /** Products by id, in the order of their first row; each becomes a product with toProduct. */
  readonly drafts: ReadonlyMap<string, ProductDraft>;
  readonly problems: CsvProblem[];
  /** Data rows read (blank lines aside), bad ones included. */
  readonly rows: number;
}

/**
 * Reads a catalog CSV's records (csv-records.ts) row by row. `onRows` is called every `every`
 * rows so a long file shows progress. Problems are sorted by line; products with a bad row
 * are still grouped (their good rows), but a caller must not load anything when there are
 * problems.
 */
export async function readCatalogCsv(
  records: AsyncIterable<CsvRecord>,
  onRows?: (rows: number) => void,
  every = 10_000,
): Promise<CsvCatalog> {
  const problems: CsvProblem[] = [];
  const builder = new CatalogBuilder();
  let header: ReturnType<typeof readHeader> | undefined;
  let rows = 0;
  for await (const record of records) {
    if (header === undefined) {
      header = readHeader(record);
      if (Array.isArray(header)) {
        for (const message of header) problems.push({ line: record.line, message });
        return { drafts: new Map(), problems, rows };
      }
      continue;
    }
    if (Array.isArray(header) || isBlank(record)) continue;
    rows++;
    if (onRows && rows % every === 0) onRows(rows);
    const parsed = parseRow(header, record);
    const found = Array.isArray(parsed) ? parsed : builder.add(parsed);
    const variant = record.error === undefined ? variantIdOf(header, record) : "";
    for (const message of found) problems.push({ line: record.line, ...(variant ? { variant } : {}), message });
  }
  if (header === undefined) problems.push({ line: 1, message: "CSV is empty: expected a header row" });
  problems.sort((a, b) => a.line - b.line);
  return { drafts: builder.drafts, problems, rows };
}

/** A row of separators only (`,,,,`), as spreadsheets leave behind: skipped like a blank line. */
function isBlank(record: { fields: string[]; error?: string }): boolean {
  return record.error === undefined && record.fields.every((f) => f.trim() === "");
}
