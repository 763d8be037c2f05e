/**
 * The store's POLICIES reach agents as 2026-08-25's core `policies[]` on successful cart,
 * checkout, catalog and order answers (policy.json-valid, absolute url, one per type), and
 * never reach a 2026-04-08 platform; an error answer carries none.
 */
import { describe, expect, it } from "vitest";
import { ADDRESS, type Json, pay, readyCheckout, tool } from "../helpers/checkout";
import { FULL_PROFILE, PROFILES } from "../helpers/mcp";
import { validateCurrent } from "../helpers/official-schema-current";

const CURRENT_PROFILE = `${PROFILES}/v2026-08-25/full.json`;
const POLICY = "https://ucp.dev/schemas/common/types/policy.json";

async function payload(name: string, args: Json, profile: string, key?: string): Promise<Json> {
  const reply = await tool(name, args, key, profile);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.result.structuredContent;
}

/** wrangler.toml's demo POLICIES, as a 2026-08-25 platform reads them. */
function expectStorePolicies(answer: Json) {
  expect(answer.ucp.status).toBe("success");
  expect(answer.policies.map((p: Json) => [p.type, p.url])).toEqual([
    ["dev.ucp.shopping.policy.return", "https://shop.example.com/policies/returns"],
    ["com.example.shop.policy.shipping", "https://shop.example.com/policies/shipping"],
    ["com.example.shop.policy.privacy", "https://shop.example.com/policies/privacy"],
    ["com.example.shop.policy.terms", "https://shop.example.com/policies/terms"],
  ]);
  expect(answer.policies[0].description.plain).toMatch(/within 30 days/);
  for (const policy of answer.policies) expect(validateCurrent(POLICY, policy).errors).toEqual([]);
}

describe("policies[] by protocol version", { timeout: 60_000 }, () => {
  it("catalog answers: 2026-08-25 carries them, 2026-04-08 does not", async () => {
    const args = { catalog: { query: "shoes" } };
    expectStorePolicies(await payload("search_catalog", args, CURRENT_PROFILE));
    expectStorePolicies(await payload("get_product", { catalog: { id: "prod_abc123" } }, CURRENT_PROFILE));
    expectStorePolicies(await payload("lookup_catalog", { catalog: { ids: ["prod_abc123"] } }, CURRENT_PROFILE));
    const legacy = await payload("search_catalog", args, FULL_PROFILE);
    expect(legacy.ucp.status).toBe("success");
    expect(legacy).not.toHaveProperty("policies");
  });

  it("carts: on success at 2026-08-25 only; never on an error answer", async () => {
    const cart = { cart: { line_items: [{ item: { id: "var_abc123_blue_10" }, quantity: 1 }] } };
    const current = await payload("create_cart", cart, CURRENT_PROFILE);
    expectStorePolicies(current);
    expectStorePolicies(await payload("get_cart", { id: current.id }, CURRENT_PROFILE));
    const legacy = await payload("create_cart", cart, FULL_PROFILE);
    expect(legacy.id).toBeDefined();
    expect(legacy).not.toHaveProperty("policies");
    const missing = await payload("get_cart", { id: "cart_nope" }, CURRENT_PROFILE);
    expect(missing.ucp.status).toBe("error");
    expect(missing).not.toHaveProperty("policies");
  });

  it("checkouts and the order snapshot (get_order) at 2026-08-25; none at 2026-04-08", async () => {
    const line = [{ id: "var_abc123_blue_10", quantity: 1 }];
    const checkout = await payload(
      "create_checkout",
      {
        checkout: {
          line_items: [{ item: { id: "var_abc123_blue_10" }, quantity: 1 }],
          buyer: { email: "jane@example.com" },
          fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
        },
      },
      CURRENT_PROFILE,
    );
    expectStorePolicies(checkout);
    expectStorePolicies(await payload("get_checkout", { id: checkout.id }, CURRENT_PROFILE));
    const done = await payload(
      "complete_checkout",
      { id: checkout.id, checkout: pay("success_token") },
      CURRENT_PROFILE,
      crypto.randomUUID(),
    );
    expectStorePolicies(done);
    expectStorePolicies(await payload("get_order", { id: done.order.id }, CURRENT_PROFILE));

    const legacyCheckout = await readyCheckout(line);
    expect(legacyCheckout).not.toHaveProperty("policies");
    const legacyDone = await payload(
      "complete_checkout",
      { id: legacyCheckout.id, checkout: pay("success_token") },
      FULL_PROFILE,
      crypto.randomUUID(),
    );
    expect(legacyDone).not.toHaveProperty("policies");
    expect(await payload("get_order", { id: legacyDone.order.id }, FULL_PROFILE)).not.toHaveProperty("policies");
  });
});
