/**
 * Where a rebuild finds an order's id (issue 29 item 2): a numbered order is recorded by its
 * number's allocation, before the order exists, so its feed makes no call to the id log; an
 * order placed without a number (before issue 25) is in the log. The wiped-index rebuild
 * itself is test/admin-console/order-index.test.ts.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { OrderIndexObject } from "../../durable-objects/order-index-object";
import { ORDER_LOG_NAME } from "../../src/order/index-entry";
import { ORDER_NUMBERS_NAME } from "../../src/order/order-number";
import { placeOrder } from "./order-helpers";

const object = (name: string) => env.ORDER_INDEX.getByName(name) as DurableObjectStub<OrderIndexObject>;

describe("the ids a rebuild walks", () => {
  it("a numbered order's id is the numbers object's, and the log is not called for it", async () => {
    const { orderId } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    expect(await object(ORDER_NUMBERS_NAME).ids("", 1000)).toContain(orderId);
    expect(await object(ORDER_LOG_NAME).ids("", 1000)).not.toContain(orderId);
  });

  it("an order logged without a number is walked too, in id order with the numbered ones", async () => {
    const { orderId } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    await object(ORDER_LOG_NAME).append("ord_0000legacy", Date.now());
    const log = await object(ORDER_LOG_NAME).ids("", 1000);
    expect(log).toEqual(["ord_0000legacy"]);
    const numbered = await object(ORDER_NUMBERS_NAME).ids("", 1000);
    expect(numbered).toContain(orderId);
    // Paging: after an id, only later ones.
    expect(await object(ORDER_NUMBERS_NAME).ids(orderId, 1000)).not.toContain(orderId);
  });
});
