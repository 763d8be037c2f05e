// Converts the merchant CSV catalog format (one row per variant) into UCP
// Product objects shaped like data/demo-catalog.json. Pure: no Node APIs.

export interface CsvRowError {
  row: number;
  message: string;
}

export interface CsvRecord {
  row: number;
  fields: string[];
  error?: string;
}

interface Money {
  amount: number;
  currency: string;
}

interface SelectedOption {
  name: string;
  label: string;
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

const AVAILABILITY = {
  in_stock: true,
  backorder: true,
  preorder: true,
  out_of_stock: false,
  discontinued: false,
} as const;

type Availability = keyof typeof AVAILABILITY;

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
const PRODUCT_FIELDS = ["title", "handle", "description", "categories", "tags", "image_url", "currency"] as const;

type ProductField = (typeof PRODUCT_FIELDS)[number];

// ---------------------------------------------------------------------------
// RFC 4180 tokenizer
// ---------------------------------------------------------------------------

class Tokenizer {
  readonly records: CsvRecord[] = [];
  private fields: string[] = [];
  private field = "";
  private quoted = false;
  private closed = false;
  private error: string | undefined;

  constructor(private readonly src: string) {}

  run(): CsvRecord[] {
    let i = 0;
    while (i < this.src.length) i = this.step(i);
    if (this.field !== "" || this.quoted || this.fields.length > 0) this.endRecord();
    return this.records;
  }

  private step(i: number): number {
    const ch = this.src[i];
    if (this.quoted && !this.closed) return this.stepQuoted(i);
    if (ch === ",") {
      this.endField();
      return i + 1;
    }
    if (ch === "\n" || ch === "\r") {
      this.endRecord();
      return ch === "\r" && this.src[i + 1] === "\n" ? i + 2 : i + 1;
    }
    if (ch === '"' && this.field === "" && !this.quoted) {
      this.quoted = true;
      return i + 1;
    }
    this.stepUnquoted(ch ?? "");
    return i + 1;
  }

  private stepQuoted(i: number): number {
    const ch = this.src[i];
    if (ch !== '"') {
      this.field += ch;
      return i + 1;
    }
    if (this.src[i + 1] === '"') {
      this.field += '"';
      return i + 2;
    }
    this.closed = true;
    return i + 1;
  }

  private stepUnquoted(ch: string): void {
    const column = this.fields.length + 1;
    if (this.closed) {
      // Whitespace after a closing quote is harmless; anything else is malformed.
      if (ch !== " " && ch !== "\t") this.error ??= `unexpected character after closing quote in column ${column}`;
      return;
    }
    if (ch === '"') this.error ??= `unexpected quote inside unquoted field in column ${column}`;
    this.field += ch;
  }

  private endField(): void {
    this.fields.push(this.field);
    this.field = "";
    this.quoted = false;
    this.closed = false;
  }

  private endRecord(): void {
    if (this.quoted && !this.closed) this.error ??= "unterminated quoted field";
    this.endField();
    const record: CsvRecord = { row: this.records.length + 1, fields: this.fields };
    if (this.error !== undefined) record.error = this.error;
    this.records.push(record);
    this.fields = [];
    this.error = undefined;
  }
}

/** Splits CSV text into records; `row` is the 1-based record number (header = 1). */
export function tokenizeCsv(text: string): CsvRecord[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return new Tokenizer(src).run();
}

// ---------------------------------------------------------------------------
// Header
// ---------------------------------------------------------------------------

interface Header {
  width: number;
  index: Map<string, number>;
  /** N of every optionN_name/optionN_value column pair, ascending. */
  options: number[];
}

function readHeader(record: CsvRecord | undefined): Header | CsvRowError[] {
  if (record === undefined) return [{ row: 1, message: "CSV is empty: expected a header row" }];
  if (record.error !== undefined) return [{ row: 1, message: `malformed header: ${record.error}` }];
  const index = new Map<string, number>();
  const errors: CsvRowError[] = [];
  record.fields.forEach((raw, i) => {
    const name = raw.trim().toLowerCase();
    if (index.has(name)) errors.push({ row: 1, message: `duplicate column "${name}" in header` });
    else index.set(name, i);
  });
  for (const column of REQUIRED_COLUMNS) {
    if (!index.has(column)) errors.push({ row: 1, message: `header is missing required column "${column}"` });
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

// ---------------------------------------------------------------------------
// Row validation
// ---------------------------------------------------------------------------

interface ParsedRow {
  row: number;
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

function parseRow(header: Header, record: CsvRecord): ParsedRow | string[] {
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
    row: record.row,
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

// ---------------------------------------------------------------------------
// Grouping rows into products
// ---------------------------------------------------------------------------

interface ProductDraft {
  id: string;
  row: number;
  fields: Record<ProductField, string>;
  optionNames: string[];
  variants: ParsedRow[];
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
    if (seen !== undefined) problems.push(`duplicate variant_id "${row.variantId}" (first used in row ${seen})`);
    const skuSeen = row.sku === "" ? undefined : this.skuRows.get(row.sku);
    if (skuSeen !== undefined) problems.push(`duplicate sku "${row.sku}" (first used in row ${skuSeen})`);
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
    this.variantRows.set(row.variantId, row.row);
    if (row.sku !== "") this.skuRows.set(row.sku, row.row);
    if (draft) {
      draft.variants.push(row);
      return;
    }
    this.handles.set(handleOf(row.product), row.productId);
    this.drafts.set(row.productId, {
      id: row.productId,
      row: row.row,
      fields: { ...row.product, handle: handleOf(row.product) },
      optionNames: row.options.map((o) => o.name),
      variants: [row],
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
      problems.push(`${field} "${value}" conflicts with "${expected}" from row ${draft.row} for product ${draft.id}`);
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
    return [`options (${got}) conflict with (${want}) from row ${draft.row} for product ${draft.id}`];
  }
  const key = comboKey(expected, row.options);
  const twin = draft.variants.find((v) => comboKey(expected, v.options) === key);
  return twin ? [`option combination ${key} is already used by variant ${twin.variantId} (row ${twin.row})`] : [];
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

function toProduct(draft: ProductDraft): ProductOut {
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

function toVariant(row: ParsedRow, fields: Record<ProductField, string>, optionNames: string[]): VariantOut {
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

// ---------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------

/**
 * Parses a catalog CSV (one row per variant). Bad rows are skipped and
 * reported with their 1-based row number (header = row 1, a quoted field
 * spanning several lines still counts as one row). Never throws.
 */
export function parseCatalogCsv(text: string): {
  products: unknown[];
  errors: Array<{ row: number; message: string }>;
} {
  const records = tokenizeCsv(text);
  const header = readHeader(records[0]);
  if (Array.isArray(header)) return { products: [], errors: header };
  const builder = new CatalogBuilder();
  const errors: CsvRowError[] = [];
  for (const record of records.slice(1)) {
    if (isBlank(record)) continue;
    const parsed = parseRow(header, record);
    const problems = Array.isArray(parsed) ? parsed : builder.add(parsed);
    for (const message of problems) errors.push({ row: record.row, message });
  }
  return { products: [...builder.drafts.values()].map(toProduct), errors };
}

function isBlank(record: CsvRecord): boolean {
  return record.error === undefined && record.fields.every((f) => f.trim() === "");
}
