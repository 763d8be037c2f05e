/**
 * Completion against scarce stock, through the real Worker: of many buyers racing for the
 * last units exactly as many win as there are units, the others are told why and charged
 * nothing; a retried completion (one idempotency key, sent twice at once) takes stock once.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import demo from "../../data/demo-catalog.json";
import type { InventoryObject } from "../../durable-objects/inventory-object";
import { stockShardName } from "../../src/catalog/stock-keys";
import { type Json, pay, readyCheckout, tool } from "../helpers/checkout";
import { validateCheckout } from "../helpers/official-schema";

/** A variant's stock object (issue 14: one per variant, src/catalog/stock-keys.ts). */
const inventory = (variantId: string) =>
  env.INVENTORY.getByName(stockShardName(variantId)) as DurableObjectStub<InventoryObject>;

const variants = demo.products.flatMap((p) =>
  p.variants.map((v) => ({ id: v.id, stock: (v as { stock?: number }).stock, status: v.availability.status })),
);
const inStock = variants.filter(
  (v): v is { id: string; stock: number; status: string } => v.status === "in_stock" && typeof v.stock === "number",
);
/** A variant with exactly 5 units, else the scarcest with at least 3. */
const scarce =
  inStock.find((v) => v.stock === 5) ?? inStock.filter((v) => v.stock >= 3).sort((a, b) => a.stock - b.stock)[0];
/** A variant with plenty of units (the idempotency test takes a few). */
const plentiful = inStock.find((v) => v.stock >= 50 && v.id !== scarce?.id);

async function complete(id: string, key: string): Promise<Json> {
  const reply = await tool("complete_checkout", { id, checkout: pay("success_token") }, key);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const payload = reply.body.result.structuredContent;
  expect(validateCheckout(payload)).toEqual([]);
  return payload;
}

/** Units the inventory object counts now; a variant never reserved still has its catalog stock. */
async function available(variant: { id: string; stock: number }): Promise<number> {
  const levels = await inventory(variant.id).available([variant.id]);
  return levels[variant.id] ?? variant.stock;
}

describe("racing for the last units", () => {
  // About 3 s alone; on a busy shared machine it has run past vitest's default 5 s.
  it("4×stock concurrent completions of one unit each: exactly stock of them place an order", {
    timeout: 30_000,
  }, async () => {
    if (!scarce) throw new Error("no in-stock variant with at least 3 units in data/demo-catalog.json");
    const S = scarce.stock;
    const checkouts = await Promise.all(
      Array.from({ length: 4 * S }, () => readyCheckout([{ id: scarce.id, quantity: 1 }])),
    );
    expect(checkouts.every((c) => c.status === "ready_for_complete")).toBe(true);

    const results = await Promise.all(checkouts.map((c) => complete(c.id, crypto.randomUUID())));

    const won = results.filter((r) => r.status === "completed");
    expect(won).toHaveLength(S);
    const orderIds = new Set(won.map((r) => r.order?.id));
    expect(orderIds.size).toBe(S);
    for (const id of orderIds) expect(id).toMatch(/^ord_/);

    const lost = results.filter((r) => r.status !== "completed");
    expect(lost).toHaveLength(3 * S);
    for (const r of lost) {
      expect(r.order).toBeUndefined();
      expect(r.messages).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ type: "error", code: "out_of_stock", path: "$.line_items[0]" }),
        ]),
      );
    }

    // What the checkouts say afterwards agrees: S completed with their orders, the rest open.
    const reread = await Promise.all(
      checkouts.map(async (c) => (await tool("get_checkout", { id: c.id })).body.result.structuredContent),
    );
    expect(reread.filter((c) => c.status === "completed")).toHaveLength(S);
    expect(new Set(reread.filter((c) => c.order).map((c) => c.order.id))).toEqual(orderIds);

    expect(await inventory(scarce.id).available([scarce.id])).toEqual({ [scarce.id]: 0 });
  });
});

describe("a retried completion", () => {
  it("two concurrent completes with one key on one checkout: one order, stock taken once", async () => {
    if (!plentiful) throw new Error("no in-stock variant with at least 50 units in data/demo-catalog.json");
    const quantity = 3;
    const checkout = await readyCheckout([{ id: plentiful.id, quantity }]);
    const before = await available(plentiful);
    const key = crypto.randomUUID();

    const replies = await Promise.all([complete(checkout.id, key), complete(checkout.id, key)]);

    // One finishes; the other either replays it or says the completion is in progress.
    for (const r of replies) expect(["completed", "complete_in_progress"]).toContain(r.status);
    const orderIds = new Set(replies.filter((r) => r.order).map((r) => r.order.id));
    expect(orderIds.size).toBe(1);
    const retried = await complete(checkout.id, key);
    expect(retried.status).toBe("completed");
    expect(orderIds).toEqual(new Set([retried.order.id]));

    expect(await available(plentiful)).toBe(before - quantity);
    const again = await complete(checkout.id, crypto.randomUUID());
    expect(again.order.id).toBe(retried.order.id);
    expect(await available(plentiful)).toBe(before - quantity);
  });
});
