/**
 * Pricing a D1 catalog's lines reads the version's tables once per set of ids on an isolate
 * (src/catalog/named-index.ts, issue 29): a checkout's update no longer asks D1 again for the
 * products its create named. Prices still come from the served catalog, and stock from the
 * inventory objects at every call: a variant the merchant sets to zero after the first call is
 * out of stock at the next, with the index entries kept.
 */
import { env, exports } from "cloudflare:workers";
import { expect, it } from "vitest";
import demo from "../../data/demo-catalog.json";
import { priceFromCatalog } from "../../src/cart/pricing";
import { KV_KEYS } from "../../src/catalog/kv-layout";

const ADMIN_TOKEN = (env as { ADMIN_TOKEN?: string }).ADMIN_TOKEN ?? "";

type Variant = { id: string; stock?: number; price: { amount: number }; availability?: { status?: string } };
const variants = (demo.products as Array<{ variants: Variant[] }>).flatMap((p) => p.variants);
const counted = variants.filter((v) => v.availability?.status === "in_stock" && (v.stock ?? 0) > 1);

/** The Worker's bindings with the D1 database's statements counted. */
function countingEnv() {
  const queries: string[] = [];
  const db = new Proxy(env.CATALOG_DB, {
    get(target, p) {
      const value = Reflect.get(target, p);
      if (p !== "prepare" || typeof value !== "function")
        return typeof value === "function" ? value.bind(target) : value;
      return (sql: string) => {
        queries.push(sql);
        return value.call(target, sql);
      };
    },
  });
  return { queries, env: { ...env, CATALOG_DB: db } };
}

it("reads the named products from D1 once, stock at every call", async () => {
  const manifest = await env.CATALOG.get<{ search?: string }>(KV_KEYS.manifest, "json");
  expect(manifest?.search, "the setup's demo catalog is on D1").toBeTruthy();
  const [a, b] = counted;
  if (!a || !b) throw new Error("the demo catalog has two counted in-stock variants");
  const lines = [
    { item: { id: a.id }, quantity: 1 },
    { item: { id: b.id }, quantity: 1 },
  ];
  const { queries, env: counting } = countingEnv();

  const first = await priceFromCatalog(counting, Date.now(), lines);
  expect(first.messages).toEqual([]);
  expect(first.lines.map((l) => [l.item.id, l.item.price])).toEqual([
    [a.id, a.price.amount],
    [b.id, b.price.amount],
  ]);
  expect(queries).toHaveLength(1);

  // The same ids in another order: the kept entries answer.
  const again = await priceFromCatalog(counting, Date.now(), [...lines].reverse());
  expect(again.lines.map((l) => [l.item.id, l.item.price])).toEqual([
    [b.id, b.price.amount],
    [a.id, a.price.amount],
  ]);
  expect(queries).toHaveLength(1);

  const set = await exports.default.fetch(`https://shop.example.com/admin/inventory/${encodeURIComponent(a.id)}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ set: 0 }),
  });
  expect(set.status, await set.clone().text()).toBe(200);
  const after = await priceFromCatalog(counting, Date.now(), lines);
  expect(after.messages).toContainEqual(expect.objectContaining({ code: "out_of_stock", path: "$.line_items[0]" }));
  expect(after.lines.map((l) => l.item.id)).toEqual([b.id]);
  expect(queries).toHaveLength(1);
});
