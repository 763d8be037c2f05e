/**
 * search_catalog on D1 FTS5 (issue 28), through the Worker's MCP endpoint over the demo
 * catalog the setup seeds into D1 and KV: no-match, typos, plurals, prefixes, attribute and
 * price words, live sell-outs, and the one pointer that switches a whole catalog at once.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import demo from "../../data/demo-catalog.json";
import { resetCatalogCache } from "../../src/catalog/kv-catalog";
import { KV_KEYS } from "../../src/catalog/kv-layout";
import { resetServedManifest } from "../../src/catalog/search-served";
import { newSearchKey, writeSearchCatalog } from "../../src/catalog/search-tables";
import { callTool } from "../helpers/mcp";
import { seedDemoCatalog } from "../helpers/seed-catalog";

type Found = { id: string; title: string; variants: Array<{ id: string; price: { amount: number } }> };

async function search(catalog: Record<string, unknown>) {
  const reply = await callTool("search_catalog", { catalog });
  expect(reply.status).toBe(200);
  const payload = reply.body.result.structuredContent;
  return payload as { products: Found[]; pagination: { has_next_page: boolean; total_count?: number } };
}

const titles = async (query: string, extra: Record<string, unknown> = {}) =>
  (await search({ query, ...extra })).products.map((p) => p.title);

describe("search_catalog on D1", () => {
  // The file's first call loads the Worker (seconds on a busy machine): not a test's time.
  beforeAll(() => search({ query: "warm" }), 60_000);

  it("answers a query that matches nothing with no products (CAT-012)", async () => {
    for (const query of ["zzz_no_such_product_zzz", "qwxz", "zzz shoes qqq"]) {
      const payload = await search({ query });
      expect(payload.products).toEqual([]);
      expect(payload.pagination).toEqual({ has_next_page: false, total_count: 0 });
    }
  });

  it("needs every word, folds plurals and reads the last word as a prefix", async () => {
    const boots = await titles("hiking boots");
    expect(boots[0]).toBe("Ridgeline Hiking Boot");
    expect(boots).not.toContain("Summit Approach Shoe");
    expect(await titles("jackets")).toContain("Blue Horizon Running Jacket");
    const sleep = await titles("sleep");
    expect(sleep).toEqual(expect.arrayContaining(["Nimbus Sleeping Bag", "Inflatable Sleeping Pad"]));
  });

  it("corrects a misspelt word to the catalog's nearest", async () => {
    expect((await titles("jakcet"))[0]).toBe("Blue Horizon Running Jacket");
    expect(await titles("backpak")).toEqual(expect.arrayContaining(["Basecamp 45L Backpack"]));
    expect(await titles("merino sokcs")).toEqual(["Merino Hiking Socks"]);
  });

  it("ranks title words above attributes above the description", async () => {
    const found = await titles("waterproof");
    // Trail Master X and Ridgeline carry it as a tag; no title says it but the spray's stem does.
    expect(found.slice(0, 1)).toEqual(["Waterproofing Spray"]);
    expect(found).toEqual(
      expect.arrayContaining(["Trail Master X", "Ridgeline Hiking Boot", "Storm Shell Rain Jacket"]),
    );
  });

  it("reads price words as a price filter in the store's minor units", async () => {
    const { products } = await search({ query: "running shoes under 130" });
    expect(products.length).toBeGreaterThan(0);
    for (const p of products) expect(p.variants[0]?.price.amount).toBeLessThanOrEqual(13000);
    expect(products.map((p) => p.title)).not.toContain("Trail Master X");
    const over = await search({ query: "jacket over $200" });
    expect(over.products.map((p) => p.title)).toEqual(["Storm Shell Rain Jacket"]);
  });

  it("shows a variant sold out by its stock shard as unavailable, and filters on it", async () => {
    const runner = demo.products.find((p) => p.id === "prod_sun_runner_cap");
    const manifest = await env.CATALOG.get<{ loaded_at: string; version: string }>(KV_KEYS.manifest, "json");
    const version = `${manifest?.loaded_at}/${manifest?.version}`;
    const ids = runner?.variants.map((v) => v.id) ?? [];
    await env.CATALOG_DB.batch(
      ids.map((id) =>
        env.CATALOG_DB.prepare("INSERT OR REPLACE INTO search_live (variant_id, s, v) VALUES (?, 'sold_out', ?)").bind(
          id,
          version,
        ),
      ),
    );
    const available = await search({ query: "sun runner cap", filters: { available: true } });
    expect(available.products).toEqual([]);
    const sold = await search({ query: "sun runner cap", filters: { available: false } });
    expect(sold.products.map((p) => p.id)).toEqual(["prod_sun_runner_cap"]);
    // A state counted from an older load is void: that load restated the stock.
    await env.CATALOG_DB.prepare(
      "UPDATE search_live SET v = '1970' WHERE variant_id IN (SELECT value FROM json_each(?))",
    )
      .bind(JSON.stringify(ids))
      .run();
    expect((await search({ query: "sun runner cap", filters: { available: true } })).products).toHaveLength(1);
  });

  it("pages with cursors over ranked matches, each product once", async () => {
    const seen: string[] = [];
    let page = await search({ query: "running", pagination: { limit: 4 } });
    seen.push(...page.products.map((p) => p.id));
    while (page.pagination.has_next_page) {
      const cursor = (page.pagination as { cursor?: string }).cursor;
      page = await search({ query: "running", pagination: { limit: 4, cursor } });
      seen.push(...page.products.map((p) => p.id));
    }
    expect(new Set(seen).size).toBe(seen.length);
    // Early pages answered from title matches alone do not count; the last page counts them all.
    const running = demo.products.filter((p) =>
      JSON.stringify([p.title, p.tags, p.categories, p.description]).toLowerCase().includes("running"),
    );
    expect(page.pagination.total_count).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(running.length);
  });

  it("lookup_catalog and get_product of a D1 catalog never need the KV index", async () => {
    await env.CATALOG.delete("catalog:index");
    resetCatalogCache();
    const boot = demo.products.find((p) => p.id === "prod_ridgeline_boot");
    const second = boot?.variants[1];
    const looked = await callTool("lookup_catalog", {
      catalog: { ids: ["prod_ridgeline_boot", second?.sku, "no-such-id"] },
    });
    const found = looked.body.result.structuredContent;
    expect(found.products.map((p: { id: string }) => p.id)).toEqual(["prod_ridgeline_boot"]);
    expect(found.products[0].variants.map((v: { id: string }) => v.id)).toEqual([boot?.variants[0]?.id, second?.id]);
    expect(found.messages).toEqual([expect.objectContaining({ code: "not_found", content: "no-such-id" })]);
    const detail = await callTool("get_product", { catalog: { id: boot?.handle } });
    expect(detail.body.result.structuredContent.product.id).toBe("prod_ridgeline_boot");
    await seedDemoCatalog();
  });

  it("switches search and documents together with the one manifest write", async () => {
    // A new version's tables written while the old catalog is served change nothing...
    const renamed = {
      ...demo,
      products: demo.products.map((p) =>
        p.id === "prod_ridgeline_boot" ? { ...p, title: "Ridgeline Glacier Boot" } : p,
      ),
    };
    const key = newSearchKey();
    await writeSearchCatalog(env.CATALOG_DB, key, renamed.products as never, new Date());
    resetServedManifest();
    expect(await titles("glacier boot")).toEqual([]);
    // ...until the manifest names them, with the documents the same load wrote.
    await seedDemoCatalog(renamed);
    expect(await titles("glacier boot")).toEqual(["Ridgeline Glacier Boot"]);
    expect(await titles("ridgeline")).toEqual(["Ridgeline Glacier Boot"]);
    await seedDemoCatalog();
  });
});
