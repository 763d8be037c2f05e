/**
 * The order object remembers its tables and arms its alarm from one query (issue 14 item 2).
 * What must not change with that: an order stored before most tables existed (only `orders`)
 * still reads, changes and runs its alarm, and the one-query deadline is the earliest of the
 * five per-table deadlines it replaced.
 */
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CAPTURES_SCHEMA, capturesDeadline } from "../../durable-objects/order/captures";
import { orderDeadline } from "../../durable-objects/order/deadline";
import { feedIndex, INDEX_FEED_SCHEMA, indexFeedDeadline } from "../../durable-objects/order/index-feed";
import { enqueue, OUTBOX_SCHEMA, outboxDeadline } from "../../durable-objects/order/outbox";
import { EFFECTS_SCHEMA, effectsDeadline, queueEffects } from "../../durable-objects/order/settlement";
import {
  DELIVERIES_SCHEMA,
  enqueueWebhook,
  WEBHOOKS_SCHEMA,
  webhooksDeadline,
} from "../../durable-objects/order/webhooks";
import type { OrderObject } from "../../durable-objects/order-object";
import { LEDGER_KEEP_MS, LEDGER_SCHEMA, ledgerDeadline } from "../../durable-objects/shared/idempotency";
import { ORDER_ONLY_ENVELOPE } from "../../src/order/merchant-envelope";
import type { OrderState } from "../../src/order/order-state";
import { orderObject, placeOrder } from "./order-helpers";

/** Every table of the order's layout, schema_version included (durable-objects/shared/kernel.ts, issue 27). */
const LAYOUT = [
  "captures",
  "effects",
  "index_feed",
  "ledger",
  "orders",
  "outbox",
  "release_lines",
  "schema_version",
  "webhook_deliveries",
  "webhooks",
].sort();

const fresh = () => env.ORDER.getByName(`t-${crypto.randomUUID()}`) as DurableObjectStub<OrderObject>;

const tables = (stub: DurableObjectStub<OrderObject>) =>
  runInDurableObject(stub, (_o: OrderObject, state) =>
    state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%'")
      .toArray()
      .map((r) => r.name)
      .sort(),
  );

describe("an order from before the outbox (only `orders`)", () => {
  it("reads, changes and runs its alarm; its first change adds the other tables", async () => {
    const { orderId } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    const order = await runInDurableObject(await orderObject(orderId), (_o: OrderObject, state) =>
      JSON.parse(state.storage.sql.exec<{ state: string }>("SELECT state FROM orders").one().state),
    );
    const old: OrderState = { ...order, id: `ord_old${crypto.randomUUID().slice(0, 8)}` };
    const stub = fresh();
    await runInDurableObject(stub, (_o: OrderObject, state) => {
      state.storage.sql.exec("CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, state TEXT NOT NULL)");
      state.storage.sql.exec("INSERT INTO orders (id, state) VALUES (?, ?)", old.id, JSON.stringify(old));
    });
    expect(await tables(stub)).toEqual(["orders"]);
    // Reads write nothing and find what there is.
    const read = await stub.read(old.owner, ORDER_ONLY_ENVELOPE);
    expect(read.kind).toBe("ok");
    expect(await stub.outbox()).toEqual([]);
    expect(await stub.webhooks()).toEqual([]);
    expect((await stub.indexState())?.version).toBe(0);
    const view = await runInDurableObject(stub, (o: OrderObject) => o.merchantView(ORDER_ONLY_ENVELOPE));
    expect(view?.webhooks).toEqual([]);
    expect(await tables(stub)).toEqual(["orders"]);
    // The alarm of an order with no outbox does nothing (as before).
    await runInDurableObject(stub, (o: OrderObject) => o.alarm());
    expect(await tables(stub)).toEqual(["orders"]);
    // The first change creates the rest, in its transaction, and is fed to the index.
    const shipped = await stub.recordEvent({
      input: { type: "shipped", tracking_number: "T9" },
      idempotency: undefined,
      envelope: ORDER_ONLY_ENVELOPE,
    });
    expect(shipped.kind).toBe("ok");
    expect(await tables(stub)).toEqual(LAYOUT);
    expect((await stub.indexState())?.entry.status).toBe("shipped");
    await runDurableObjectAlarm(stub);
    expect((await stub.indexState())?.version).toBeGreaterThan(0);
  });
});

describe("a new order's tables", () => {
  // Issue 27: the kernel makes an order's whole layout in its one migration at creation (before,
  // creation made only index_feed, orders and outbox, and the first change the rest).
  it("are the whole layout from creation; a change keeps it, and the deadline sees the ledger", async () => {
    const { orderId } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    const order = await runInDurableObject(await orderObject(orderId), (_o: OrderObject, state) =>
      JSON.parse(state.storage.sql.exec<{ state: string }>("SELECT state FROM orders").one().state),
    );
    const stub = fresh();
    const copy: OrderState = { ...order, id: `ord_new${crypto.randomUUID().slice(0, 8)}`, webhook_url: undefined };
    expect(await stub.create(copy)).toEqual({ created: true });
    expect(await tables(stub)).toEqual(LAYOUT);
    expect(await stub.webhooks()).toEqual([]);
    // A retried create changes nothing and answers the same.
    expect(await stub.create(copy)).toEqual({ created: false });
    const key = `k-${crypto.randomUUID()}`;
    const shipped = await stub.recordEvent({
      input: { type: "shipped" },
      idempotency: { key: `event:${key}`, hash: "h" },
      envelope: ORDER_ONLY_ENVELOPE,
    });
    expect(shipped.kind).toBe("ok");
    expect(await tables(stub)).toEqual(LAYOUT);
    // The ledger entry's expiry is what the alarm waits for now.
    const alarm = await runInDurableObject(stub, (_o: OrderObject, state) => state.storage.getAlarm());
    const created = await runInDurableObject(
      stub,
      (_o: OrderObject, state) =>
        state.storage.sql.exec<{ created_at: number }>("SELECT created_at FROM ledger").one().created_at,
    );
    expect(alarm).toBe(created + LEDGER_KEEP_MS);
  });
});

describe("the order's alarm deadline", () => {
  it("is the earliest of the outbox, effects, captures, ledger, head webhook and index feed deadlines", async () => {
    await runInDurableObject(fresh(), (_o: OrderObject, state) => {
      const sql = state.storage.sql;
      for (const s of [
        OUTBOX_SCHEMA,
        EFFECTS_SCHEMA,
        CAPTURES_SCHEMA,
        LEDGER_SCHEMA,
        WEBHOOKS_SCHEMA,
        DELIVERIES_SCHEMA,
        INDEX_FEED_SCHEMA,
      ])
        sql.exec(s);
      const each = () =>
        [outboxDeadline, effectsDeadline, capturesDeadline, ledgerDeadline, webhooksDeadline, indexFeedDeadline]
          .map((f) => f(sql))
          .filter((d): d is number => d !== undefined);
      const expected = () => (each().length > 0 ? Math.min(...each()) : undefined);
      expect(orderDeadline(sql)).toBeUndefined();
      const t = Date.parse("2026-05-01T00:00:00Z");
      sql.exec("INSERT INTO ledger (key, request_hash, response, created_at) VALUES ('k', 'h', '{}', ?)", t);
      expect(orderDeadline(sql)).toBe(expected());
      // A later head webhook decides, not an earlier one behind it (the head is sent first).
      enqueueWebhook(sql, { event: "order.created", url: "https://p.example/w", body: "{}" }, t + 5000);
      enqueueWebhook(sql, { event: "order.updated", url: "https://p.example/w", body: "{}" }, t + 1000);
      expect(orderDeadline(sql)).toBe(t + 5000);
      expect(orderDeadline(sql)).toBe(expected());
      queueEffects(sql, "adj_1", [{ kind: "release", reservationId: "r1" }], t + 3000);
      expect(orderDeadline(sql)).toBe(t + 3000);
      enqueue(sql, { kind: "order_confirmation", to: "a@example.com", orderId: "ord_1" }, t + 2000);
      expect(orderDeadline(sql)).toBe(expected());
      feedIndex(
        sql,
        {
          id: "ord_1",
          created_at: t,
          status: "processing",
          total: 1,
          refunded: 0,
          currency: "USD",
          buyer_email: null,
          platform: "p",
          webhook_failures: 0,
          last_webhook_failure_at: null,
          lines: [],
        },
        t + 500,
      );
      expect(orderDeadline(sql)).toBe(t + 500);
      // Done or given-up rows are not due.
      sql.exec("UPDATE index_feed SET next_attempt_at = NULL");
      sql.exec("UPDATE outbox SET next_attempt_at = NULL, sent_at = ?", t);
      sql.exec("UPDATE webhooks SET failed_at = ?, next_attempt_at = NULL WHERE event = 'order.created'", t);
      expect(orderDeadline(sql)).toBe(expected());
      expect(orderDeadline(sql)).toBe(t + 1000);
    });
  });
});
