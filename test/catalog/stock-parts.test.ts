/**
 * The stock map in parts (issue 28): at a million products one `catalog:stock` value held
 * 49 MB, past KV's 25 MiB, so such a load could not be written on Cloudflare. A load now cuts
 * it into parts under its version's keys and refuses any value over the limit before it
 * switches; reservations read the parts their variants are in. Here the limit is set low so a
 * demo-sized catalog is "large": it must split, and a limit too low must fail the load, unswitched.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import demo from "../../data/demo-catalog.json";
import { type CatalogStore, type SearchStore, validateSource, writeCatalog } from "../../src/catalog/catalog-load";
import { jsonSource } from "../../src/catalog/catalog-source";
import { resetCatalogCache } from "../../src/catalog/kv-catalog";
import { type CatalogManifest, KV_KEYS } from "../../src/catalog/kv-layout";
import { resetServedManifest } from "../../src/catalog/search-served";
import { resetStockLevels, stockLevels } from "../../src/catalog/stock";
import { leanCatalogCsv, noDelays, runLoad, uploadForm } from "../helpers/catalog-load";
import { type Json, pay, readyCheckout, tool } from "../helpers/checkout";
import { type Browser, signIn } from "../helpers/console";

const store: CatalogStore = {
  put: async (pairs) => {
    await Promise.all(pairs.map((p) => env.CATALOG.put(p.key, p.value)));
  },
  list: async (prefix) => {
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await env.CATALOG.list({ prefix, ...(cursor ? { cursor } : {}) });
      names.push(...page.keys.map((k) => k.name));
      cursor = page.list_complete ? undefined : page.cursor;
    } while (cursor);
    return names;
  },
  delete: async (keys) => {
    await Promise.all(keys.map((k) => env.CATALOG.delete(k)));
  },
  get: (key) => env.CATALOG.get(key),
};

const search: SearchStore = {
  rowsPerBatch: 200,
  batch: async (statements) => {
    const db = env.CATALOG_DB;
    await db.batch(
      statements.map(({ statement, param }) =>
        param === undefined ? db.prepare(statement) : db.prepare(statement).bind(param),
      ),
    );
  },
};

const validated = () => validateSource(jsonSource(JSON.stringify(demo), "USD"), "USD", () => {});
const manifest = async () => JSON.parse((await env.CATALOG.get(KV_KEYS.manifest)) ?? "null") as CatalogManifest;
const LIMIT = 16 * 1024;

describe("the stock map in parts", () => {
  it("splits under the limit: every value of the version fits, and the levels read back exactly", async () => {
    const catalog = await validated();
    expect(catalog.problems).toEqual([]);
    const stock = JSON.parse(catalog.stock) as Record<string, number>;
    await writeCatalog(catalog, store, search, "USD", () => {}, { valueLimit: LIMIT, variantsPerStockPart: 32 });
    const served = await manifest();
    expect(served.stock_parts).toBe(Math.ceil(catalog.variants / 32));
    expect(served.stock_parts).toBeGreaterThan(5);
    const prefix = served.keys as string;
    const keys = await store.list(prefix);
    expect(keys).not.toContain(`${prefix}stock`);
    const partKeys = keys.filter((k) => k.startsWith(`${prefix}stock:`));
    expect(partKeys).toHaveLength(served.stock_parts as number);
    const union: Record<string, number> = {};
    for (const key of keys) {
      const value = (await env.CATALOG.get(key)) ?? "";
      expect(new TextEncoder().encode(value).byteLength, key).toBeLessThanOrEqual(LIMIT);
      if (partKeys.includes(key)) Object.assign(union, JSON.parse(value));
    }
    expect(union).toEqual(stock);
    resetStockLevels();
    const ids = demo.products.flatMap((p) => p.variants.map((v) => v.id));
    expect(await stockLevels(env.CATALOG, { manifest: served }, ids)).toEqual(stock);
    // One variant alone reads only its part, and finds the same level.
    const [one] = Object.keys(stock);
    resetStockLevels();
    expect(await stockLevels(env.CATALOG, { manifest: served }, [one as string])).toEqual({
      [one as string]: stock[one as string],
    });
  });

  it("a value over the limit fails the load clearly, before its switch", async () => {
    const before = await manifest();
    const catalog = await validated();
    // The default split puts the demo's whole stock map (~10 KB) in one part.
    await expect(writeCatalog(catalog, store, search, "USD", () => {}, { valueLimit: 4 * 1024 })).rejects.toThrow(
      /stock part 0 is \d+ bytes, over the 4096-byte limit of one KV value/,
    );
    expect(await manifest()).toEqual(before);
  });

  it("reservations see the levels of the split map: of 2S buyers of the last S units, S win", {
    timeout: 60_000,
  }, async () => {
    const served = await manifest();
    expect(served.stock_parts).toBeGreaterThan(1);
    const variant = demo.products
      .flatMap((p) => p.variants as Array<{ id: string; stock?: number; availability: { status: string } }>)
      .find((v) => v.availability.status === "in_stock" && v.stock !== undefined && v.stock >= 2 && v.stock <= 5);
    if (!variant?.stock) throw new Error("no in-stock demo variant with 2 to 5 units");
    resetCatalogCache();
    resetServedManifest();
    resetStockLevels();
    const S = variant.stock;
    const checkouts = await Promise.all(
      Array.from({ length: 2 * S }, () => readyCheckout([{ id: variant.id, quantity: 1 }])),
    );
    expect(checkouts.every((c: Json) => c.status === "ready_for_complete")).toBe(true);
    const results = await Promise.all(
      checkouts.map(async (c: Json) => {
        const reply = await tool(
          "complete_checkout",
          { id: c.id, checkout: pay("success_token") },
          crypto.randomUUID(),
        );
        return reply.body.result.structuredContent as Json;
      }),
    );
    expect(results.filter((r) => r.status === "completed")).toHaveLength(S);
  });

  it("the console's background load writes the parts too: 4,200 variants in two", { timeout: 120_000 }, async () => {
    const browser: Browser = { ip: "10.28.9.1" };
    await signIn(browser);
    await noDelays();
    const res = await uploadForm(browser, "parts.csv", leanCatalogCsv(4_200));
    expect(res.status).toBe(303);
    const id = (res.headers.get("location") ?? "").split("/").pop() ?? "";
    expect((await runLoad(id))?.phase).toBe("done");
    const served = await manifest();
    expect(served.keys).toBe(`load:${id}:`);
    expect(served.stock_parts).toBe(2);
    expect(await env.CATALOG.get(`load:${id}:stock`)).toBeNull();
    const ids = ["var_n7", "var_n4200", "var_n2048"];
    resetStockLevels();
    // leanCatalogCsv gives var_n<n> 1 + n mod 50 units.
    expect(await stockLevels(env.CATALOG, { manifest: served }, ids)).toEqual({
      var_n7: 8,
      var_n4200: 1,
      var_n2048: 49,
    });
  });
});
