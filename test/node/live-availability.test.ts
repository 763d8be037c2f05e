/** The pure parts of live stock: restock input, the level a reservation would find, and the overlay search uses. */
import { describe, expect, it } from "vitest";
import { effectiveLevel, parseStockChange, restockedLevel } from "../../durable-objects/shared/inventory-plan";
import { forCatalog, liveVariant, overlayIndex } from "../../src/catalog/availability";
import { hydrate, searchIndex } from "../../src/catalog/search-engine";
import { buildSearchIndex, type IndexableProduct } from "../../src/catalog/search-index";

const OLD = "2026-01-01T00:00:00.000Z/a";
const NEW = "2026-02-01T00:00:00.000Z/b";

describe("restock input", () => {
  it("takes exactly one of set (0..1e6) or add (non-zero integer), and names what is wrong", () => {
    expect(parseStockChange({ set: 0 })).toEqual({ ok: true, value: { set: 0 } });
    expect(parseStockChange({ add: -3 })).toEqual({ ok: true, value: { add: -3 } });
    for (const [body, path] of [
      [{}, "$"],
      [[], "$"],
      [null, "$"],
      [{ set: 1, add: 1 }, "$"],
      [{ units: 4 }, "$"],
      [{ set: -1 }, "$.set"],
      [{ set: 1.5 }, "$.set"],
      [{ set: "4" }, "$.set"],
      [{ set: 1_000_001 }, "$.set"],
      [{ add: 0 }, "$.add"],
      [{ add: 2.5 }, "$.add"],
    ] as const) {
      const parsed = parseStockChange(body);
      expect(parsed.ok, JSON.stringify(body)).toBe(false);
      if (!parsed.ok) expect(parsed.error[0]?.path).toBe(path);
    }
  });

  it("never counts below zero", () => {
    expect(restockedLevel(2, { add: -5 })).toBe(0);
    expect(restockedLevel(2, { add: 3 })).toBe(5);
    expect(restockedLevel(null, { add: 3 })).toBe(3);
    expect(restockedLevel(9, { set: 4 })).toBe(4);
  });
});

describe("effectiveLevel", () => {
  it("keeps the stored count of the same or a later load, and takes a later load's level", () => {
    const row = { variantId: "v", version: OLD, level: 0 };
    expect(effectiveLevel(row, 7, OLD)).toEqual({ level: 0, version: OLD });
    expect(effectiveLevel({ ...row, version: NEW }, 7, OLD)).toEqual({ level: 0, version: NEW });
    expect(effectiveLevel(row, 7, NEW)).toEqual({ level: 7, version: NEW });
    expect(effectiveLevel(undefined, undefined, NEW)).toEqual({ level: null, version: NEW });
  });
});

describe("the availability overlay", () => {
  const products: IndexableProduct[] = [
    { id: "p1", title: "Lock Laces", variants: [{ id: "v1", price: { amount: 500 } }] },
    {
      id: "p2",
      title: "Lock Laces Pro",
      variants: [
        { id: "v2", price: { amount: 900 }, availability: { available: false } },
        { id: "v3", price: { amount: 900 } },
      ],
    },
  ] as IndexableProduct[];
  const index = hydrate(buildSearchIndex(products));
  const ids = (live: ReturnType<typeof forCatalog>) =>
    searchIndex(overlayIndex(index, live), "laces", { available: true }, 10).hits.map(
      (h) => index.docs[h.doc]?.v[h.variant]?.[0],
    );

  it("drops sold-out variants from the available filter and brings restocked ones in", () => {
    expect(ids(forCatalog(null, NEW))).toEqual(["v1", "v3"]);
    const doc = { updated_at: "", sold_out: { v1: NEW, v3: NEW }, restocked: { v2: NEW } };
    expect(ids(forCatalog(doc, NEW))).toEqual(["v2"]);
    // The base index is not changed: other snapshots still share it.
    expect(searchIndex(index, "laces", { available: true }, 10).total).toBe(2);
  });

  it("ignores entries counted from an older load than the current catalog", () => {
    const doc = { updated_at: "", sold_out: { v1: OLD }, restocked: { v2: OLD } };
    expect(forCatalog(doc, NEW)).toEqual({ soldOut: new Set(), restocked: new Set() });
    expect(forCatalog(doc, OLD).soldOut).toEqual(new Set(["v1"]));
  });

  it("shows the live status on the variant", () => {
    const live = forCatalog({ updated_at: "", sold_out: { v1: NEW }, restocked: { v2: NEW } }, NEW);
    const v = { id: "v1", title: "t", price: { amount: 1, currency: "USD" }, availability: { status: "in_stock" } };
    expect(liveVariant(v as never, live)).toMatchObject({ availability: { available: false, status: "out_of_stock" } });
    expect(liveVariant({ ...v, id: "v2" } as never, live)).toMatchObject({
      availability: { available: true, status: "in_stock" },
    });
    const untouched = { ...v, id: "v9" };
    expect(liveVariant(untouched as never, live)).toBe(untouched);
  });
});
