/**
 * A catalog on D1 sells without the KV index (issue 28, per-isolate memory bounded): with the
 * index's key deleted and this isolate's caches dropped, a cart is priced from the served
 * catalog (never the request), a checkout completes and its reservation holds the catalog's
 * stock level, and the console lists, searches and pages its products from the D1 tables.
 * Before, each of these loaded the whole index (~340 MB at a million products) and here found
 * no catalog at all. D1 not answering is the catalog unavailable (503), never a 500.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import demo from "../../data/demo-catalog.json";
import { resetCatalogCache } from "../../src/catalog/kv-catalog";
import { KV_KEYS } from "../../src/catalog/kv-layout";
import worker from "../../src/index";
import { checkoutCall, type Json, pay, readyCheckout } from "../helpers/checkout";
import { type Browser, openPage, signIn } from "../helpers/console";
import { FULL_PROFILE, meta, rpc } from "../helpers/mcp";
import { decodeEntities } from "../helpers/pages";

const browser: Browser = { ip: "10.28.1.1" };
type Variant = {
  id: string;
  sku?: string;
  stock?: number;
  price: { amount: number };
  availability?: { status?: string };
};
const products = demo.products as Array<{ id: string; title: string; variants: Variant[] }>;
const low = products
  .flatMap((p) => p.variants.map((v) => ({ product: p, variant: v })))
  .find(({ variant: v }) => v.availability?.status === "in_stock" && (v.stock ?? 0) > 1 && (v.stock ?? 0) <= 5);

beforeAll(async () => {
  await signIn(browser);
  const manifest = await env.CATALOG.get<{ search?: string }>(KV_KEYS.manifest, "json");
  expect(manifest?.search, "the setup's demo catalog is on D1").toBeTruthy();
  await env.CATALOG.delete(KV_KEYS.index);
  resetCatalogCache();
  // The file's first request loads the Worker (seconds on a busy machine).
}, 60_000);

describe("a D1 catalog without its KV index", () => {
  it("prices a cart from the catalog, not from the request", async () => {
    const reply = await rpc("tools/call", {
      name: "create_cart",
      arguments: {
        meta: meta(FULL_PROFILE),
        cart: { line_items: [{ item: { id: "item_456", title: "Free jeans", price: 1 }, quantity: 2 }] },
      },
    });
    const cart = reply.body.result.structuredContent;
    expect(cart.messages ?? []).toEqual([]);
    expect(cart.line_items[0].item).toEqual(
      expect.objectContaining({ id: "item_456", title: "Blue Jeans", price: 7500 }),
    );
    expect(cart.totals).toContainEqual({ type: "total", amount: 15000 });
  });

  it("completes a checkout, and completion holds the catalog's stock level", async () => {
    if (!low) throw new Error("the demo catalog has a low-stock variant");
    const stock = low.variant.stock ?? 0;
    // Two checkouts each priced for every unit in stock: the first to complete takes them all.
    const first = await readyCheckout([{ id: low.variant.id, quantity: stock }]);
    const second = await readyCheckout([{ id: low.variant.id, quantity: stock }]);
    expect(first.line_items[0].item.price).toBe(low.variant.price.amount);
    expect(first.line_items[0].quantity).toBe(stock);
    const done = await checkoutCall(
      "complete_checkout",
      { id: first.id, checkout: pay("success_token") },
      crypto.randomUUID(),
    );
    expect(done.status).toBe("completed");
    expect(done.order.id).toMatch(/^ord_/);
    const refused: Json = await checkoutCall(
      "complete_checkout",
      { id: second.id, checkout: pay("success_token") },
      crypto.randomUUID(),
    );
    expect(refused.status).not.toBe("completed");
    expect(JSON.stringify(refused.messages)).toMatch(/out_of_stock/);
  });

  it("lists, searches and pages the console's products", async () => {
    let { res, html } = await openPage("/admin/catalog", browser);
    expect(res.status).toBe(200);
    let text = decodeEntities(html);
    expect(text).toContain(`${products.length} products.`);
    expect(text).toContain(products[0]?.title);
    expect(text).toMatch(/Page 1 of 3/);
    ({ html } = await openPage("/admin/catalog?page=3", browser));
    text = decodeEntities(html);
    expect(text).toContain(products[products.length - 1]?.title);
    expect(text).not.toContain(`>${products[0]?.title} <`);
    // By SKU (any case), by variant id, and by the words of a title.
    const sku = low?.variant.sku ?? "";
    ({ html } = await openPage(`/admin/catalog?q=${encodeURIComponent(sku.toLowerCase())}`, browser));
    text = decodeEntities(html);
    expect(text).toContain(`1 of ${products.length} products match.`);
    expect(html).toContain(`id="v-${low?.variant.id}"`);
    ({ html } = await openPage("/admin/catalog?q=hiking+boot", browser));
    text = decodeEntities(html);
    expect(text).toContain("Ridgeline Hiking Boot");
    expect(text).not.toContain("Merino Crew Base Layer");
  });
});

/** The catalog database with every query failing, as an outage would. */
function failingDb(): D1Database {
  const statement = {
    bind: () => statement,
    all: () => Promise.reject(new Error("D1_ERROR: network connection lost (test)")),
    first: () => Promise.reject(new Error("D1_ERROR: network connection lost (test)")),
    run: () => Promise.reject(new Error("D1_ERROR: network connection lost (test)")),
  };
  return {
    prepare: () => statement,
    batch: () => Promise.reject(new Error("D1_ERROR (test)")),
  } as unknown as D1Database;
}

describe("the catalog's D1 database not answering", () => {
  const send = (request: Request) =>
    worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...env, CATALOG_DB: failingDb() } as Env);

  it("create_cart is -32000 / 503 with retry_after, and the console's list a 503 page", async () => {
    // A product no earlier test named: pricing keeps a version's entries per isolate
    // (src/catalog/named-index.ts), so an id priced before answers without D1.
    const unpriced = products.find((p) => p.id !== "item_456" && p.id !== low?.product.id)?.id;
    vi.spyOn(console, "error").mockImplementation(() => {});
    const cart = await send(
      new Request("https://shop.example.com/ucp/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", "cf-connecting-ip": "10.28.1.2" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: {
            name: "create_cart",
            arguments: { meta: meta(FULL_PROFILE), cart: { line_items: [{ item: { id: unpriced }, quantity: 1 }] } },
          },
        }),
      }),
    );
    expect(cart.status).toBe(503);
    expect(((await cart.json()) as { error: unknown }).error).toMatchObject({ code: -32000, data: { retry_after: 1 } });
    const page = await send(
      new Request("https://shop.example.com/admin/catalog", {
        headers: { cookie: browser.cookie ?? "", "cf-connecting-ip": browser.ip ?? "", accept: "text/html" },
      }),
    );
    expect(page.status).toBe(503);
    vi.restoreAllMocks();
  });
});
