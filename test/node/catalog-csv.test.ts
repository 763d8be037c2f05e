/// <reference types="vite/client" />
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CSV_COLUMNS as COLUMNS } from "../../bench/catalog-csv";
import { generateCatalog } from "../../bench/generate-catalog";
import csv from "../../data/demo-catalog.csv?raw";
import { readCatalogCsv, toProduct } from "../../scripts/lib/catalog-csv";
import { readCsvRecords } from "../../scripts/lib/csv-records";

// The reader streams files: each sample is written to one first.
const dir = mkdtempSync(path.join(tmpdir(), "ucp-catalog-csv-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
function fileWith(text: string): string {
  const file = path.join(dir, `sample-${++files}.csv`);
  writeFileSync(file, text);
  return file;
}

/** Products and problems as `row` (the FILE line a row starts on) and message. */
async function parseCatalogCsv(
  text: string,
): Promise<{ products: unknown[]; errors: Array<{ row: number; message: string }> }> {
  const { drafts, problems } = await readCatalogCsv(fileWith(text));
  return {
    products: [...drafts.values()].map(toProduct),
    errors: problems.map((p) => ({ row: p.line, message: p.message })),
  };
}

async function tokenizeCsv(text: string) {
  const records = [];
  for await (const record of readCsvRecords(fileWith(text))) records.push(record);
  return records;
}

// Loose view of the converter's output, enough for assertions.
interface Money {
  amount: number;
  currency: string;
}
interface Variant {
  id: string;
  sku?: string;
  title: string;
  description: { plain: string };
  price: Money;
  list_price?: Money;
  availability: { available: boolean; status: string };
  options?: Array<{ name: string; label: string }>;
  stock: number;
}
interface Product {
  id: string;
  handle: string;
  title: string;
  description: { plain: string };
  categories?: Array<{ value: string; taxonomy: string }>;
  price_range: { min: Money; max: Money };
  list_price_range?: { min: Money; max: Money };
  media?: Array<{ type: string; url: string; alt_text: string }>;
  options?: Array<{ name: string; values: Array<{ label: string }> }>;
  variants: Variant[];
  tags?: string[];
  rating?: { value: number; scale_max: number; count: number };
}

type Column = (typeof COLUMNS)[number];

const HEADER = COLUMNS.join(",");

const BASE: Record<Column, string> = {
  product_id: "prod_t1",
  handle: "test-tee",
  title: "Test Tee",
  description: "A tee for tests.",
  categories: "Apparel > Tops",
  tags: "test|tee",
  image_url: "https://images.demo-outfitters.example/test-tee.jpg",
  variant_id: "var_t1_s",
  sku: "TT-S",
  variant_title: "",
  price: "2500",
  list_price: "",
  currency: "USD",
  option1_name: "Size",
  option1_value: "S",
  option2_name: "",
  option2_value: "",
  availability: "in_stock",
  stock: "5",
};

function quote(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

function line(overrides: Partial<Record<Column, string>> = {}): string {
  const values = { ...BASE, ...overrides };
  return COLUMNS.map((c) => quote(values[c])).join(",");
}

async function parse(
  ...lines: string[]
): Promise<{ products: Product[]; errors: Array<{ row: number; message: string }> }> {
  const result = await parseCatalogCsv([HEADER, ...lines].join("\n"));
  return { products: result.products as Product[], errors: result.errors };
}

const demoParsed = await parseCatalogCsv(csv);

describe("readCatalogCsv with data/demo-catalog.csv", () => {
  const { products, errors } = demoParsed as { products: Product[]; errors: unknown[] };
  const byId = new Map(products.map((p) => [p.id, p]));

  it("parses every row without errors", () => {
    expect(errors).toEqual([]);
    expect(products).toHaveLength(5);
    expect(products.flatMap((p) => p.variants)).toHaveLength(13);
    for (const p of products) {
      expect(p.id).toMatch(/^prod_csv_/);
      for (const v of p.variants) expect(v.id).toMatch(/^var_csv_/);
    }
  });

  it("groups rows into a product with options in first-seen order", () => {
    const tee = byId.get("prod_csv_ridge_tee");
    expect(tee?.options).toEqual([
      { name: "Color", values: [{ label: "Blue" }, { label: "Gray" }] },
      { name: "Size", values: [{ label: "S" }, { label: "M" }, { label: "L" }] },
    ]);
    expect(tee?.variants.map((v) => v.id)).toEqual([
      "var_csv_ridge_tee_blue_s",
      "var_csv_ridge_tee_blue_m",
      "var_csv_ridge_tee_blue_l",
      "var_csv_ridge_tee_gray_m",
      "var_csv_ridge_tee_gray_l",
    ]);
    expect(tee?.price_range).toEqual({
      min: { amount: 3200, currency: "USD" },
      max: { amount: 3400, currency: "USD" },
    });
    expect(tee?.description.plain).toBe("A soft, breathable tee for long trail miles. Dries fast and resists odor.");
    expect(tee?.categories).toEqual([{ value: "Apparel > Tops", taxonomy: "merchant" }]);
    expect(tee?.tags).toEqual(["trail", "running", "tee"]);
    expect(tee?.media).toEqual([
      {
        type: "image",
        url: "https://images.demo-outfitters.example/ridge-trail-tee.jpg",
        alt_text: "Ridge Trail Tee",
      },
    ]);
  });

  it("maps availability to {available, status} and copies stock", () => {
    const variants = new Map(products.flatMap((p) => p.variants).map((v) => [v.id, v]));
    expect(variants.get("var_csv_ridge_tee_blue_s")).toMatchObject({
      availability: { available: true, status: "in_stock" },
      stock: 14,
      options: [
        { name: "Color", label: "Blue" },
        { name: "Size", label: "S" },
      ],
    });
    expect(variants.get("var_csv_ridge_tee_blue_l")?.availability).toEqual({
      available: false,
      status: "out_of_stock",
    });
    expect(variants.get("var_csv_ridge_tee_gray_l")?.availability).toEqual({ available: true, status: "backorder" });
    expect(variants.get("var_csv_enamel_mug_green")?.availability).toEqual({ available: true, status: "preorder" });
  });

  it("unescapes quoted fields and splits list columns", () => {
    const socks = byId.get("prod_csv_crew_socks");
    expect(socks?.title).toBe("Hiker's Crew Socks");
    expect(socks?.description.plain).toBe('The "everyday" crew sock, knit from merino wool with a cushioned footbed.');
    expect(socks?.categories?.map((c) => c.value)).toEqual(["Apparel > Socks", "Footwear > Accessories"]);
  });

  it("computes list_price_range for products on sale", () => {
    const chews = byId.get("prod_csv_citrus_chews");
    expect(chews?.variants[1]?.list_price).toEqual({ amount: 299, currency: "USD" });
    expect(chews?.price_range).toEqual({
      min: { amount: 249, currency: "USD" },
      max: { amount: 299, currency: "USD" },
    });
    expect(chews?.list_price_range).toEqual({
      min: { amount: 299, currency: "USD" },
      max: { amount: 299, currency: "USD" },
    });
    expect(byId.get("prod_csv_ridge_tee")).not.toHaveProperty("list_price_range");
  });

  it("builds a single option-less variant when no options are given", () => {
    const lamp = byId.get("prod_csv_beacon_headlamp");
    expect(lamp).not.toHaveProperty("options");
    expect(lamp?.variants).toEqual([
      {
        id: "var_csv_beacon_headlamp",
        sku: "BHL-300",
        title: "Default",
        description: { plain: "Beacon 300 Headlamp" },
        price: { amount: 3900, currency: "USD" },
        availability: { available: true, status: "backorder" },
        stock: 0,
      },
    ]);
  });
});

describe("CSV records (csv-parse) with file line numbers", () => {
  it("handles commas, escaped quotes and newlines inside quoted fields", async () => {
    const records = await tokenizeCsv('a,"b,c","say ""hi""","line 1\nline 2"\nnext,row\n');
    expect(records).toEqual([
      { line: 1, fields: ["a", "b,c", 'say "hi"', "line 1\nline 2"] },
      { line: 3, fields: ["next", "row"] },
    ]);
  });

  it("accepts CRLF, LF and a missing final newline alike", async () => {
    const expected = [
      ["a", "b"],
      ["c", "d"],
    ];
    for (const text of ["a,b\r\nc,d\r\n", "a,b\nc,d\n", "a,b\nc,d", "a,b\rc,d"]) {
      expect((await tokenizeCsv(text)).map((r) => r.fields)).toEqual(expected);
    }
  });

  it("reads a line break inside a quoted field as LF, whatever the file uses", async () => {
    expect((await tokenizeCsv('"x\r\ny",z\r\nw,v\r\n')).map((r) => [r.line, r.fields])).toEqual([
      [1, ["x\ny", "z"]],
      [3, ["w", "v"]],
    ]);
  });

  it("strips a UTF-8 byte order mark", async () => {
    expect((await tokenizeCsv("\uFEFFproduct_id,title\n"))[0]?.fields).toEqual(["product_id", "title"]);
  });

  it("keeps empty fields, quoted or not", async () => {
    expect((await tokenizeCsv('a,,"",\n'))[0]?.fields).toEqual(["a", "", "", ""]);
  });

  it("flags malformed quoting on the record, with its line, and reads on", async () => {
    expect(await tokenizeCsv('h\na,b"c\nd,e\n')).toEqual([
      { line: 1, fields: ["h"] },
      { line: 2, fields: [], error: expect.stringMatching(/double quote inside an unquoted field/) },
      { line: 3, fields: ["d", "e"] },
    ]);
    expect((await tokenizeCsv('a,"b"c\n'))[0]?.error).toMatch(/text after a closing double quote/);
    expect((await tokenizeCsv('h\n\na,"b\nc\n'))[1]).toMatchObject({
      line: 3,
      error: expect.stringMatching(/never closed/),
    });
  });

  it("parses a product whose fields need quoting", async () => {
    const { products, errors } = await parse(
      line({
        title: 'Stride 5" Shorts, Black',
        description: 'First line, with a comma.\nSecond "quoted" line.',
        tags: "running|shorts",
      }),
    );
    expect(errors).toEqual([]);
    expect(products[0]?.title).toBe('Stride 5" Shorts, Black');
    expect(products[0]?.description.plain).toBe('First line, with a comma.\nSecond "quoted" line.');
  });

  it("parses a CRLF file with a BOM end to end", async () => {
    const text = `\uFEFF${[HEADER, line(), line({ variant_id: "var_t1_m", sku: "TT-M", option1_value: "M" })].join("\r\n")}\r\n`;
    const result = await parseCatalogCsv(text);
    expect(result.errors).toEqual([]);
    expect((result.products as Product[])[0]?.variants.map((v) => v.id)).toEqual(["var_t1_s", "var_t1_m"]);
  });
});

describe("parseCatalogCsv error reporting", () => {
  it("reports a missing required value with the data row number", async () => {
    const { products, errors } = await parse(line(), line({ variant_id: "var_t1_m", sku: "TT-M", price: "" }));
    expect(errors).toEqual([{ row: 3, message: expect.stringMatching(/missing value for required column "price"/) }]);
    expect(products[0]?.variants).toHaveLength(1);
  });

  it("requires title and description on the first row of a product", async () => {
    const { products, errors } = await parse(line({ title: "", description: "" }));
    expect(errors.map((e) => e.row)).toEqual([2, 2]);
    expect(errors.map((e) => e.message).join("\n")).toMatch(/"title"[\s\S]*"description"/);
    expect(products).toEqual([]);
  });

  it("reports non-integer prices", async () => {
    const { errors } = await parse(
      line({ price: "12.99" }),
      line({ variant_id: "v2", sku: "S2", price: "-5", option1_value: "M" }),
    );
    expect(errors).toEqual([
      { row: 2, message: expect.stringMatching(/^price must be a non-negative integer.*"12\.99"/) },
      { row: 3, message: expect.stringMatching(/^price must be a non-negative integer.*"-5"/) },
    ]);
  });

  it("reports a non-integer list_price and a list_price not above price", async () => {
    const { errors } = await parse(
      line({ list_price: "abc" }),
      line({ variant_id: "v2", sku: "S2", option1_value: "M", list_price: "2500" }),
    );
    expect(errors).toEqual([
      { row: 2, message: expect.stringMatching(/^list_price must be a non-negative integer/) },
      { row: 3, message: "list_price (2500) must be greater than price (2500)" },
    ]);
  });

  it("reports non-integer stock", async () => {
    const { errors } = await parse(
      line({ stock: "3.5" }),
      line({ variant_id: "v2", sku: "S2", option1_value: "M", stock: "lots" }),
    );
    expect(errors).toEqual([
      { row: 2, message: 'stock must be a non-negative integer, got "3.5"' },
      { row: 3, message: 'stock must be a non-negative integer, got "lots"' },
    ]);
  });

  it("reports an unknown availability", async () => {
    const { errors } = await parse(line({ availability: "sold_out" }));
    expect(errors).toEqual([
      { row: 2, message: expect.stringMatching(/^unknown availability "sold_out" \(expected one of in_stock/) },
    ]);
  });

  it("reports availability that contradicts stock", async () => {
    const { errors } = await parse(
      line({ availability: "in_stock", stock: "0" }),
      line({ variant_id: "v2", sku: "S2", option1_value: "M", availability: "out_of_stock", stock: "4" }),
    );
    expect(errors).toEqual([
      { row: 2, message: 'availability "in_stock" requires stock greater than 0' },
      { row: 3, message: 'availability "out_of_stock" requires stock 0, got 4' },
    ]);
  });

  it("reports conflicting product-level fields and keeps the first row's values", async () => {
    const { products, errors } = await parse(
      line(),
      line({ variant_id: "var_t1_m", sku: "TT-M", option1_value: "M", title: "Other Tee" }),
      line({ variant_id: "var_t1_l", sku: "TT-L", option1_value: "L", currency: "EUR" }),
    );
    expect(errors).toEqual([
      { row: 3, message: 'title "Other Tee" conflicts with "Test Tee" from line 2 for product prod_t1' },
      { row: 4, message: 'currency "EUR" conflicts with "USD" from line 2 for product prod_t1' },
    ]);
    expect(products[0]?.title).toBe("Test Tee");
    expect(products[0]?.variants).toHaveLength(1);
  });

  it("lets later rows leave product-level cells blank", async () => {
    const blank = { title: "", handle: "", description: "", categories: "", tags: "", image_url: "" };
    const { products, errors } = await parse(
      line(),
      line({ ...blank, variant_id: "var_t1_m", sku: "TT-M", option1_value: "M" }),
    );
    expect(errors).toEqual([]);
    expect(products[0]?.title).toBe("Test Tee");
    expect(products[0]?.variants).toHaveLength(2);
  });

  it("reports options that differ from the product's other variants", async () => {
    const { errors } = await parse(
      line(),
      line({ variant_id: "v2", sku: "S2", option1_name: "Color", option1_value: "Blue" }),
      line({ variant_id: "v3", sku: "S3", option1_value: "S" }),
      line({ variant_id: "v4", sku: "S4", option1_name: "", option1_value: "L" }),
    );
    expect(errors).toEqual([
      { row: 3, message: "options (Color) conflict with (Size) from line 2 for product prod_t1" },
      { row: 4, message: "option combination S is already used by variant var_t1_s (line 2)" },
      { row: 5, message: "option1_value is set but option1_name is empty" },
    ]);
  });

  it("reports duplicate variant ids, skus and handles", async () => {
    const { products, errors } = await parse(
      line(),
      line({ sku: "TT-M", option1_value: "M" }),
      line({ variant_id: "var_t1_l", option1_value: "L" }),
      line({ product_id: "prod_t2", variant_id: "var_t2", sku: "T2", title: "Second Tee" }),
    );
    expect(errors).toEqual([
      { row: 3, message: 'duplicate variant_id "var_t1_s" (first used on line 2)' },
      { row: 4, message: 'duplicate sku "TT-S" (first used on line 2)' },
      { row: 5, message: 'handle "test-tee" is already used by product prod_t1' },
    ]);
    expect(products.map((p) => p.id)).toEqual(["prod_t1"]);
  });

  it("reports wrong field counts and malformed quoting per row", async () => {
    const { products, errors } = await parse(
      "prod_x,too,few",
      `${line({ variant_id: "v2", sku: "S2", option1_value: "M" })},extra`,
      'prod_y,"open',
    );
    expect(errors).toEqual([
      { row: 2, message: "expected 19 fields but found 3" },
      { row: 3, message: "expected 19 fields but found 20" },
      { row: 4, message: expect.stringMatching(/^malformed CSV: a quoted field is never closed/) },
    ]);
    expect(products).toEqual([]);
  });

  it("numbers rows by file line, so a row after a multi-line quoted field has its own line", async () => {
    const { errors } = await parse(
      line({ description: "Line one.\nLine two.\nLine three." }),
      line({ variant_id: "var_t1_m", sku: "TT-M", option1_value: "M", stock: "x" }),
    );
    expect(errors).toEqual([{ row: 5, message: 'stock must be a non-negative integer, got "x"' }]);
  });

  it("skips blank lines but still counts them", async () => {
    const { products, errors } = await parse(
      line(),
      "",
      line({ variant_id: "v2", sku: "S2", option1_value: "M", price: "x" }),
    );
    expect(errors.map((e) => e.row)).toEqual([4]);
    expect(products[0]?.variants).toHaveLength(1);
  });

  it("reports header problems on row 1 and returns no products", async () => {
    expect(await parseCatalogCsv("")).toEqual({
      products: [],
      errors: [{ row: 1, message: "CSV is empty: expected a header row" }],
    });
    const missing = await parseCatalogCsv("product_id,title\nprod_1,Tee\n");
    expect(missing.products).toEqual([]);
    expect(missing.errors.every((e) => e.row === 1)).toBe(true);
    expect(missing.errors.map((e) => e.message)).toContain('header is missing required column "price"');
    expect((await parseCatalogCsv(`${HEADER},price\n`)).errors).toEqual([
      { row: 1, message: 'duplicate column "price" in header' },
    ]);
  });

  it("accepts columns in any order and without optional columns", async () => {
    const text =
      "stock,availability,currency,price,variant_id,description,title,product_id\n3,in_stock,usd,999,v1,Plain.,Plain Mug,p1\n";
    const { products, errors } = await parseCatalogCsv(text);
    expect(errors).toEqual([]);
    expect(products).toEqual([
      {
        id: "p1",
        handle: "plain-mug",
        title: "Plain Mug",
        description: { plain: "Plain." },
        price_range: { min: { amount: 999, currency: "USD" }, max: { amount: 999, currency: "USD" } },
        variants: [
          {
            id: "v1",
            title: "Default",
            description: { plain: "Plain Mug" },
            price: { amount: 999, currency: "USD" },
            availability: { available: true, status: "in_stock" },
            stock: 3,
          },
        ],
      },
    ]);
  });

  it("never throws on arbitrary input", async () => {
    const samples = [
      '"',
      '""',
      ",,,\n\n\r\r",
      '\uFEFF"a""',
      `${HEADER}\n"`,
      `${HEADER}\n${"x,".repeat(50)}`,
      "\u0000\u0001",
    ];
    for (const text of samples) await expect(parseCatalogCsv(text)).resolves.toBeDefined();
  });
});

describe("generateCatalog", () => {
  it("is deterministic for a seed and varies across seeds", () => {
    expect(generateCatalog(40, 7)).toEqual(generateCatalog(40, 7));
    expect(generateCatalog(40)).toEqual(generateCatalog(40, 1));
    expect(generateCatalog(40, 7)).not.toEqual(generateCatalog(40, 8));
  });

  it("produces count products with sequential ids", () => {
    const { currency, products } = generateCatalog(25, 3);
    expect(currency).toBe("USD");
    expect((products as Product[]).map((p) => p.id)).toEqual(Array.from({ length: 25 }, (_, i) => `prod_g${i + 1}`));
    expect(generateCatalog(0).products).toEqual([]);
  });

  it("produces well-formed products", () => {
    const products = generateCatalog(300, 42).products as Product[];
    const handles = new Set<string>();
    const skus = new Set<string>();
    for (const [i, p] of products.entries()) {
      expect(handles.has(p.handle)).toBe(false);
      handles.add(p.handle);
      expect(p.variants.length).toBeGreaterThanOrEqual(1);
      expect(p.variants.length).toBeLessThanOrEqual(8);
      const words = p.description.plain.split(/\s+/).length;
      expect(words).toBeGreaterThanOrEqual(15);
      expect(words).toBeLessThanOrEqual(40);
      expect(p.categories?.[0]?.value).toMatch(/^(Footwear|Apparel|Outerwear|Accessories|Gear|Nutrition) > /);
      expect(p.media?.[0]?.url).toBe(`https://images.demo-outfitters.example/${p.handle}.jpg`);
      const amounts = p.variants.map((v) => v.price.amount);
      expect(p.price_range.min.amount).toBe(Math.min(...amounts));
      expect(p.price_range.max.amount).toBe(Math.max(...amounts));
      for (const [k, v] of p.variants.entries()) {
        expect(v.id).toBe(`var_g${i + 1}_${k + 1}`);
        expect(skus.has(v.sku ?? "")).toBe(false);
        skus.add(v.sku ?? "");
        expect(Number.isInteger(v.price.amount)).toBe(true);
        checkOptions(p, v);
        checkAvailability(v);
      }
    }
  });

  it("varies the vocabulary enough for realistic text search", () => {
    const words = new Set<string>();
    for (const p of generateCatalog(500, 5).products as Product[]) {
      for (const w of `${p.title} ${p.description.plain}`.toLowerCase().match(/[a-z-]+/g) ?? []) words.add(w);
    }
    expect(words.size).toBeGreaterThan(150);
  });

  it("mixes option layouts", () => {
    const products = generateCatalog(200, 9).products as Product[];
    const layouts = new Set(products.map((p) => (p.options ?? []).map((o) => o.name).join("x")));
    expect(layouts).toEqual(new Set(["", "Color", "Size", "ColorxSize"]));
    for (const p of products.filter((x) => !x.options)) expect(p.variants).toHaveLength(1);
  });
});

function checkOptions(p: Product, v: Variant): void {
  const names = (p.options ?? []).map((o) => o.name);
  expect((v.options ?? []).map((o) => o.name)).toEqual(names);
  for (const o of v.options ?? []) {
    expect(p.options?.find((po) => po.name === o.name)?.values.map((x) => x.label)).toContain(o.label);
  }
}

function checkAvailability(v: Variant): void {
  const { available, status } = v.availability;
  if (status === "in_stock") expect(available && v.stock > 0).toBe(true);
  if (status === "out_of_stock") expect(!available && v.stock === 0).toBe(true);
  if (status === "backorder") expect(available && v.stock === 0).toBe(true);
  if (status === "preorder") expect(available).toBe(true);
}
