/**
 * Payments are safe by default: the test handler (success_token "pays") is live only in test
 * mode. The workerd tests run in test mode (test/vitest.config.ts); here the Worker is also
 * driven as a deployed store that is not, through its real fetch handler with
 * PAYMENT_TEST_MODE off.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signRequest } from "../../src/auth/http-signature";
import { stockShardName } from "../../src/catalog/stock-keys";
import { buildConfig } from "../../src/config";
import worker from "../../src/index";
import { orderIdIn } from "../../src/lib/ids";
import { discoveryProfile } from "../../src/ucp/discovery";
import { ADDRESS, type Json, pay } from "../helpers/checkout";
import { CLIENT_IP, ENDPOINT, FULL_PROFILE, meta, platformKey, rpc } from "../helpers/mcp";
import { orderObject } from "../helpers/order-home";

const LIVE = { PAYMENT_TEST_MODE: "false" };

/** A tools/call through the Worker with `vars` over the test bindings, signed as the test platform. */
async function call(vars: Record<string, unknown>, name: string, args: Record<string, unknown>, key?: string) {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name, arguments: { meta: meta(FULL_PROFILE, key ? { "idempotency-key": key } : {}), ...args } },
  });
  const headers = new Headers({
    "content-type": "application/json",
    accept: "application/json",
    "cf-connecting-ip": CLIENT_IP,
    "ucp-agent": `profile="${FULL_PROFILE}"`,
    // Signed complete/cancel cover their key (src/pipeline/idempotency-key.ts).
    ...(key ? { "idempotency-key": key } : {}),
  });
  await signRequest({ method: "POST", url: ENDPOINT, headers, body }, await platformKey());
  const request = new Request(ENDPOINT, { method: "POST", headers, body });
  // A fresh env object per call: the Worker reads its settings per env object.
  const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...env, ...vars } as Env);
  const reply = (await res.json()) as Json;
  expect(res.status, JSON.stringify(reply)).toBe(200);
  return reply.result.structuredContent as Json;
}

const READY = {
  checkout: {
    line_items: [{ item: { id: "item_123" }, quantity: 1 }],
    buyer: { email: "jane@example.com" },
    fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
  },
};

async function reservationsOf(checkoutId: string): Promise<number> {
  // The stock object of item_123 (issue 14: one per variant).
  return runInDurableObject(
    env.INVENTORY.getByName(stockShardName("item_123")),
    (_o: unknown, state: DurableObjectState) => {
      const sql = state.storage.sql;
      if (sql.exec("SELECT name FROM sqlite_master WHERE name = 'reservations'").toArray().length === 0) return 0;
      return sql.exec("SELECT id FROM reservations WHERE id LIKE ?", `${checkoutId}:%`).toArray().length;
    },
  );
}

async function orderStored(checkoutId: string): Promise<boolean> {
  // The order a completion places lives in its checkout's object (issue 29).
  const orderId = await orderIdIn(env.ID_SIGNING_KEY, checkoutId);
  return runInDurableObject(await orderObject(orderId), (_o: unknown, state: DurableObjectState) => {
    const sql = state.storage.sql;
    if (sql.exec("SELECT name FROM sqlite_master WHERE name = 'orders'").toArray().length === 0) return false;
    return sql.exec("SELECT id FROM orders").toArray().length > 0;
  });
}

describe("discovery by payment mode", () => {
  const vars = { MERCHANT_ORIGIN: "https://shop.example.com" };

  it("a store not in test mode (unset, false or a typo) advertises no payment handler", () => {
    for (const mode of [undefined, "false", "yes", "TRUE "]) {
      const profile = discoveryProfile(buildConfig({ ...vars, PAYMENT_TEST_MODE: mode }));
      expect(profile.ucp.payment_handlers, String(mode)).toEqual({});
    }
  });

  it("a store in test mode advertises the test handler and says test_mode in its config", () => {
    for (const mode of ["true", true]) {
      const profile = discoveryProfile(buildConfig({ ...vars, PAYMENT_TEST_MODE: mode }));
      expect(profile.ucp.payment_handlers).toEqual({
        "com.example.shop.test_payment": [
          expect.objectContaining({ id: "mock_payment_handler", config: { test_mode: true } }),
        ],
      });
    }
  });
});

describe("a store not in test mode", () => {
  it("offers no handler in checkouts and carries no test-mode note", async () => {
    const checkout = await call(LIVE, "create_checkout", READY);
    expect(checkout.status).toBe("ready_for_complete");
    expect(checkout.ucp.payment_handlers).toEqual({});
    expect(checkout.messages).toBeUndefined();
  });

  it("places no order and reserves no stock on success_token: payments_not_configured, hand off to the buyer", async () => {
    const created = await call(LIVE, "create_checkout", READY);
    const answer = await call(LIVE, "complete_checkout", { id: created.id, checkout: pay("success_token") }, "k-live");
    expect(answer.ucp.status).toBe("success");
    expect(answer.status).toBe("requires_escalation");
    expect(answer.messages).toEqual([
      expect.objectContaining({ type: "error", code: "payments_not_configured", severity: "requires_buyer_review" }),
    ]);
    expect(answer.continue_url).toBe(created.continue_url);
    expect(answer.order).toBeUndefined();
    expect(await orderStored(created.id)).toBe(false);
    expect(await reservationsOf(created.id)).toBe(0);
    // Nothing changed: the same checkout completes once the store is in test mode.
    const after = await call(LIVE, "get_checkout", { id: created.id });
    expect(after.status).toBe("ready_for_complete");
    const paid = await call({}, "complete_checkout", { id: created.id, checkout: pay("success_token") }, "k-live");
    expect(paid.status).toBe("completed");
    expect(await orderStored(created.id)).toBe(true);
    expect(await reservationsOf(created.id)).toBe(1);
  });
});

describe("a store in test mode", () => {
  it("says so in every checkout: create, update, get, complete and cancel", async () => {
    const notes = (payload: Json) => (payload.messages ?? []).filter((m: Json) => m.code === "test_mode");
    const seen: Json[] = [];
    const toolCall = async (name: string, args: Record<string, unknown>, key?: string) => {
      const reply = await rpc("tools/call", {
        name,
        arguments: { meta: meta(FULL_PROFILE, key ? { "idempotency-key": key } : {}), ...args },
      });
      const payload = reply.body.result.structuredContent;
      seen.push(payload);
      return payload;
    };
    const created = await toolCall("create_checkout", READY);
    await toolCall("update_checkout", { id: created.id, ...READY });
    await toolCall("get_checkout", { id: created.id });
    const done = await toolCall("complete_checkout", { id: created.id, checkout: pay("success_token") }, "k-test");
    expect(done.status).toBe("completed");
    // A replayed completion comes from the ledger and says so too.
    await toolCall("complete_checkout", { id: created.id, checkout: pay("success_token") }, "k-test");
    const other = await toolCall("create_checkout", READY);
    await toolCall("cancel_checkout", { id: other.id }, "k-cancel");
    for (const payload of seen) {
      expect(notes(payload), `${payload.id} ${payload.status}`).toEqual([
        { type: "info", code: "test_mode", content: expect.stringContaining("test mode") },
      ]);
      expect(payload.ucp.payment_handlers["com.example.shop.test_payment"][0].config).toEqual({ test_mode: true });
    }
  });
});
