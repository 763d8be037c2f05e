/**
 * One row of the merchant CSV catalog (one row per variant): the header's columns and
 * the checks of a single row. Grouping rows into products is csv-catalog.ts.
 */
import type { CsvRecord } from "./csv-records";

export interface SelectedOption {
  name: string;
  label: string;
}

export const AVAILABILITY = {
  in_stock: true,
  backorder: true,
  preorder: true,
  out_of_stock: false,
  discontinued: false,
} as const;

export type Availability = keyof typeof AVAILABILITY;

const REQUIRED_COLUMNS = [
  "product_id",
  "title",
  "description",
  "variant_id",
  "price",
  "currency",
  "availability",
  "stock",
] as const;

// Values every row must carry; title and description may be left blank on
// later rows of a product (they are inherited from its first row).
const REQUIRED_ROW_VALUES = ["product_id", "variant_id", "price", "currency", "availability", "stock"] as const;

// Product-level columns that must agree across all rows of one product.
export const PRODUCT_FIELDS = [
  "title",
  "handle",
  "description",
  "categories",
  "tags",
  "image_url",
  "currency",
] as const;

export type ProductField = (typeof PRODUCT_FIELDS)[number];

export interface Header {
  width: number;
  index: Map<string, number>;
  /** N of every optionN_name/optionN_value column pair, ascending. */
  options: number[];
}

/** The header's columns, or what is wrong with the header (nothing else can be read then). */
export function readHeader(record: CsvRecord | undefined): Header | string[] {
  if (record === undefined) return ["CSV is empty: expected a header row"];
  if (record.error !== undefined) return [`malformed header: ${record.error}`];
  const index = new Map<string, number>();
  const errors: string[] = [];
  record.fields.forEach((raw, i) => {
    const name = raw.trim().toLowerCase();
    if (index.has(name)) errors.push(`duplicate column "${name}" in header`);
    else index.set(name, i);
  });
  for (const column of REQUIRED_COLUMNS) {
    if (!index.has(column)) errors.push(`header is missing required column "${column}"`);
  }
  return errors.length > 0 ? errors : { width: record.fields.length, index, options: optionColumns(index) };
}

function optionColumns(index: Map<string, number>): number[] {
  const out: number[] = [];
  for (const column of index.keys()) {
    const n = /^option(\d+)_name$/.exec(column)?.[1];
    if (n !== undefined && index.has(`option${n}_value`)) out.push(Number(n));
  }
  return out.sort((a, b) => a - b);
}

export interface ParsedRow {
  /** File line the row starts on. */
  line: number;
  productId: string;
  product: Record<ProductField, string>;
  variantId: string;
  sku: string;
  variantTitle: string;
  price: number;
  listPrice: number | undefined;
  status: Availability;
  stock: number;
  options: SelectedOption[];
}

type Cells = (column: string) => string;

function cellsOf(header: Header, fields: string[]): Cells {
  return (column) => {
    const i = header.index.get(column);
    return i === undefined ? "" : (fields[i] ?? "").trim();
  };
}

/** The row's variant id as written, to name the row in a problem even when it is invalid. */
export function variantIdOf(header: Header, record: CsvRecord): string {
  return cellsOf(header, record.fields)("variant_id");
}

export function parseRow(header: Header, record: CsvRecord): ParsedRow | string[] {
  if (record.error !== undefined) return [`malformed CSV: ${record.error}`];
  if (record.fields.length !== header.width) {
    return [`expected ${header.width} fields but found ${record.fields.length}`];
  }
  const cell = cellsOf(header, record.fields);
  const problems = REQUIRED_ROW_VALUES.filter((c) => cell(c) === "").map(
    (c) => `missing value for required column "${c}"`,
  );
  const price = parseInteger(cell("price"), "price", problems, MINOR_UNITS);
  const listPrice = parseInteger(cell("list_price"), "list_price", problems, MINOR_UNITS);
  const stock = parseInteger(cell("stock"), "stock", problems);
  const status = parseAvailability(cell("availability"), problems);
  const currency = parseCurrency(cell("currency"), problems);
  const options = parseOptions(header, cell, problems);
  checkPrices(price, listPrice, problems);
  checkStock(status, stock, problems);
  if (problems.length > 0) return problems;
  return {
    line: record.line,
    productId: cell("product_id"),
    product: {
      title: cell("title"),
      handle: cell("handle"),
      description: cell("description"),
      categories: cell("categories"),
      tags: cell("tags"),
      image_url: cell("image_url"),
      currency,
    },
    variantId: cell("variant_id"),
    sku: cell("sku"),
    variantTitle: cell("variant_title"),
    price: price ?? 0,
    listPrice,
    status: status ?? "in_stock",
    stock: stock ?? 0,
    options,
  };
}

const MINOR_UNITS = " amount in minor units (e.g. 1299 for 12.99)";

function parseInteger(value: string, column: string, problems: string[], hint = ""): number | undefined {
  if (value === "") return undefined;
  const n = Number(value);
  if (/^\d+$/.test(value) && Number.isSafeInteger(n)) return n;
  problems.push(`${column} must be a non-negative integer${hint}, got "${value}"`);
  return undefined;
}

function parseAvailability(value: string, problems: string[]): Availability | undefined {
  if (value === "") return undefined;
  const status = value.toLowerCase();
  if (Object.hasOwn(AVAILABILITY, status)) return status as Availability;
  problems.push(`unknown availability "${value}" (expected one of ${Object.keys(AVAILABILITY).join(", ")})`);
  return undefined;
}

function parseCurrency(value: string, problems: string[]): string {
  const code = value.toUpperCase();
  if (value !== "" && !/^[A-Z]{3}$/.test(code)) {
    problems.push(`currency must be a 3-letter ISO 4217 code, got "${value}"`);
  }
  return code;
}

function parseOptions(header: Header, cell: Cells, problems: string[]): SelectedOption[] {
  const options: SelectedOption[] = [];
  for (const n of header.options) {
    const name = cell(`option${n}_name`);
    const label = cell(`option${n}_value`);
    if (name === "" && label === "") continue;
    if (name === "") problems.push(`option${n}_value is set but option${n}_name is empty`);
    else if (label === "") problems.push(`option${n}_name "${name}" has no option${n}_value`);
    else if (options.some((o) => o.name === name)) problems.push(`option "${name}" is given more than once`);
    else options.push({ name, label });
  }
  return options;
}

function checkPrices(price: number | undefined, listPrice: number | undefined, problems: string[]): void {
  if (price !== undefined && listPrice !== undefined && listPrice <= price) {
    problems.push(`list_price (${listPrice}) must be greater than price (${price})`);
  }
}

function checkStock(status: Availability | undefined, stock: number | undefined, problems: string[]): void {
  if (status === undefined || stock === undefined) return;
  if (status === "in_stock" && stock === 0) problems.push('availability "in_stock" requires stock greater than 0');
  if ((status === "out_of_stock" || status === "backorder") && stock !== 0) {
    problems.push(`availability "${status}" requires stock 0, got ${stock}`);
  }
}
