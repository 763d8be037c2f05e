/**
 * A stock shard's publisher remembers the last state it wrote per variant so an unchanged one
 * is not rewritten; that memory is bounded (issue 29 item 4: memory that is ours). A shard
 * lives as long as purchases keep reaching it, and before the bound its map kept every variant
 * it ever published.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { INVENTORY_MIGRATIONS } from "../../durable-objects/inventory/layout";
import type { InventoryObject } from "../../durable-objects/inventory-object";
import { PUBLISHED_ENTRIES, ShardPublisher } from "../../durable-objects/shared/availability-publisher";
import { ObjectStore } from "../../durable-objects/shared/kernel";

describe("ShardPublisher's memory of written states", () => {
  it("stays at its bound after many distinct variants, and still skips a recent repeat", async () => {
    const shard = env.INVENTORY.getByName(`bound-${crypto.randomUUID()}`) as DurableObjectStub<InventoryObject>;
    await runInDurableObject(shard, async (_o: InventoryObject, st) => {
      const puts: string[] = [];
      const kv = { put: async (key: string) => void puts.push(key) } as unknown as KVNamespace;
      const bound = 64;
      const publisher = new ShardPublisher(new ObjectStore(st.storage, INVENTORY_MIGRATIONS), kv, undefined, bound);
      const ids = Array.from({ length: 1000 }, (_, i) => `v-${i}`);
      for (let i = 0; i < ids.length; i += 50) await publisher.publish(ids.slice(i, i + 50));
      expect(puts).toHaveLength(1000);
      expect(publisher.remembered).toBe(bound);
      // The most recent ones are remembered: not rewritten.
      await publisher.publish(ids.slice(-bound));
      expect(puts).toHaveLength(1000);
      // A forgotten one is written once more, then remembered again.
      await publisher.publish(["v-0"]);
      await publisher.publish(["v-0"]);
      expect(puts).toHaveLength(1001);
      expect(publisher.remembered).toBe(bound);
    });
    expect(PUBLISHED_ENTRIES).toBeLessThanOrEqual(4096);
  });
});
