/**
 * InventoryObject as the truth about stock (issue 10, finding 7): levels() answers what a
 * reservation would find, restock() sets or adds units, and every change to the sold-out set
 * is published to KV (catalog:availability) for search.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { InventoryObject } from "../../durable-objects/inventory-object";
import { stockVersion } from "../../durable-objects/shared/inventory-plan";
import { type AvailabilityDoc, KV_KEYS } from "../../src/catalog/kv-layout";

const V1 = stockVersion({ loaded_at: "2026-05-01T10:00:00.000Z", version: "9f86d081884c7d65" });
const V2 = stockVersion({ loaded_at: "2026-05-02T10:00:00.000Z", version: "2c26b46b68ffc68f" });

const fresh = () => env.INVENTORY.getByName(`inv-${crypto.randomUUID()}`) as DurableObjectStub<InventoryObject>;
const rid = () => `ord_${crypto.randomUUID()}`;
const published = () => env.CATALOG.get<AvailabilityDoc>(KV_KEYS.availability, "json");

describe("levels", () => {
  it("answers the running count, a later load's level, and nothing for untracked unknowns; writes nothing", async () => {
    const inv = fresh();
    expect(await inv.levels(["a"], { a: 3 }, V1)).toEqual({ levels: { a: 3 }, restocked: [] });
    expect((await inv.reserve(rid(), [{ variantId: "a", quantity: 2 }], { a: 3 }, V1)).ok).toBe(true);
    expect(await inv.levels(["a", "b"], { a: 3 }, V1)).toEqual({ levels: { a: 1 }, restocked: [] });
    expect(await inv.levels(["a"], { a: 9 }, V2)).toEqual({ levels: { a: 9 }, restocked: [] });
    // levels() did not restate: the stored count is still from V1.
    expect(await inv.available(["a"])).toEqual({ a: 1 });
  });
});

describe("publishing", () => {
  it("publishes a sell-out, its release, and a restock to catalog:availability", async () => {
    const inv = fresh();
    const order = rid();
    expect((await inv.reserve(order, [{ variantId: "last", quantity: 2 }], { last: 2 }, V1)).ok).toBe(true);
    expect((await published())?.sold_out).toEqual({ last: V1 });

    expect(await inv.release(order)).toEqual({ released: true });
    expect((await published())?.sold_out).toEqual({});

    expect(await inv.restock("last", { set: 0 }, 2, V1)).toMatchObject({ ok: true, level: 0 });
    expect((await published())?.sold_out).toEqual({ last: V1 });
    expect(await inv.restock("last", { add: 4 }, 2, V1)).toMatchObject({ ok: true, level: 4 });
    const doc = await published();
    expect(doc?.sold_out).toEqual({});
    expect(doc?.restocked).toEqual({ last: V1 });
    expect(await inv.levels(["last"], { last: 2 }, V1)).toEqual({ levels: { last: 4 }, restocked: ["last"] });
  });
});

describe("restock", () => {
  it("adds to what a reservation would find, never below zero; a later load restates it", async () => {
    const inv = fresh();
    expect(await inv.restock("r", { add: 5 }, 3, V1)).toMatchObject({ ok: true, level: 8, version: V1 });
    expect(await inv.restock("r", { add: -20 }, 3, V1)).toMatchObject({ ok: true, level: 0 });
    expect(await inv.restock("r", { set: 6 }, 3, V1)).toMatchObject({ ok: true, level: 6 });
    // A Worker still on the older catalog cannot undo it; the next load is the merchant's word.
    expect((await inv.reserve(rid(), [{ variantId: "r", quantity: 6 }], { r: 3 }, V1)).ok).toBe(true);
    expect(await inv.levels(["r"], { r: 10 }, V2)).toEqual({ levels: { r: 10 }, restocked: [] });
  });

  it("refuses malformed changes without touching storage", async () => {
    const inv = fresh();
    for (const change of [{}, { set: -1 }, { add: 0 }, { set: 1, add: 1 }] as never[]) {
      expect(await inv.restock("x", change, 1, V1)).toMatchObject({ ok: false, reason: "invalid_input" });
    }
    expect(await inv.restock("x", { set: 1 }, 1, "not-a-version")).toMatchObject({ ok: false });
    expect(await inv.available(["x"])).toEqual({});
  });
});
