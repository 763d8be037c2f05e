/** Placing an order over MCP and calling the merchant admin routes, for the order tests. */
import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { type Json, pay, readyCheckout, tool } from "../helpers/checkout";
import { OFFICIAL, validateOfficial } from "../helpers/official-schema";
import { orderObject } from "../helpers/order-home";

/** The development token from .dev.vars, which the test pool loads as a secret. */
export const ADMIN_TOKEN = (env as { ADMIN_TOKEN?: string }).ADMIN_TOKEN ?? "";

export async function placeOrder(lines: Array<{ id: string; quantity: number }>) {
  const checkout = await readyCheckout(lines);
  const key = crypto.randomUUID();
  const done = (await tool("complete_checkout", { id: checkout.id, checkout: pay("success_token") }, key)).body.result
    .structuredContent;
  expect(done.status, JSON.stringify(done)).toBe("completed");
  const orderId = done.order.id as string;
  await indexed(orderId);
  return { orderId, checkout, completion: { key, checkoutId: checkout.id as string } };
}

/**
 * Waits until the order's entry reached the store's index: it is fed after the completion's
 * answer (issue 27), so a test reading the console's list or dashboard next waits for it.
 */
export async function indexed(orderId: string): Promise<void> {
  await vi.waitUntil(
    async () =>
      runInDurableObject(
        await orderObject(orderId),
        (_o: unknown, state) =>
          state.storage.sql.exec("SELECT 1 FROM index_feed WHERE sent_version > 0").toArray().length > 0,
      ),
    { timeout: 5000, interval: 20 },
  );
}

export const expectOrder = (payload: Json) => expect(validateOfficial(OFFICIAL.order, payload).errors).toEqual([]);

/** get_order's payload, checked against the official order schema. */
export async function getOrder(orderId: string): Promise<Json> {
  const order = (await tool("get_order", { id: orderId })).body.result.structuredContent;
  expectOrder(order);
  return order;
}

export async function admin(
  orderId: string,
  op: "events" | "adjustments",
  body: unknown,
  options: { token?: string | null; key?: string } = {},
): Promise<{ status: number; body: Json }> {
  const token = options.token === undefined ? ADMIN_TOKEN : options.token;
  const res = await exports.default.fetch(`https://shop.example.com/admin/orders/${orderId}/${op}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(options.key ? { "idempotency-key": options.key } : {}),
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

export { orderObject, orderStub } from "../helpers/order-home";
