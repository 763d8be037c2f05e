import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { deliverDue, enqueue, OUTBOX_SCHEMA, outboxRows } from "../../durable-objects/order/outbox";
import type { OrderObject } from "../../durable-objects/order-object";
import { MAX_ATTEMPTS, nextAttemptAt } from "../../src/lib/retry";
import type { NotificationMessage, NotificationSender } from "../../src/notify/sender";
import { pay, tool } from "../helpers/checkout";
import { getOrder, orderObject, orderStub, placeOrder } from "./order-helpers";

/** The subject names the order by its short number ("#1001"), which no other order has. */
const confirmationsLogged = (log: { mock: { calls: unknown[][] } }, label: string) =>
  log.mock.calls.filter(
    ([line]) => String(line).startsWith("notify order_confirmation") && String(line).includes(`order ${label} `),
  );

afterEach(() => {
  vi.restoreAllMocks();
});

describe("order confirmation", () => {
  it("queues exactly one confirmation per order and sends it once, however often the alarm runs", async () => {
    const log = vi.spyOn(console, "log");
    const { orderId, completion } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    const stub = orderStub(orderId);
    const object = await orderObject(orderId);
    // Sent right after creation, without an alarm run (issue 14); the alarm finds nothing due.
    expect((await stub.outbox())[0]).toMatchObject({ attempts: 1, sent_at: expect.any(Number) });
    await runDurableObjectAlarm(object);
    const [row, ...more] = await stub.outbox();
    expect(more).toEqual([]);
    expect(row).toMatchObject({
      id: `order_confirmation:${orderId}`,
      kind: "order_confirmation",
      to: "jane@example.com",
      order_id: orderId,
      attempts: 1,
      sent_at: expect.any(Number),
      next_attempt_at: null,
    });
    await runInDurableObject(object, (o: OrderObject) => o.alarm());
    await runInDurableObject(object, (o: OrderObject) => o.alarm());
    // a completion retried under another key finds the order made: no second confirmation
    const replay = await tool("complete_checkout", { id: completion.checkoutId, checkout: pay("success_token") }, "k2");
    expect(replay.body.result.structuredContent.order.id).toBe(orderId);
    expect(await stub.outbox()).toEqual([row]);
    const { label } = await getOrder(orderId);
    expect(confirmationsLogged(log, label)).toHaveLength(1);
    expect(String(confirmationsLogged(log, label)[0]?.[0])).not.toContain("jane@");
    expect(JSON.stringify(await getOrder(orderId))).not.toContain("jane@example.com");
  });

  it("is delivered by the alarm: pending until it runs, then never again", async () => {
    const { orderId } = await placeOrder([{ id: "item_456", quantity: 1 }]);
    const stub = env.ORDER.getByName(`t-${crypto.randomUUID()}`) as DurableObjectStub<OrderObject>;
    const order = await runInDurableObject(await orderObject(orderId), (_o: unknown, state) =>
      JSON.parse(state.storage.sql.exec<{ state: string }>("SELECT state FROM orders").one().state),
    );
    // A copy in a fresh object, its confirmation put back to pending (as when the send right
    // after creation died with the isolate) and its alarm off the clock, so that
    // runDurableObjectAlarm below is certainly what delivers.
    await runInDurableObject(stub, (o: OrderObject) => o.create({ ...order, id: "ord_copy" }));
    // Its follow-up after the answer (the index entry, then re-arming) runs out first, so the
    // alarm set below stays as set (issue 27: the index is fed after the answer).
    await vi.waitUntil(() =>
      runInDurableObject(
        stub,
        (_o: OrderObject, state) =>
          state.storage.sql.exec("SELECT 1 FROM index_feed WHERE next_attempt_at IS NULL").toArray().length === 1,
      ),
    );
    await runInDurableObject(stub, async (_o: OrderObject, state) => {
      state.storage.sql.exec("UPDATE outbox SET attempts = 0, sent_at = NULL, next_attempt_at = ?", Date.now());
      await state.storage.setAlarm(Date.now() + 3600_000);
    });
    expect(await stub.outbox()).toMatchObject([{ attempts: 0, sent_at: null }]);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const [sent] = await stub.outbox();
    expect(sent).toMatchObject({ attempts: 1, sent_at: expect.any(Number), next_attempt_at: null });
    expect(await runDurableObjectAlarm(stub)).toBe(false);
    await runInDurableObject(stub, (o: OrderObject) => o.alarm());
    expect(await stub.outbox()).toEqual([sent]);
  });
});

describe("delivery retries", () => {
  const compose = (row: { kind: string; to: string }): NotificationMessage => ({ ...row, subject: "s", text: "t" });

  /** A bare outbox in a fresh object, with one message due at `now` and no alarm armed. */
  async function outboxAt(now: number) {
    const stub = env.ORDER.getByName(`t-${crypto.randomUUID()}`) as DurableObjectStub<OrderObject>;
    await runInDurableObject(stub, (_o: OrderObject, state) => {
      state.storage.sql.exec(OUTBOX_SCHEMA);
      enqueue(state.storage.sql, { kind: "order_confirmation", to: "a@example.com", orderId: "ord_1" }, now);
    });
    return (sender: NotificationSender, at: number) =>
      runInDurableObject(stub, async (_o: OrderObject, state) => {
        await deliverDue(state.storage.sql, sender, compose, at);
        return outboxRows(state.storage.sql)[0];
      });
  }

  it("backs off after a failure or a throw, then sends once", async () => {
    const now = Date.parse("2026-05-01T00:00:00Z");
    const deliver = await outboxAt(now);
    const failing: NotificationSender = { send: vi.fn(async () => ({ ok: false })) };
    expect(await deliver(failing, now)).toMatchObject({ attempts: 1, sent_at: null, next_attempt_at: now + 30_000 });
    // not due yet: nothing is tried
    expect(await deliver(failing, now + 29_999)).toMatchObject({ attempts: 1 });
    const throwing: NotificationSender = {
      send: vi.fn(async () => {
        throw new Error("provider down");
      }),
    };
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await deliver(throwing, now + 30_000)).toMatchObject({ attempts: 2, next_attempt_at: now + 90_000 });
    const working: NotificationSender = { send: vi.fn(async () => ({ ok: true })) };
    expect(await deliver(working, now + 90_000)).toMatchObject({ attempts: 3, sent_at: now + 90_000 });
    expect(await deliver(working, now + 10 * 3600_000)).toMatchObject({ attempts: 3, sent_at: now + 90_000 });
    expect(failing.send).toHaveBeenCalledTimes(1);
    expect(working.send).toHaveBeenCalledTimes(1);
    expect(working.send).toHaveBeenCalledWith({
      kind: "order_confirmation",
      to: "a@example.com",
      subject: "s",
      text: "t",
    });
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts`, async () => {
    let at = Date.parse("2026-05-01T00:00:00Z");
    const deliver = await outboxAt(at);
    const failing: NotificationSender = { send: vi.fn(async () => ({ ok: false })) };
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const row = await deliver(failing, at);
      expect(row?.attempts).toBe(attempt);
      if (attempt === MAX_ATTEMPTS) break;
      expect(row?.next_attempt_at).toBe(nextAttemptAt(attempt, at));
      at = nextAttemptAt(attempt, at);
    }
    expect(await deliver(failing, at + 365 * 86_400_000)).toMatchObject({
      attempts: MAX_ATTEMPTS,
      sent_at: null,
      failed_at: expect.any(Number),
      next_attempt_at: null,
    });
    expect(failing.send).toHaveBeenCalledTimes(MAX_ATTEMPTS);
  });
});
