/**
 * Refunds by line with restock (issue 26 item 1), through the admin API the console uses:
 * ship two of three lines, refund the third with restock: the line leaves the order (status
 * shipped), the money is its share, the stock shard counts the units back once (a replay with
 * the same key, a new key, a whole cancellation afterwards: never twice, never more than sold).
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { InventoryObject } from "../../durable-objects/inventory-object";
import type { MerchantOrderView } from "../../durable-objects/order-object";
import { stockShardName } from "../../src/catalog/stock-keys";
import type { Json } from "../helpers/checkout";
import { admin, getOrder, orderObject, orderStub, placeOrder } from "./order-helpers";

const A = "var_bhj_black_s";
const B = "var_trt_black_m";
const C = "var_flt_white_l";

const shard = (variant: string) =>
  env.INVENTORY.getByName(stockShardName(variant)) as DurableObjectStub<InventoryObject>;
const stockOf = async (variant: string) => (await shard(variant).available([variant]))[variant];
const lineOf = (order: Json, variant: string) => order.line_items.find((l: Json) => l.item.id === variant);

describe("refund by line with restock", { timeout: 60_000 }, () => {
  it("ships two lines, refunds the third with restock: totals, status and stock show it, once", async () => {
    const { orderId } = await placeOrder([
      { id: A, quantity: 2 },
      { id: B, quantity: 1 },
      { id: C, quantity: 3 },
    ]);
    const placed = await getOrder(orderId);
    const [a, b, c] = [A, B, C].map((v) => lineOf(placed, v));
    const cBefore = await stockOf(C);
    expect(typeof cBefore).toBe("number");

    const shipped = await admin(
      orderId,
      "events",
      {
        type: "shipped",
        line_items: [
          { id: a.id, quantity: 2 },
          { id: b.id, quantity: 1 },
        ],
        carrier: "UPS",
        tracking_number: "1Z999AA10123456784",
      },
      { key: crypto.randomUUID() },
    );
    expect(shipped.status, JSON.stringify(shipped.body)).toBe(200);

    const key = crypto.randomUUID();
    const body = { type: "refund", line_items: [{ id: c.id, quantity: -3 }], restock: true };
    const refunded = await admin(orderId, "adjustments", body, { key });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    const after = refunded.body;
    const cLine = lineOf(after, C);
    expect(cLine.quantity).toMatchObject({ original: 3, total: 0 });
    expect(cLine.status).toBe("removed");
    const share = c.totals.find((t: Json) => t.type === "total").amount;
    expect(after.adjustments.at(-1)).toMatchObject({
      type: "refund",
      status: "completed",
      line_items: [{ id: c.id, quantity: -3 }],
      totals: [{ type: "total", amount: -share }],
    });
    expect(await stockOf(C)).toBe((cBefore as number) + 3);
    // What agents read stays a valid UCP order (getOrder checks the official schema).
    expect(lineOf(await getOrder(orderId), C).status).toBe("removed");

    // The stub's RPC type of the view does not resolve here; the console reads the same object.
    const view = (await orderStub(orderId).merchantView({})) as unknown as MerchantOrderView | undefined;
    expect(view?.status).toBe("shipped");
    expect(view?.refunded).toBe(share);

    // The same form again: the first answer, nothing restocked twice.
    const replay = await admin(orderId, "adjustments", body, { key });
    expect(replay.status).toBe(200);
    expect(replay.body.adjustments).toHaveLength(after.adjustments.length);
    expect(await stockOf(C)).toBe((cBefore as number) + 3);
    // A new key: nothing of the line is left to refund.
    const again = await admin(orderId, "adjustments", body, { key: crypto.randomUUID() });
    expect(again.status).toBe(400);
    expect(JSON.stringify(again.body)).toContain("only 0 unit(s)");
    expect(await stockOf(C)).toBe((cBefore as number) + 3);
  });

  it("a shipped unit refunded (a return) keeps its line shipped; restock only by line; amounts capped", async () => {
    const { orderId } = await placeOrder([{ id: A, quantity: 2 }]);
    const a = lineOf(await getOrder(orderId), A);
    const before = await stockOf(A);
    expect((await admin(orderId, "events", { type: "shipped" }, { key: crypto.randomUUID() })).status).toBe(200);
    const returned = await admin(
      orderId,
      "adjustments",
      { type: "refund", line_items: [{ id: a.id, quantity: -1 }], restock: true, amount: 1000 },
      { key: crypto.randomUUID() },
    );
    expect(returned.status, JSON.stringify(returned.body)).toBe(200);
    expect(lineOf(returned.body, A).quantity).toMatchObject({ total: 2, fulfilled: 2 });
    expect(returned.body.adjustments.at(-1).totals).toEqual([{ type: "total", amount: -1000 }]);
    expect(await stockOf(A)).toBe((before as number) + 1);

    const refusals = [
      { type: "refund", amount: 100, restock: true },
      { type: "refund", line_items: [{ id: a.id, quantity: -2 }] },
      { type: "refund", line_items: [{ id: a.id, quantity: 1 }] },
      { type: "refund", line_items: [{ id: a.id, quantity: -1 }], amount: 10_000_000 },
    ];
    for (const body of refusals) {
      const reply = await admin(orderId, "adjustments", body, { key: crypto.randomUUID() });
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
    expect(await stockOf(A)).toBe((before as number) + 1);
  });

  it("a whole cancellation after a restocked line gives back only the rest of the reservation", async () => {
    const { orderId } = await placeOrder([
      { id: A, quantity: 1 },
      { id: B, quantity: 2 },
    ]);
    const placed = await getOrder(orderId);
    const [stockA, stockB] = [await stockOf(A), await stockOf(B)];
    const refund = await admin(
      orderId,
      "adjustments",
      { type: "refund", line_items: [{ id: lineOf(placed, A).id, quantity: -1 }], restock: true },
      { key: crypto.randomUUID() },
    );
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    const cancel = await admin(orderId, "adjustments", { type: "cancellation" }, { key: crypto.randomUUID() });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(await stockOf(A)).toBe((stockA as number) + 1);
    expect(await stockOf(B)).toBe((stockB as number) + 2);
  });

  it("a cancellation after a shipment returns the canceled units, not the shipped ones", async () => {
    const { orderId } = await placeOrder([
      { id: A, quantity: 2 },
      { id: B, quantity: 1 },
    ]);
    const a = lineOf(await getOrder(orderId), A);
    const [stockA, stockB] = [await stockOf(A), await stockOf(B)];
    const shipped = await admin(
      orderId,
      "events",
      { type: "shipped", line_items: [{ id: a.id, quantity: 1 }] },
      { key: crypto.randomUUID() },
    );
    expect(shipped.status).toBe(200);
    const key = crypto.randomUUID();
    const cancel = await admin(orderId, "adjustments", { type: "cancellation" }, { key });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body.adjustments.at(-1).status).toBe("completed");
    expect(await stockOf(A)).toBe((stockA as number) + 1);
    expect(await stockOf(B)).toBe((stockB as number) + 1);
    expect((await admin(orderId, "adjustments", { type: "cancellation" }, { key })).status).toBe(200);
    expect(await stockOf(A)).toBe((stockA as number) + 1);
  });

  it("the inventory's returns: capped at what the reservation took, once per key, nothing after release", async () => {
    const { orderId } = await placeOrder([{ id: C, quantity: 2 }]);
    const stored = await orderStub(orderId).merchantView({});
    expect(stored).toBeDefined();
    const reservation = (await runReservationId(orderId)) as string;
    const level = await stockOf(C);
    const first = await shard(C).returnUnits(reservation, [{ variantId: C, quantity: 5 }], "k1");
    expect(first).toEqual({ returned: true, lines: [{ variantId: C, quantity: 2 }], replayed: false });
    expect(await shard(C).returnUnits(reservation, [{ variantId: C, quantity: 5 }], "k1")).toMatchObject({
      replayed: true,
    });
    expect(await shard(C).returnUnits(reservation, [{ variantId: C, quantity: 1 }], "k2")).toEqual({
      returned: true,
      lines: [],
      replayed: false,
    });
    expect(await stockOf(C)).toBe((level as number) + 2);
    // The whole release afterwards gives back nothing more.
    expect(await shard(C).release(reservation)).toEqual({ released: true });
    expect(await stockOf(C)).toBe((level as number) + 2);
    expect(await shard(C).returnUnits(reservation, [{ variantId: C, quantity: 1 }], "k3")).toEqual({
      returned: false,
      reason: "already_released",
    });
    expect(await shard(C).returnUnits(reservation, [{ variantId: C, quantity: 0 }], "k4")).toEqual({
      returned: false,
      reason: "invalid_input",
    });
  });
});

async function runReservationId(orderId: string): Promise<string | undefined> {
  const { runInDurableObject } = await import("cloudflare:test");
  return runInDurableObject(await orderObject(orderId), (_o, state) => {
    const row = state.storage.sql.exec<{ state: string }>("SELECT state FROM orders").one();
    return (JSON.parse(row.state) as { reservation_id?: string }).reservation_id;
  });
}
