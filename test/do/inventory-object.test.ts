import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { InventoryObject, ReserveLine, StockLevel } from "../../durable-objects/inventory-object";
import { MAX_LINES, RESERVATION_KEEP_MS, stockVersion } from "../../durable-objects/shared/inventory-plan";

// Catalog versions as the Worker builds them from the manifest: load time first.
const V1 = stockVersion({ loaded_at: "2026-05-01T10:00:00.000Z", version: "9f86d081884c7d65" });
const V2 = stockVersion({ loaded_at: "2026-05-02T10:00:00.000Z", version: "2c26b46b68ffc68f" });

const fresh = () => env.INVENTORY.getByName(`inv-${crypto.randomUUID()}`) as DurableObjectStub<InventoryObject>;
const line = (variantId: string, quantity: number): ReserveLine => ({ variantId, quantity });
const rid = () => `ord_${crypto.randomUUID()}`;

const tables = (stub: DurableObjectStub<InventoryObject>) =>
  runInDurableObject(stub, (_i: InventoryObject, state) =>
    state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE name NOT LIKE '\\_%' ESCAPE '\\'")
      .toArray()
      .map((r) => r.name),
  );

const reservations = (stub: DurableObjectStub<InventoryObject>) =>
  runInDurableObject(stub, (_i: InventoryObject, state) =>
    state.storage.sql
      .exec<{ id: string; state: string; lines_json: string }>("SELECT id, state, lines_json FROM reservations")
      .toArray(),
  );

describe("reserve", () => {
  it("20 concurrent single-unit reservations against 5 units: exactly 5 succeed", async () => {
    const inv = fresh();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => inv.reserve(rid(), [line("tee-m", 1)], { "tee-m": 5 }, V1)),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(5);
    const short = outcomes.filter((o) => !o.ok);
    expect(short).toHaveLength(15);
    for (const o of short) {
      expect(o).toMatchObject({ reason: "out_of_stock", short: [{ variantId: "tee-m", requested: 1, available: 0 }] });
    }
    expect(await inv.available(["tee-m"])).toEqual({ "tee-m": 0 });
    expect(await reservations(inv)).toHaveLength(5);
  });

  it("is all-or-nothing: one short line reserves nothing", async () => {
    const inv = fresh();
    const levels = { a: 10, b: 2, c: 10 };
    expect((await inv.reserve(rid(), [line("a", 1)], levels, V1)).ok).toBe(true);
    const id = rid();
    const outcome = await inv.reserve(id, [line("a", 3), line("b", 3), line("c", 3)], levels, V1);
    expect(outcome).toEqual({
      ok: false,
      reservationId: id,
      reason: "out_of_stock",
      short: [{ variantId: "b", requested: 3, available: 2 }],
    });
    expect(await inv.available(["a", "b", "c"])).toEqual({ a: 9 });
    expect((await reservations(inv)).map((r) => r.id)).not.toContain(id);
  });

  it("sums lines of the same variant", async () => {
    const inv = fresh();
    const over = await inv.reserve(rid(), [line("a", 3), line("a", 3)], { a: 5 }, V1);
    expect(over).toMatchObject({ ok: false, short: [{ variantId: "a", requested: 6, available: 5 }] });
    expect((await inv.reserve(rid(), [line("a", 2), line("a", 2)], { a: 5 }, V1)).ok).toBe(true);
    expect(await inv.available(["a"])).toEqual({ a: 1 });
    const [recorded] = await reservations(inv);
    expect(JSON.parse(recorded?.lines_json ?? "[]")).toEqual([{ variantId: "a", quantity: 4, version: V1 }]);
  });

  it("replays a repeated id without decrementing again, also under 10 concurrent repeats", async () => {
    const inv = fresh();
    const id = rid();
    expect(await inv.reserve(id, [line("a", 2)], { a: 10 }, V1)).toEqual({
      ok: true,
      reservationId: id,
      replayed: false,
    });
    expect(await inv.reserve(id, [line("a", 2)], { a: 10 }, V1)).toEqual({
      ok: true,
      reservationId: id,
      replayed: true,
    });
    expect(await inv.available(["a"])).toEqual({ a: 8 });

    const burst = rid();
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => inv.reserve(burst, [line("a", 3)], { a: 10 }, V1)),
    );
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(outcomes.filter((o) => o.ok && !o.replayed)).toHaveLength(1);
    expect(await inv.available(["a"])).toEqual({ a: 5 });
  });

  it("refuses an id reused for other lines and changes nothing", async () => {
    const inv = fresh();
    const id = rid();
    await inv.reserve(id, [line("a", 2)], { a: 10, b: 10 }, V1);
    expect(await inv.reserve(id, [line("a", 3)], { a: 10 }, V1)).toEqual({
      ok: false,
      reservationId: id,
      reason: "conflict",
    });
    expect(await inv.reserve(id, [line("a", 2), line("b", 1)], { a: 10, b: 10 }, V1)).toMatchObject({
      reason: "conflict",
    });
    // the same totals split over two lines are the same reservation
    expect(await inv.reserve(id, [line("a", 1), line("a", 1)], { a: 10 }, V1)).toMatchObject({
      ok: true,
      replayed: true,
    });
    expect(await inv.available(["a", "b"])).toEqual({ a: 8 });
  });

  it("does not record a failed reservation: a retry after stock returns can succeed", async () => {
    const inv = fresh();
    await inv.reserve(rid(), [line("a", 1)], { a: 1 }, V1);
    const id = rid();
    expect((await inv.reserve(id, [line("a", 1)], { a: 1 }, V1)).ok).toBe(false);
    expect(await inv.reserve(id, [line("a", 1)], { a: 4 }, V2)).toEqual({
      ok: true,
      reservationId: id,
      replayed: false,
    });
    expect(await inv.available(["a"])).toEqual({ a: 3 });
  });

  it("never blocks on or decrements an untracked (null) level", async () => {
    const inv = fresh();
    const levels = { pre: null, a: 1 };
    for (let i = 0; i < 3; i++) {
      expect((await inv.reserve(rid(), [line("pre", 1_000_000)], levels, V1)).ok).toBe(true);
    }
    expect((await inv.reserve(rid(), [line("pre", 5), line("a", 1)], levels, V1)).ok).toBe(true);
    expect(await inv.available(["pre", "a"])).toEqual({ pre: null, a: 0 });
    const id = rid();
    await inv.reserve(id, [line("pre", 7)], levels, V1);
    expect(await inv.release(id)).toEqual({ released: true });
    expect(await inv.available(["pre"])).toEqual({ pre: null });
    // a later load that starts tracking it restates the level
    expect((await inv.reserve(rid(), [line("pre", 2)], { pre: 3 }, V2)).ok).toBe(true);
    expect(await inv.available(["pre"])).toEqual({ pre: 1 });
  });
});

describe("catalog versions", () => {
  it("a later load restates the level; the same load's level is not re-applied", async () => {
    const inv = fresh();
    await inv.reserve(rid(), [line("a", 4)], { a: 10 }, V1);
    // the same version with another number is the same load: the running count wins
    await inv.reserve(rid(), [line("a", 1)], { a: 50 }, V1);
    expect(await inv.available(["a"])).toEqual({ a: 5 });
    // a later load is the merchant restating stock; reservations before it are not re-subtracted
    await inv.reserve(rid(), [line("a", 1)], { a: 20 }, V2);
    expect(await inv.available(["a"])).toEqual({ a: 19 });
  });

  it("an earlier load (a Worker still on the previous catalog) never overrides a later one", async () => {
    const inv = fresh();
    await inv.reserve(rid(), [line("a", 1)], { a: 3 }, V2);
    const stale = await inv.reserve(rid(), [line("a", 3)], { a: 100 }, V1);
    expect(stale).toMatchObject({ ok: false, short: [{ variantId: "a", requested: 3, available: 2 }] });
    expect((await inv.reserve(rid(), [line("a", 2)], { a: 100 }, V1)).ok).toBe(true);
    expect(await inv.available(["a"])).toEqual({ a: 0 });
    // a variant first seen through the old load is restated when the new one reaches it
    await inv.reserve(rid(), [line("b", 1)], { b: 10 }, V1);
    await inv.reserve(rid(), [line("b", 1)], { b: 4 }, V2);
    expect(await inv.available(["b"])).toEqual({ b: 3 });
  });
});

describe("release", () => {
  it("returns a reservation's units exactly once", async () => {
    const inv = fresh();
    const id = rid();
    await inv.reserve(id, [line("a", 2), line("b", 1)], { a: 5, b: 5 }, V1);
    expect(await inv.available(["a", "b"])).toEqual({ a: 3, b: 4 });
    const twice = await Promise.all([inv.release(id), inv.release(id)]);
    expect(twice).toEqual(
      expect.arrayContaining([{ released: true }, { released: false, reason: "already_released" }]),
    );
    expect(await inv.release(id)).toEqual({ released: false, reason: "already_released" });
    expect(await inv.available(["a", "b"])).toEqual({ a: 5, b: 5 });
    // the id stays spent: a late retry of the reserve replays and takes nothing
    expect(await inv.reserve(id, [line("a", 2), line("b", 1)], { a: 5, b: 5 }, V1)).toMatchObject({ replayed: true });
    expect(await inv.available(["a", "b"])).toEqual({ a: 5, b: 5 });
  });

  it("knows nothing of unknown or failed ids", async () => {
    const inv = fresh();
    expect(await inv.release("ord_unknown")).toEqual({ released: false, reason: "not_found" });
    expect(await tables(inv)).toEqual([]);
    await inv.reserve(rid(), [line("a", 1)], { a: 1 }, V1);
    const failed = rid();
    await inv.reserve(failed, [line("a", 1)], { a: 1 }, V1);
    expect(await inv.release(failed)).toEqual({ released: false, reason: "not_found" });
    expect(await inv.available(["a"])).toEqual({ a: 0 });
  });

  it("does not add units to a level a later load has restated", async () => {
    const inv = fresh();
    const id = rid();
    await inv.reserve(id, [line("a", 2), line("b", 2)], { a: 5, b: 5 }, V1);
    await inv.reserve(rid(), [line("a", 1)], { a: 8 }, V2);
    await inv.release(id);
    expect(await inv.available(["a", "b"])).toEqual({ a: 7, b: 5 });
  });
});

describe("available", () => {
  it("on a fresh object answers {} and writes no storage", async () => {
    const inv = fresh();
    expect(await inv.available(["a", "b"])).toEqual({});
    expect(await tables(inv)).toEqual([]);
  });

  it("omits variants never seen and keeps odd ids as plain data", async () => {
    const inv = fresh();
    await inv.reserve(rid(), [line("__proto__", 1), line("a", 1)], { ["__proto__"]: 3, a: null }, V1);
    const got = await inv.available(["__proto__", "a", "never"]);
    expect(Object.keys(got).sort()).toEqual(["__proto__", "a"]);
    expect(Object.getOwnPropertyDescriptor(got, "__proto__")?.value).toBe(2);
    expect(got.a).toBeNull();
  });

  it("a short or invalid reservation on a fresh object writes no storage either", async () => {
    const inv = fresh();
    expect((await inv.reserve(rid(), [line("a", 2)], { a: 1 }, V1)).ok).toBe(false);
    expect((await inv.reserve(rid(), [line("a", 0)], { a: 1 }, V1)).ok).toBe(false);
    expect(await tables(inv)).toEqual([]);
  });
});

describe("invalid input", () => {
  const invalid: Array<[string, unknown, unknown, unknown, unknown, string]> = [
    ["quantity 0", "r", [line("a", 0)], { a: 5 }, V1, "lines[0].quantity"],
    ["quantity 1.5", "r", [line("a", 1.5)], { a: 5 }, V1, "lines[0].quantity"],
    ["negative quantity", "r", [line("b", 1), line("a", -2)], { a: 5, b: 5 }, V1, "lines[1].quantity"],
    ["NaN quantity", "r", [line("a", Number.NaN)], { a: 5 }, V1, "lines[0].quantity"],
    ["too many lines", "r", Array.from({ length: MAX_LINES + 1 }, () => line("a", 1)), { a: 5 }, V1, "lines"],
    ["no lines", "r", [], { a: 5 }, V1, "lines"],
    ["empty variant id", "r", [line("", 1)], { "": 5 }, V1, "lines[0].variantId"],
    ["empty reservation id", "", [line("a", 1)], { a: 5 }, V1, "reservationId"],
    ["missing level", "r", [line("a", 1), line("z", 1)], { a: 5 }, V1, 'levels["z"]'],
    ["negative level", "r", [line("a", 1)], { a: -1 }, V1, 'levels["a"]'],
    ["fractional level", "r", [line("a", 1)], { a: 2.5 }, V1, 'levels["a"]'],
    ["unordered catalog version", "r", [line("a", 1)], { a: 5 }, "9f86d081884c7d65", "catalogVersion"],
    ["levels not an object", "r", [line("a", 1)], null, V1, "levels"],
  ];

  it.each(invalid)("%s: an invalid_input value, nothing changed", async (_name, id, lines, levels, version, path) => {
    const inv = fresh();
    const held = rid();
    await inv.reserve(held, [line("a", 1)], { a: 5, b: 5, z: 5 }, V1);
    const outcome = await inv.reserve(
      id as string,
      lines as ReserveLine[],
      levels as Record<string, StockLevel>,
      version as string,
    );
    expect(outcome).toMatchObject({ ok: false, reason: "invalid_input" });
    expect(!outcome.ok && outcome.reason === "invalid_input" && outcome.issues.map((i) => i.path)).toContain(path);
    expect(await inv.available(["a", "b", "z"])).toEqual({ a: 4 });
    expect((await reservations(inv)).map((r) => r.id)).toEqual([held]);
  });

  it("an invalid repeat of a held id is refused, not replayed", async () => {
    const inv = fresh();
    const id = rid();
    await inv.reserve(id, [line("a", 1)], { a: 5 }, V1);
    expect(await inv.reserve(id, [line("a", 0)], { a: 5 }, V1)).toMatchObject({ reason: "invalid_input" });
  });
});

describe("retention", () => {
  const age = (inv: DurableObjectStub<InventoryObject>, ms: number) =>
    runInDurableObject(inv, (_i: InventoryObject, state) => {
      state.storage.sql.exec(
        "UPDATE reservations SET created_at = ?1, released_at = CASE WHEN released_at IS NULL THEN NULL ELSE ?1 END",
        Date.now() - ms,
      );
    });
  const alarmOf = (inv: DurableObjectStub<InventoryObject>) =>
    runInDurableObject(inv, (_i: InventoryObject, state) => state.storage.getAlarm());

  it("arms no alarm while nothing is released", async () => {
    const inv = fresh();
    await inv.reserve(rid(), [line("a", 1)], { a: 5 }, V1);
    expect(await alarmOf(inv)).toBeNull();
  });

  it("keeps released records 30 days, then prunes them; held ones stay; a second run is harmless", async () => {
    const inv = fresh();
    const held = rid();
    const released = rid();
    await inv.reserve(held, [line("a", 1)], { a: 5 }, V1);
    await inv.reserve(released, [line("a", 1)], { a: 5 }, V1);
    const before = Date.now();
    await inv.release(released);
    expect(await alarmOf(inv)).toBeGreaterThanOrEqual(before + RESERVATION_KEEP_MS);

    // an early alarm keeps the record and re-arms for its deadline
    await runInDurableObject(inv, (instance: InventoryObject) => instance.alarm());
    expect((await reservations(inv)).map((r) => r.id).sort()).toEqual([held, released].sort());
    expect(await alarmOf(inv)).toBeGreaterThanOrEqual(before + RESERVATION_KEEP_MS);

    await age(inv, 29 * 24 * 3600_000);
    await runInDurableObject(inv, (instance: InventoryObject) => instance.alarm());
    expect(await reservations(inv)).toHaveLength(2);

    await age(inv, RESERVATION_KEEP_MS + 60_000);
    expect(await runDurableObjectAlarm(inv)).toBe(true);
    expect((await reservations(inv)).map((r) => r.id)).toEqual([held]);
    expect(await alarmOf(inv)).toBeNull();
    // at-least-once delivery: a repeat finds nothing to do
    expect(await runDurableObjectAlarm(inv)).toBe(false);
    await runInDurableObject(inv, (instance: InventoryObject) => instance.alarm());
    expect((await reservations(inv)).map((r) => r.id)).toEqual([held]);
    expect(await inv.available(["a"])).toEqual({ a: 4 });
  });
});

describe("many reservations in a row", () => {
  it("keeps exact counts over 300 sequential three-line reservations", async () => {
    const inv = fresh();
    const levels = { a: 1_000_000, b: 1_000_000, c: 1_000_000 };
    const lines = [line("a", 1), line("b", 2), line("c", 1)];
    for (let i = 0; i < 300; i++) {
      const outcome = await inv.reserve(rid(), lines, levels, V1);
      if (!outcome.ok) throw new Error(`reservation ${i} failed`);
    }
    expect(await inv.available(["a", "b", "c"])).toEqual({ a: 999_700, b: 999_400, c: 999_700 });
  });
});
