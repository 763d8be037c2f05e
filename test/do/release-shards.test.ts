/**
 * Issue 27 item 2: a release goes to the shards holding the reservation, not to the
 * store-wide object of before stock was sharded; that object is asked only for a reservation
 * no shard knows (one made before the split).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { InventoryObject } from "../../durable-objects/inventory-object";
import { INVENTORY_NAME, stockVersion } from "../../src/catalog/stock-keys";
import { releaseStock, reserveStock } from "../../src/catalog/stock-shards";

const V1 = stockVersion({ loaded_at: "2026-05-01T10:00:00.000Z", version: "9f86d081884c7d65" });
const fresh = (name: string) => `${name}-${crypto.randomUUID()}`;
const legacy = () => env.INVENTORY.getByName(INVENTORY_NAME) as DurableObjectStub<InventoryObject>;

describe("releasing stock", () => {
  it("a sharded reservation is released on its shards only: the store-wide object is not called", async () => {
    const [m, n] = [fresh("m"), fresh("n")];
    const id = fresh("r");
    const lines = [
      { variantId: m, quantity: 1 },
      { variantId: n, quantity: 2 },
    ];
    expect(await reserveStock(env, id, lines, { [m]: 5, [n]: 5 }, V1)).toMatchObject({ ok: true });
    // A held reservation under the same id on the store-wide object: a call there would release it.
    expect(await legacy().reserve(id, [{ variantId: m, quantity: 1 }], { [m]: 5 }, V1)).toMatchObject({ ok: true });
    expect(await releaseStock(env, id, [m, n])).toEqual({ released: true });
    expect(await releaseStock(env, id, [m, n])).toEqual({ released: false, reason: "already_released" });
    // Still held there: nothing released it.
    expect(await legacy().release(id)).toEqual({ released: true });
  });

  it("a reservation from before the split (on the store-wide object only) is still released", async () => {
    const m = fresh("m");
    const old = fresh("old");
    expect(await legacy().reserve(old, [{ variantId: m, quantity: 2 }], { [m]: 5 }, V1)).toMatchObject({ ok: true });
    expect(await releaseStock(env, old, [m])).toEqual({ released: true });
    expect(await releaseStock(env, old, [m])).toEqual({ released: false, reason: "already_released" });
    expect(await releaseStock(env, fresh("unknown"), [m])).toEqual({ released: false, reason: "not_found" });
  });
});
