/**
 * The CheckoutObject remembers which of its tables exist (issue 14: no schema statement or
 * sqlite_master lookup per request), and must forget them when its retention alarm deletes
 * the closed session's storage: the same live instance then answers as for an unknown id.
 */
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type CheckoutObject, CLOSED_RETENTION_MS } from "../../durable-objects/checkout-object";
import { checkoutCall, readyCheckout } from "../helpers/checkout";

const stubOf = (id: string) => env.CHECKOUT.getByName(id) as DurableObjectStub<CheckoutObject>;

describe("the checkout's remembered schema", () => {
  it("is forgotten when the retention alarm deletes the session", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const stub = stubOf(checkout.id);
    // The instance has now seen its tables (create, then reads).
    expect(await runInDurableObject(stub, (instance: CheckoutObject) => instance.status())).toBe("ready_for_complete");
    // Past expiry and retention: one alarm run cancels the session and deletes its storage.
    await runInDurableObject(stub, (_i: CheckoutObject, state) => {
      const row = state.storage.sql.exec<{ state: string }>("SELECT state FROM checkout").one();
      const expiresAt = Date.now() - CLOSED_RETENTION_MS - 60_000;
      state.storage.sql.exec(
        "UPDATE checkout SET state = ?",
        JSON.stringify({ ...JSON.parse(row.state), expires_at: expiresAt }),
      );
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const tables = await runInDurableObject(stub, (_i: CheckoutObject, state) =>
      state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'checkout'").toArray(),
    );
    expect(tables).toEqual([]);
    // The same instance: no table is assumed to exist any more.
    expect(await runInDurableObject(stub, (instance: CheckoutObject) => instance.status())).toBeNull();
    const read = await checkoutCall("get_checkout", { id: checkout.id });
    expect(read.messages?.[0]?.code).toBe("not_found");
  });
});
