import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { stockShardName } from "../../src/catalog/stock-keys";
import { testProcessor } from "../../src/payment/processor";
import type { Json } from "../helpers/checkout";
import { admin, expectOrder, getOrder, orderObject, orderStub, placeOrder } from "./order-helpers";

/** A variant's stock object (issue 14: one per variant). */
const inventory = (variant: string) => env.INVENTORY.getByName(stockShardName(variant));

describe("adjustments", () => {
  it("a refund is recorded with negative totals and paid back once", async () => {
    const { orderId } = await placeOrder([{ id: "item_456", quantity: 2 }]);
    const lineId = (await getOrder(orderId)).line_items[0].id;
    const refund = vi.spyOn(testProcessor, "refund");
    const reply = await admin(orderId, "adjustments", {
      type: "refund",
      line_items: [{ id: lineId, quantity: -1 }],
      amount: 1000,
      description: "Defective item",
    });
    expect(reply.status).toBe(200);
    expect(reply.body.adjustments).toEqual([
      {
        id: "adj_1",
        type: "refund",
        occurred_at: expect.any(String),
        status: "completed",
        line_items: [{ id: lineId, quantity: -1 }],
        totals: [{ type: "total", amount: -1000 }],
        description: "Defective item",
      },
    ]);
    expect(refund).toHaveBeenCalledTimes(1);
    expect(refund.mock.calls[0]?.[1]).toBe(1000);
    // a refund is money, not units: the line keeps its quantity
    expect(reply.body.line_items[0].quantity.total).toBe(2);
    const order = await getOrder(orderId);
    expect(order.adjustments).toEqual(reply.body.adjustments);
    const total = order.totals.find((t: Json) => t.type === "total").amount;
    const tooMuch = await admin(orderId, "adjustments", { type: "refund", amount: total });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.issues).toEqual([
      { path: "$.amount", message: `at most ${total - 1000} can still be refunded` },
    ]);
    const noAmount = await admin(orderId, "adjustments", { type: "refund" });
    expect(noAmount.body.issues[0]).toMatchObject({ path: "$.amount" });
    refund.mockRestore();
  });

  it("a cancellation returns the stock and refunds once, also when retried with the same Idempotency-Key", async () => {
    const variant = "var_trt_blue_l";
    const { orderId } = await placeOrder([{ id: variant, quantity: 2 }]);
    const held = (await inventory(variant).available([variant]))[variant] as number;
    const order = await getOrder(orderId);
    const total = order.totals.find((t: Json) => t.type === "total").amount;
    const refund = vi.spyOn(testProcessor, "refund");
    const key = crypto.randomUUID();
    const body = { type: "cancellation", description: "Buyer asked" };
    const first = await admin(orderId, "adjustments", body, { key });
    expect(first.status).toBe(200);
    expectOrder(first.body);
    expect(first.body.adjustments[0]).toMatchObject({
      type: "cancellation",
      status: "completed",
      line_items: [{ id: order.line_items[0].id, quantity: -2 }],
      totals: [{ type: "total", amount: -total }],
    });
    expect(first.body.line_items[0]).toMatchObject({
      quantity: { original: 2, total: 0, fulfilled: 0 },
      status: "removed",
    });
    expect((await inventory(variant).available([variant]))[variant]).toBe(held + 2);

    const retried = await admin(orderId, "adjustments", body, { key });
    expect(retried).toEqual(first);
    // One ledger entry, holding the settled answer the first caller got (on-disk format unchanged).
    // The order shares its checkout's ledger (issue 29): the merchant's entries are its own keys.
    const ledger = await runInDurableObject(await orderObject(orderId), (_o: unknown, state) =>
      state.storage.sql
        .exec<{ key: string; response: string }>("SELECT key, response FROM ledger WHERE key LIKE 'admin-%'")
        .toArray(),
    );
    expect(ledger).toEqual([{ key: `admin-adjustments:${key}`, response: JSON.stringify(first.body) }]);
    const again = await admin(orderId, "adjustments", { ...body, description: "other" }, { key });
    expect(again.status).toBe(409);
    expect(refund).toHaveBeenCalledTimes(1);
    expect(refund.mock.calls[0]?.[1]).toBe(total);
    expect((await inventory(variant).available([variant]))[variant]).toBe(held + 2);
    const effects = await runInDurableObject(await orderObject(orderId), (_o: unknown, state) =>
      state.storage.sql.exec("SELECT kind, amount, attempts, done_at FROM effects ORDER BY kind").toArray(),
    );
    expect(effects).toEqual([
      { kind: "refund", amount: total, attempts: 1, done_at: expect.any(Number) },
      { kind: "release", amount: 0, attempts: 1, done_at: expect.any(Number) },
    ]);
    // without a key a second cancellation is a new request: nothing is left to cancel
    const twice = await admin(orderId, "adjustments", body);
    expect(twice.status).toBe(400);
    expect(refund).toHaveBeenCalledTimes(1);
    refund.mockRestore();
    expect((await getOrder(orderId)).adjustments).toHaveLength(1);
  });

  it("concurrent retries with one Idempotency-Key refund once", async () => {
    const { orderId } = await placeOrder([{ id: "item_456", quantity: 1 }]);
    const refund = vi.spyOn(testProcessor, "refund");
    const key = crypto.randomUUID();
    const replies = await Promise.all(
      [0, 1, 2].map(() => admin(orderId, "adjustments", { type: "refund", amount: 500 }, { key })),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(refund).toHaveBeenCalledTimes(1);
    expect((await getOrder(orderId)).adjustments).toHaveLength(1);
    refund.mockRestore();
  });

  it("a refund the processor refuses stays pending; the alarm retries it to completed", async () => {
    const { orderId } = await placeOrder([{ id: "item_456", quantity: 1 }]);
    const refund = vi.spyOn(testProcessor, "refund").mockResolvedValueOnce({ ok: false });
    const reply = await admin(orderId, "adjustments", { type: "refund", amount: 700 });
    expect(reply.body.adjustments[0]).toMatchObject({ status: "pending", totals: [{ type: "total", amount: -700 }] });
    const _stub = orderStub(orderId);
    const object = await orderObject(orderId);
    // Bring the retry forward instead of waiting out the backoff.
    await runInDurableObject(object, async (_o: unknown, state) => {
      state.storage.sql.exec("UPDATE effects SET next_attempt_at = ?", Date.now());
      await state.storage.setAlarm(Date.now() + 3600_000);
    });
    expect(await runDurableObjectAlarm(object)).toBe(true);
    expect((await getOrder(orderId)).adjustments[0].status).toBe("completed");
    expect(refund).toHaveBeenCalledTimes(2);
    refund.mockRestore();
  });

  it("a partial cancellation reduces the line, refunds its share and returns its units to stock", async () => {
    const variant = "var_trt_blue_m";
    const { orderId } = await placeOrder([{ id: variant, quantity: 3 }]);
    const held = (await inventory(variant).available([variant]))[variant];
    const line = (await getOrder(orderId)).line_items[0];
    const reply = await admin(orderId, "adjustments", {
      type: "cancellation",
      line_items: [{ id: line.id, quantity: -1 }],
    });
    expect(reply.body.line_items[0]).toMatchObject({ quantity: { total: 2, fulfilled: 0 }, status: "processing" });
    const lineTotal = line.totals.find((t: Json) => t.type === "total").amount;
    expect(reply.body.adjustments[0].totals).toEqual([{ type: "total", amount: -lineTotal / 3 }]);
    // The canceled unit goes back through the reservation (issue 26: returnUnits), the rest stay held.
    expect((await inventory(variant).available([variant]))[variant]).toBe((held as number) + 1);
    const grow = await admin(orderId, "adjustments", {
      type: "cancellation",
      line_items: [{ id: line.id, quantity: 1 }],
    });
    expect(grow.status).toBe(400);
  });
});
