/**
 * The order index (issue 13): every order event reaches it through the order's feed (create,
 * ship, refund, cancel), the list filters, searches and pages by keyset, and a lost index is
 * rebuilt from the order objects.
 */

import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sendIndexFeed } from "../../durable-objects/order/index-feed";
import type { OrderIndexObject } from "../../durable-objects/order-index-object";
import { ORDER_INDEX_NAME, type OrderIndexEntry } from "../../src/order/index-entry";
import { type OrderListQuery, parseListQuery } from "../../src/order/index-query";
import { FULL_PROFILE } from "../helpers/mcp";
import { admin, getOrder, orderObject, orderStub, placeOrder } from "../order/order-helpers";

const index = () => env.ORDER_INDEX.getByName(ORDER_INDEX_NAME) as DurableObjectStub<OrderIndexObject>;

function query(params: Record<string, string>): OrderListQuery {
  const parsed = parseListQuery(new URLSearchParams(params));
  if (!("query" in parsed)) throw new Error(JSON.stringify(parsed.issues));
  return parsed.query;
}

async function row(orderId: string) {
  const page = await index().list(query({ q: orderId }));
  expect(page.orders.length).toBeLessThanOrEqual(1);
  return page.orders[0];
}

const DAY = 86_400_000;
const BASE = Date.parse("2026-01-01T00:00:00Z");

function entry(n: number, overrides: Partial<OrderIndexEntry> = {}): OrderIndexEntry {
  return {
    id: `ord_synthetic${String(n).padStart(4, "0")}`,
    created_at: BASE + Math.floor(n / 3) * DAY,
    status: n % 4 === 0 ? "shipped" : "processing",
    total: 1000 + n,
    refunded: 0,
    currency: "USD",
    buyer_email: `buyer${n % 5}@synthetic.example`,
    platform: "https://platform.example/p.json",
    webhook_failures: 0,
    last_webhook_failure_at: null,
    lines: [{ item_id: "var_x", title: "X", quantity: 1, amount: 1000 + n }],
    ...overrides,
  };
}

describe("the feed", () => {
  it("an order is listed at creation, and its status follows shipping, a refund and a cancellation", async () => {
    const { orderId } = await placeOrder([
      { id: "item_123", quantity: 2 },
      { id: "item_456", quantity: 1 },
    ]);
    const order = await getOrder(orderId);
    const total = order.totals.find((t: { type: string }) => t.type === "total").amount;
    expect(await row(orderId)).toEqual({
      id: orderId,
      number: Number(order.label.slice(1)),
      created_at: expect.any(Number),
      status: "processing",
      total,
      refunded: 0,
      currency: "USD",
      buyer_email: "jane@example.com",
      platform: FULL_PROFILE,
      webhook_failures: 0,
    });
    const line = order.line_items[0].id;
    expect((await admin(orderId, "events", { type: "shipped", line_items: [{ id: line, quantity: 2 }] })).status).toBe(
      200,
    );
    expect((await row(orderId))?.status).toBe("partially_shipped");
    expect((await admin(orderId, "events", { type: "shipped", carrier: "UPS", tracking_number: "1Z" })).status).toBe(
      200,
    );
    expect((await row(orderId))?.status).toBe("shipped");
    expect((await admin(orderId, "adjustments", { type: "refund", amount: 500 })).status).toBe(200);
    expect(await row(orderId)).toMatchObject({ status: "shipped", refunded: 500 });
    expect((await admin(orderId, "events", { type: "delivered" })).status).toBe(200);
    expect((await row(orderId))?.status).toBe("delivered");
  });

  it("a cancellation lists the order as canceled with its refund", async () => {
    const { orderId } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    expect((await admin(orderId, "adjustments", { type: "cancellation" })).status).toBe(200);
    const listed = await row(orderId);
    expect(listed?.status).toBe("canceled");
    expect(listed?.refunded).toBe(listed?.total);
  });

  it("an index that refused the entry gets it from the order's alarm (the feed stays due)", async () => {
    const { orderId } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    const _stub = orderStub(orderId);
    const object = await orderObject(orderId);
    // A change the index never hears of: the send fails, the row keeps the version due.
    await runInDurableObject(object, async (_o: unknown, state) => {
      const sql = state.storage.sql;
      sql.exec("UPDATE index_feed SET version = version + 1, next_attempt_at = ?", Date.now());
      const { version } = sql.exec<{ version: number }>("SELECT version FROM index_feed").one();
      await sendIndexFeed(sql, () => Promise.reject(new Error("index unavailable")), Date.now);
      const after = sql
        .exec<{ sent_version: number; next_attempt_at: number | null }>("SELECT * FROM index_feed")
        .one();
      expect(after.sent_version).toBeLessThan(version);
      expect(after.next_attempt_at).toBeGreaterThan(Date.now());
    });
    expect((await admin(orderId, "events", { type: "shipped" })).status).toBe(200);
    expect((await row(orderId))?.status).toBe("shipped");
    await runInDurableObject(object, (_o: unknown, state) => {
      const feed = state.storage.sql.exec<{ version: number; sent_version: number }>("SELECT * FROM index_feed").one();
      expect(feed.sent_version).toBe(feed.version);
    });
  });
});

describe("the list", () => {
  it("filters by status and date range, newest first", async () => {
    await index().upsertMany(Array.from({ length: 30 }, (_, n) => ({ entry: entry(n), version: 1 })));
    const shipped = await index().list(query({ status: "shipped", q: "ord_synthetic" }));
    expect(shipped.orders.map((o) => o.id)).toEqual(
      Array.from({ length: 30 }, (_, n) => n)
        .filter((n) => n % 4 === 0)
        .reverse()
        .map((n) => entry(n).id),
    );
    const week = await index().list(query({ from: "2026-01-02", to: "2026-01-03", q: "ord_synthetic" }));
    // Days 1 and 2 hold n = 3..8; `to` is inclusive of its whole day.
    expect(week.orders.map((o) => o.id)).toEqual([8, 7, 6, 5, 4, 3].map((n) => entry(n).id));
  });

  it("searches by order id, exact email and email prefix", async () => {
    await index().upsertMany(Array.from({ length: 30 }, (_, n) => ({ entry: entry(n), version: 1 })));
    expect((await index().list(query({ q: entry(7).id }))).orders.map((o) => o.id)).toEqual([entry(7).id]);
    const byEmail = await index().list(query({ q: "BUYER2@synthetic.example" }));
    expect(byEmail.orders.map((o) => o.id)).toEqual([27, 22, 17, 12, 7, 2].map((n) => entry(n).id));
    expect((await index().list(query({ q: "buyer2" }))).orders).toHaveLength(6);
    expect((await index().list(query({ q: "nobody@synthetic.example" }))).orders).toEqual([]);
  });

  it("pages by keyset: every order once, in order, even where created_at ties", async () => {
    await index().upsertMany(Array.from({ length: 30 }, (_, n) => ({ entry: entry(n), version: 1 })));
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const got = await index().list(query({ q: "ord_synthetic", limit: "7", ...(cursor ? { cursor } : {}) }));
      seen.push(...got.orders.map((o) => o.id));
      cursor = got.next_cursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(Array.from({ length: 30 }, (_, n) => entry(29 - n).id));
  });

  it("keeps the newest version: an older or repeated delivery changes nothing", async () => {
    const id = entry(100).id;
    await index().upsert(entry(100, { status: "shipped" }), 3);
    await index().upsert(entry(100, { status: "processing" }), 2);
    expect((await row(id))?.status).toBe("shipped");
    await index().upsert(entry(100, { status: "delivered" }), 4);
    expect((await row(id))?.status).toBe("delivered");
  });

  it("refuses a bad filter with the field named", () => {
    const parsed = parseListQuery(new URLSearchParams({ status: "lost", from: "yesterday", limit: "0", cursor: "!" }));
    expect(parsed).toEqual({
      issues: [
        { path: "status", message: expect.any(String) },
        { path: "from", message: "a date as YYYY-MM-DD" },
        { path: "limit", message: expect.any(String) },
        { path: "cursor", message: "a cursor from a previous page" },
      ],
    });
  });
});

describe("rebuild", () => {
  it("a wiped index is rebuilt from the order objects by the log's ids, with each order's current state", async () => {
    const { orderId } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    expect((await admin(orderId, "events", { type: "shipped", tracking_number: "T1" })).status).toBe(200);
    // The whole index object wiped (as a schema change or a bug would): the log object keeps the ids.
    // Behind the object's back: its store re-learns the layout (shared/kernel.ts).
    await runInDurableObject(index(), async (_o: OrderIndexObject, state) => {
      await state.storage.deleteAll();
    });
    expect(await row(orderId)).toBeUndefined();
    expect((await index().rebuild()).running).toBe(true);
    for (let i = 0; i < 20 && (await index().rebuildStatus()).running; i++) await runDurableObjectAlarm(index());
    const status = await index().rebuildStatus();
    // Every order placed in this file, and only those (the synthetic rows were never logged).
    expect(status).toMatchObject({ running: false, pulled: 4, missing: 0 });
    expect(await row(orderId)).toMatchObject({ id: orderId, status: "shipped", buyer_email: "jane@example.com" });
  });
});
