/**
 * Review of issue 29: the order now shares its checkout's ledger, and so the ledger's size
 * budget (LEDGER_MAX_CHARS, oldest entries trimmed first). The session's platform can still
 * write that ledger after the purchase (a refused update_checkout is recorded with its key),
 * so its writes can push the merchant's adjustment key out, and the merchant's retry of that
 * key then refunds a second time. Before, only the merchant and Stripe wrote the order's ledger.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CheckoutObject, CheckoutWrite } from "../../durable-objects/checkout-object";
import { LEDGER_MAX_CHARS } from "../../durable-objects/shared/idempotency";
import { tool } from "../helpers/checkout";
import { admin, placeOrder } from "./order-helpers";

const checkoutStub = (id: string) => env.CHECKOUT.getByName(id) as DurableObjectStub<CheckoutObject>;

describe("the order's ledger in its checkout's object", () => {
  // Failed before src/lib/ledger-keys.ts (review R29: 1,716 updates evicted the key and the retry
  // refunded again): the store's keys no longer share a trimmed budget with the platform's.
  it("a platform's writes to its completed session do not evict the merchant's adjustment key", async () => {
    const { orderId, checkout } = await placeOrder([{ id: "item_123", quantity: 1 }]);
    const key = crypto.randomUUID();
    const first = await admin(orderId, "adjustments", { type: "refund", amount: 100 }, { key });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.adjustments).toHaveLength(1);
    // One real update_checkout from the platform (refused: the session is completed), its command kept.
    let command: CheckoutWrite | undefined;
    const proto = await runInDurableObject(checkoutStub(checkout.id), (o: CheckoutObject) => Object.getPrototypeOf(o));
    const update = proto.update;
    proto.update = async function (this: CheckoutObject, c: CheckoutWrite) {
      command = c;
      return update.call(this, c);
    };
    const refused = await tool("update_checkout", { id: checkout.id, checkout: { line_items: [] } }, "p-0").finally(
      () => {
        proto.update = update;
      },
    );
    expect(refused.body.result.structuredContent.status).toBe("completed");
    // The same call under many more of the platform's keys, sent straight to the object (a
    // platform sends them through the Worker: about 1,700 calls at this session's size).
    const calls = await runInDurableObject(checkoutStub(checkout.id), async (o: CheckoutObject, state) => {
      const sent = command as CheckoutWrite;
      let n = 0;
      const total = () =>
        state.storage.sql.exec<{ c: number }>("SELECT COALESCE(SUM(LENGTH(response)), 0) AS c FROM ledger").one().c;
      const has = (pattern: string) =>
        state.storage.sql.exec("SELECT key FROM ledger WHERE key LIKE ?", pattern).toArray().length > 0;
      // Until the platform's own budget was trimmed (its first key of the flood is gone), or the merchant's key went.
      while (has("admin-%") && (n < 2 || has("update_checkout:p-1")) && n < 20_000) {
        n += 1;
        const idempotency = { key: `update_checkout:p-${n}`, hash: sent.idempotency?.hash ?? "h" };
        await CheckoutObjectUpdate(o, { ...sent, idempotency });
      }
      return { n, total: total(), merchantKept: has("admin-%"), platformTrimmed: !has("update_checkout:p-1") };
    });
    expect(calls.platformTrimmed, `the platform's budget was reached after ${calls.n} updates`).toBe(true);
    expect(calls.merchantKept).toBe(true);
    // Each side within its own budget.
    expect(calls.total).toBeLessThanOrEqual(2 * LEDGER_MAX_CHARS);
    // The merchant's client retries the same refund (a timeout): it must replay, not refund twice.
    const retry = await admin(orderId, "adjustments", { type: "refund", amount: 100 }, { key });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.adjustments, `after ${calls.n} platform updates`).toHaveLength(1);
  }, 120_000);
});

/** The object's own update, called in the object (the RPC stub's is not patched here). */
function CheckoutObjectUpdate(o: CheckoutObject, c: CheckoutWrite) {
  return Object.getPrototypeOf(o).update.call(o, c);
}
