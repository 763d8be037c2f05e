/**
 * Real sessions for the browser to open, made by the agent through the tools: a cart, a
 * checkout ready to complete (buyer and US shipping address), an order placed with the test
 * handler's success_token. Every value comes from the server's answers.
 */
import type { Agent, Json } from "./agent";

export const BUYER_EMAIL = "browser-buyer@example.com";
export const SHIPPING_ADDRESS = {
  street_address: "1 Market St",
  address_locality: "San Francisco",
  address_region: "CA",
  postal_code: "94105",
  address_country: "US",
};

/** Every product in the catalog, through search_catalog's pages (a filter that matches all). */
export async function allProducts(agent: Agent): Promise<Json[]> {
  const products: Json[] = [];
  let cursor: string | undefined;
  do {
    const page = await agent.call("search_catalog", {
      catalog: { filters: { price: { min: 0 } }, pagination: { limit: 50, ...(cursor ? { cursor } : {}) } },
    });
    if (page.ucp.status !== "success") throw new Error(`search_catalog: ${JSON.stringify(page.messages)}`);
    products.push(...page.products);
    cursor = page.pagination?.has_next_page ? page.pagination.cursor : undefined;
  } while (cursor);
  return products;
}

/** Line items for two available variants of different products (ids from search). */
export async function twoLineItems(agent: Agent): Promise<Json[]> {
  const found = await agent.call("search_catalog", { catalog: { query: "running", filters: { available: true } } });
  const picks = found.products.slice(0, 2);
  if (picks.length < 2) throw new Error("search_catalog found fewer than two available products");
  return picks.map((p: Json, i: number) => ({ item: { id: p.variants[0].id }, quantity: i + 1 }));
}

export async function createCart(agent: Agent): Promise<Json> {
  const cart = await agent.call("create_cart", { cart: { line_items: await twoLineItems(agent) } });
  if (!cart.continue_url) throw new Error(`create_cart: no continue_url in ${JSON.stringify(cart)}`);
  return cart;
}

/** A checkout with buyer and shipping address: status ready_for_complete. */
export async function readyCheckout(agent: Agent): Promise<Json> {
  const started = await agent.call("create_checkout", { checkout: { line_items: await twoLineItems(agent) } });
  const lines = started.line_items.map((l: Json) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));
  const ready = await agent.call("update_checkout", {
    id: started.id,
    checkout: {
      line_items: lines,
      buyer: { email: BUYER_EMAIL, first_name: "Robin" },
      fulfillment: { methods: [{ type: "shipping", destinations: [SHIPPING_ADDRESS] }] },
    },
  });
  if (ready.status !== "ready_for_complete") throw new Error(`update_checkout: status ${ready.status}`);
  return ready;
}

/** Completes a ready checkout with the test handler's success_token; returns the completed checkout. */
export async function placeOrder(agent: Agent, checkout: Json): Promise<Json> {
  const done = await agent.call("complete_checkout", {
    id: checkout.id,
    checkout: {
      payment: {
        instruments: [
          {
            id: "instr_1",
            handler_id: "mock_payment_handler",
            type: "card",
            selected: true,
            credential: { type: "token", token: "success_token" },
          },
        ],
      },
    },
  });
  if (done.status !== "completed") throw new Error(`complete_checkout: ${JSON.stringify(done.messages)}`);
  return done;
}
