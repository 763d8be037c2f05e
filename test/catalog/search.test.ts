import { describe, expect, it } from "vitest";
import demo from "../../data/demo-catalog.json";
import { callTool } from "../helpers/mcp";
import { OFFICIAL, validateOfficial } from "../helpers/official-schema";

type Product = (typeof demo.products)[number];
const byId = new Map<string, Product>(demo.products.map((p) => [p.id, p]));

async function search(catalog: Record<string, unknown>) {
  const reply = await callTool("search_catalog", { catalog });
  expect(reply.status).toBe(200);
  const payload = reply.body.result.structuredContent;
  const check = validateOfficial(OFFICIAL.search, payload);
  expect(check.errors).toEqual([]);
  return payload;
}

async function searchError(catalog: unknown) {
  const reply = await callTool("search_catalog", { catalog });
  expect(reply.status).toBe(200);
  expect(reply.body.error.code).toBe(-32602);
  return reply.body.error;
}

describe("search_catalog", () => {
  it("ranks title matches above tag/category matches above description matches", async () => {
    const { products } = await search({ query: "jacket" });
    const tier = (p: Product) =>
      p.title.toLowerCase().includes("jacket")
        ? 0
        : [...(p.tags ?? []), ...(p.categories ?? []).map((c) => c.value)].some((t) => /jacket/i.test(t))
          ? 1
          : 2;
    const tiers = products.map((p: { id: string }) => tier(byId.get(p.id) as Product));
    expect(tiers[0]).toBe(0);
    expect([...tiers].sort()).toEqual(tiers);
  });

  it("returns one featured variant per product, with prices in integer minor units", async () => {
    const { products } = await search({ query: "shoes" });
    expect(products.length).toBeGreaterThan(0);
    for (const p of products) {
      expect(p.variants).toHaveLength(1);
      expect(Number.isInteger(p.variants[0].price.amount)).toBe(true);
      expect(p.variants[0].price.currency).toBe("USD");
      expect(p.url).toBe(`https://shop.example.com/products/${p.handle}`);
      // the featured variant is the merchant's first one when no filter narrows it
      expect(p.variants[0].id).toBe(byId.get(p.id)?.variants[0]?.id);
      // stock levels stay private
      expect(p.variants[0].stock).toBeUndefined();
    }
  });

  it("filters by category (a parent matches its children), price and availability", async () => {
    const { products } = await search({
      query: "",
      filters: { categories: ["footwear"], price: { min: 5000, max: 13000 }, available: true },
    });
    expect(products.length).toBeGreaterThan(0);
    for (const p of products) {
      expect(byId.get(p.id)?.categories?.some((c) => c.value.startsWith("Footwear"))).toBe(true);
      expect(p.variants[0].price.amount).toBeGreaterThanOrEqual(5000);
      expect(p.variants[0].price.amount).toBeLessThanOrEqual(13000);
      expect(p.variants[0].availability.available).toBe(true);
    }
  });

  it("features the first variant that passes the filters", async () => {
    const { products } = await search({ query: "runner pro", filters: { price: { min: 15000 } } });
    const runner = products.find((p: { id: string }) => p.id === "prod_abc123");
    expect(runner.variants[0].id).toBe("var_abc123_blue_12");
  });

  it("filters for unavailable variants with available: false", async () => {
    const { products } = await search({ filters: { available: false }, pagination: { limit: 50 } });
    const fullyOut = demo.products.filter((p) => p.variants.every((v) => v.availability?.available === false));
    expect(products.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining(fullyOut.map((p) => p.id)));
    for (const p of products) expect(p.variants[0].availability.available).toBe(false);
  });

  it("pages with cursors: default 10, every match exactly once, cursor whenever there is a next page", async () => {
    const first = await search({ filters: { categories: ["Gear", "Accessories"] } });
    expect(first.products).toHaveLength(10);
    const seen: string[] = first.products.map((p: { id: string }) => p.id);
    let page = first;
    while (page.pagination.has_next_page) {
      expect(page.pagination.cursor).toEqual(expect.any(String));
      page = await search({
        filters: { categories: ["Gear", "Accessories"] },
        pagination: { cursor: page.pagination.cursor, limit: 7 },
      });
      seen.push(...page.products.map((p: { id: string }) => p.id));
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(first.pagination.total_count);
    const expected = demo.products.filter((p) => p.categories?.some((c) => /^(Gear|Accessories)/.test(c.value)));
    expect(seen.length).toBe(expected.length);
  });

  it("clamps an absurd limit to 50 and refuses nonsense pagination", async () => {
    const { products, pagination } = await search({
      filters: { available: true },
      pagination: { limit: 1_000_000_000 },
    });
    expect(products).toHaveLength(50);
    expect(pagination.has_next_page).toBe(true);
    for (const pagination of [{ limit: 0 }, { limit: -5 }, { limit: 2.5 }, { limit: "10" }, { cursor: 7 }]) {
      await searchError({ query: "shoe", pagination });
    }
  });

  it("refuses a cursor that is garbage or belongs to another query", async () => {
    const { pagination } = await search({ query: "shoe", pagination: { limit: 1 } });
    const foreign = await searchError({ query: "jacket", pagination: { cursor: pagination.cursor } });
    expect(foreign.data.path).toBe("$.catalog.pagination.cursor");
    await searchError({ query: "shoe", pagination: { cursor: "%%%not-base64%%%" } });
    await searchError({ query: "shoe", pagination: { cursor: btoa("99999999999999.abc") } });
  });

  it("answers an empty or unmatched query with a valid empty result", async () => {
    for (const query of ["", "   ", "zzzqqqxxy", "???"]) {
      const payload = await search({ query });
      expect(payload.products).toEqual([]);
      expect(payload.pagination).toEqual({ has_next_page: false, total_count: 0 });
      expect(payload.messages).toBeUndefined();
    }
  });

  it("refuses a request with neither query nor filters (-32602)", async () => {
    const error = await searchError({});
    expect(error.message).toMatch(/query or at least one filter/);
  });

  it.each([
    ["a numeric query", { query: 5 }],
    ["a huge query", { query: "x".repeat(10_000) }],
    ["a negative price", { filters: { price: { max: -1 } } }],
    ["a float price", { filters: { price: { max: 10.5 } } }],
    ["categories as a number", { filters: { categories: 3 } }],
    ["a non-object catalog", "shoes"],
  ])("refuses %s with -32602 and a JSONPath", async (_, catalog) => {
    const error = await searchError(catalog);
    expect(error.data.issues[0].path).toMatch(/^\$\.catalog/);
  });

  it("says so instead of filtering when the price filter is in another currency", async () => {
    const payload = await search({ query: "shoe", filters: { price: { max: 100 } }, context: { currency: "EUR" } });
    expect(payload.products.length).toBeGreaterThan(0);
    expect(payload.messages).toEqual([expect.objectContaining({ type: "info", code: "price_filter_ignored" })]);
  });

  it("accepts the seed's older `category` spelling", async () => {
    const payload = await search({ query: "shoes", filters: { category: ["Footwear"] } });
    for (const p of payload.products)
      expect(byId.get(p.id)?.categories?.some((c) => c.value.startsWith("Footwear"))).toBe(true);
  });

  it("drops __proto__ keys instead of letting them reach Object.prototype", async () => {
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_catalog","arguments":{"meta":{"ucp-agent":{"profile":"https://agent.test/profiles/full.json"}},"__proto__":{"polluted":true},"catalog":{"query":"shoe","__proto__":{"isAdmin":true},"filters":{"constructor":{"prototype":{"polluted":true}}}}}}}`;
    const res = await (await import("cloudflare:workers")).exports.default.fetch("https://shop.example.com/ucp/mcp", {
      method: "POST",
      body,
    });
    expect(res.status).toBe(200);
    const reply = await res.json<{ result: { structuredContent: { products: unknown[] } } }>();
    expect(reply.result.structuredContent.products.length).toBeGreaterThan(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});
