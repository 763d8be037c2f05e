import { describe, expect, it } from "vitest";
import demo from "../../data/demo-catalog.json";
import { kvEntries, validateCatalog } from "../../scripts/lib/catalog-file";
import { KV_KEYS } from "../../src/catalog/kv-layout";

const clone = () => structuredClone(demo) as { currency: string; products: Array<Record<string, unknown>> };

describe("validateCatalog (the loader's gate)", () => {
  it("accepts the demo catalog, strips stock into its own map and derives price ranges", () => {
    const { catalog, problems } = validateCatalog(demo, "USD");
    expect(problems).toEqual([]);
    expect(catalog?.products.length).toBeGreaterThanOrEqual(50);
    expect(catalog?.products.every((p) => p.variants.every((v) => !("stock" in v)))).toBe(true);
    expect(catalog?.stock.var_abc123_blue_10).toBe(52);
  });

  it("names every bad product and loads nothing", () => {
    const doc = clone();
    doc.products[3] = { ...doc.products[3], title: 42 };
    doc.products[7] = { ...doc.products[7], variants: [] };
    const ninth = (doc.products[9] as { variants: Array<{ price: { amount: number } }> }).variants[0];
    if (!ninth) throw new Error("demo catalog changed");
    ninth.price.amount = 10.5;
    doc.products[12] = { ...doc.products[12], id: doc.products[0]?.id };
    const { catalog, problems } = validateCatalog(doc, "USD");
    expect(catalog).toBeUndefined();
    const wheres = problems.map((p) => p.where.split(" ")[0]);
    expect(wheres).toEqual(expect.arrayContaining(["products[3]", "products[7]", "products[9]", "products[12]"]));
    expect(problems.find((p) => p.where.startsWith("products[9]"))?.message).toMatch(
      /\$\.variants\[0\]\.price\.amount/,
    );
    expect(problems.find((p) => p.where.startsWith("products[12]"))?.message).toMatch(/duplicate product id/);
  });

  it("refuses wrong currencies, unknown option values and a price_range that lies", () => {
    const doc = clone();
    const runner = doc.products.find((p) => p.id === "prod_abc123") as {
      variants: Array<{ price: { currency: string }; options: Array<{ label: string }> }>;
      price_range: { min: { amount: number } };
    };
    const [first, second] = runner.variants;
    if (!first || !second || !first.options[0]) throw new Error("demo catalog changed");
    first.price.currency = "EUR";
    first.options[0].label = "Purple";
    runner.price_range.min.amount = 1;
    const messages = validateCatalog(doc, "USD").problems.map((p) => p.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/currency: expected USD/),
        expect.stringMatching(/no value Purple/),
      ]),
    );
    second.price.currency = "USD";
    const onlyRange = clone();
    (onlyRange.products.find((p) => p.id === "prod_abc123") as typeof runner).price_range.min.amount = 1;
    expect(validateCatalog(onlyRange, "USD").problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/price_range/),
    ]);
  });

  it("refuses a file that is not a catalog", () => {
    expect(validateCatalog("hello", "USD").problems[0]?.where).toBe("file");
    expect(validateCatalog({ products: {} }, "USD").problems[0]?.where).toBe("file");
  });

  it("writes the manifest separately so a load publishes it last", () => {
    const { catalog } = validateCatalog(demo, "USD");
    if (!catalog) throw new Error("demo invalid");
    const { data, manifest } = kvEntries(catalog, "v1", new Date(0));
    expect(manifest.key).toBe(KV_KEYS.manifest);
    expect(JSON.parse(manifest.value)).toEqual({
      version: "v1",
      currency: "USD",
      products: catalog.products.length,
      loaded_at: "1970-01-01T00:00:00.000Z",
    });
    expect(data.map((d) => d.key)).not.toContain(KV_KEYS.manifest);
    expect(data.filter((d) => d.key.startsWith("product:"))).toHaveLength(catalog.products.length);
  });
});

describe("stock levels", () => {
  it("limits only what stock limits: backorder and preorder variants are not in the stock map", () => {
    const { catalog } = validateCatalog(demo, "USD");
    const variants = demo.products.flatMap((p) => p.variants) as Array<{
      id: string;
      availability?: { status?: string };
    }>;
    const unlimited = variants.filter(
      (v) => v.availability?.status === "backorder" || v.availability?.status === "preorder",
    );
    expect(unlimited.length).toBeGreaterThan(0);
    for (const v of unlimited) expect(catalog?.stock).not.toHaveProperty(v.id);
    const limited = variants.find((v) => v.availability?.status === "in_stock");
    expect(catalog?.stock).toHaveProperty(limited?.id as string);
  });
});
