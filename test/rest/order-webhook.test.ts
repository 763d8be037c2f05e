/**
 * Order webhooks against the REST binding's OpenAPI `webhooks.orderEvent`: an order placed
 * over REST is announced to the platform's webhook URL with the body the document names (the
 * order) and every header parameter it declares, typed as declared, signed by the merchant.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { pay } from "../helpers/checkout";
import { PROFILES } from "../helpers/mcp";
import { orderObject, orderStub } from "../order/order-helpers";
import { openapiPresent, webhookBodyErrors, webhookHeaders } from "./openapi";
import { rest } from "./rest-client";

const PROFILE = `${PROFILES}/webhooks.json`;

interface Delivery {
  headers: Record<string, string>;
  body: string;
  status: number;
}

async function deliveries(orderId: string): Promise<Delivery[]> {
  const res = await fetch(`https://fixtures.test/webhooks?order=${orderId}`);
  return ((await res.json()) as { deliveries: Delivery[] }).deliveries;
}

/** Runs the order's outbox until the first delivery arrives (retries made due at once). */
async function firstDelivery(orderId: string): Promise<Delivery | undefined> {
  const _stub = orderStub(orderId);
  const object = await orderObject(orderId);
  for (let round = 0; round < 20; round++) {
    const [first] = await deliveries(orderId);
    if (first) return first;
    await runInDurableObject(object, (_o: unknown, state: DurableObjectState) => {
      state.storage.sql.exec("UPDATE webhooks SET next_attempt_at = 0 WHERE next_attempt_at IS NOT NULL");
    });
    await runDurableObjectAlarm(object);
  }
  return undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// 30 s: a file's first request builds the Worker's isolate, seconds on a loaded machine.
describe("order webhooks and the OpenAPI orderEvent", { timeout: 30_000 }, () => {
  it("an order placed over REST is announced with the document's body and headers", async () => {
    const created = await rest("POST", "/checkout-sessions", {
      profile: PROFILE,
      body: {
        line_items: [{ item: { id: "item_456" }, quantity: 1 }],
        buyer: { email: "hook@example.com" },
        fulfillment: {
          methods: [
            {
              type: "shipping",
              destinations: [
                {
                  street_address: "123 Main St",
                  address_locality: "Springfield",
                  address_region: "IL",
                  postal_code: "62701",
                  address_country: "US",
                },
              ],
            },
          ],
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    const done = await rest("POST", `/checkout-sessions/${created.body.id}/complete`, {
      profile: PROFILE,
      body: pay("success_token"),
      key: crypto.randomUUID(),
      sign: true,
    });
    expect(done.body.status, done.text).toBe("completed");

    const delivery = await firstDelivery(done.body.order.id);
    expect(delivery, "the webhook was delivered").toBeDefined();
    const { headers, body } = delivery as Delivery;
    expect(webhookBodyErrors("orderEvent", JSON.parse(body))).toEqual([]);
    // Every signed webhook carries its signature (order.md MUST), whatever the document marks required.
    for (const name of [
      "signature",
      "signature-input",
      "content-digest",
      "ucp-agent",
      "webhook-id",
      "webhook-timestamp",
    ])
      expect(headers[name], name).toBeDefined();
    const declared = webhookHeaders("orderEvent");
    if (!openapiPresent) return;
    expect(declared.map((h) => h.name)).toEqual(
      expect.arrayContaining(["webhook-id", "webhook-timestamp", "ucp-agent"]),
    );
    for (const { name, required, schema } of declared) {
      const value = headers[name];
      // X-API-Key is for platforms that issued the business a key; this store signs instead.
      if (!required && value === undefined) continue;
      expect(value, `${name} (required by orderEvent)`).toBeDefined();
      if (schema.type === "integer") expect(value).toMatch(/^\d+$/);
      if (schema.format === "uuid") expect(value).toMatch(UUID);
    }
  });
});
