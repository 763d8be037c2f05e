/**
 * kill -9 during a charge (issue 24's done-when): the real local server (`npm start`) charging
 * through Stripe (the stand-in, test/stripe/server.ts; no test mode), an agent over MCP with a
 * Google Pay token. The stand-in holds its answer to the PaymentIntent create (test/stripe/
 * hold.ts) while the whole server process group is SIGKILLed, then the server restarts on the
 * same --persist-to state and port, and the platform retries complete_checkout with the same
 * idempotency key and with a new one. Stripe saw one PaymentIntent, charged once; one order;
 * the variant's stock is down by exactly the ordered quantity (GET /admin/inventory/<variant>,
 * docs/inventory.md). The same for a charge Stripe answered declined (stock back until a card
 * pays) and one that never reached Stripe.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HoldMatch } from "../stripe/hold";
import { type RunningStandIn, startStripeStandIn } from "../stripe/server";
import { type LocalServer, startServer } from "./server";

// biome-ignore lint/suspicious/noExplicitAny: -- tool payloads are inspected structurally
type Json = any;

const PROFILE = "https://platform.example/profiles/v2026-01/shopping-agent.json";
/** `.dev.vars`' development admin token, which `npm start` serves with. */
const ADMIN = { authorization: "Bearer dev-admin-token" };
const QUANTITY = 2;
const CREATE_INTENT = { method: "POST", path: "/v1/payment_intents" } as const;

let stripe: RunningStandIn | undefined;
let server: LocalServer | undefined;
let stateDir = "";
let vars: Record<string, string> = {};
let apiKey = "";
let variantId = "";
const clients: Client[] = [];

const base = () => server?.baseUrl ?? "";

beforeAll(async () => {
  stripe = await startStripeStandIn();
  stateDir = mkdtempSync(path.join(tmpdir(), "ucp-e2e-crash-"));
  vars = {
    PAYMENT_TEST_MODE: "false",
    STRIPE_SECRET_KEY: "sk_test_e2eCrash",
    STRIPE_PUBLISHABLE_KEY: "pk_test_e2eCrash",
    STRIPE_API_BASE: stripe.url,
    GOOGLE_PAY_ENVIRONMENT: "TEST",
    GOOGLE_PAY_MERCHANT_NAME: "Demo Outfitters",
  };
  server = await startServer({ vars, stateDir });
  const issued = await fetch(`${base()}/admin/api-keys`, {
    method: "POST",
    headers: { ...ADMIN, "content-type": "application/json" },
    body: JSON.stringify({ profile: PROFILE, label: "crash e2e" }),
  });
  expect(issued.status).toBe(201);
  apiKey = ((await issued.json()) as Json).api_key;
  const found = await call(await agent(), "search_catalog", {
    catalog: { query: "running", filters: { available: true } },
  });
  variantId = found.products[0].variants[0].id;
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await server?.stop();
  await stripe?.stop();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

/** An MCP client of the platform the merchant issued the key to (a new one per server life). */
async function agent(): Promise<Client> {
  const client = new Client({ name: "ucp-worker-crash-e2e", version: "0.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${base()}/ucp/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
  });
  await client.connect(transport);
  await client.listTools();
  clients.push(client);
  return client;
}

async function call(client: Client, tool: string, args: Json, key?: string): Promise<Json> {
  const meta = { "ucp-agent": { profile: PROFILE }, ...(key ? { "idempotency-key": key } : {}) };
  const result = await client.callTool({ name: tool, arguments: { meta, ...args } });
  if (result.isError) throw new Error(`${tool}: ${JSON.stringify(result.content)}`);
  return result.structuredContent;
}

async function available(): Promise<number> {
  const res = await fetch(`${base()}/admin/inventory/${variantId}`, { headers: ADMIN });
  expect(res.status).toBe(200);
  const { available } = (await res.json()) as Json;
  expect(typeof available).toBe("number");
  return available;
}

async function ready(client: Client, email: string): Promise<Json> {
  const checkout = await call(
    client,
    "create_checkout",
    {
      checkout: {
        line_items: [{ item: { id: variantId }, quantity: QUANTITY }],
        buyer: { email, first_name: "Kim" },
        fulfillment: {
          methods: [
            {
              type: "shipping",
              destinations: [
                {
                  street_address: "1 Market St",
                  address_locality: "San Francisco",
                  address_region: "CA",
                  postal_code: "94105",
                  address_country: "US",
                },
              ],
            },
          ],
        },
      },
    },
    crypto.randomUUID(),
  );
  expect(checkout.status, JSON.stringify(checkout.messages)).toBe("ready_for_complete");
  return checkout;
}

/** Google Pay's tokenizationData.token for gateway "stripe": a Stripe token's JSON. */
const googlePay = (stripeToken: string) => ({
  payment: {
    instruments: [
      {
        id: "instr_gp",
        handler_id: "google_pay",
        type: "card",
        selected: true,
        display: { brand: "visa", last_digits: "4242" },
        credential: { type: "PAYMENT_GATEWAY", token: JSON.stringify({ id: stripeToken, object: "token" }) },
      },
    ],
  },
});

const complete = (client: Client, id: string, token: string, key: string) =>
  call(client, "complete_checkout", { id, checkout: googlePay(token) }, key);

/** The PaymentIntents Stripe holds for the checkout, with the keys that made or changed each. */
async function intentsOf(checkoutId: string): Promise<Json[]> {
  const res = await fetch(`${stripe?.url}/__stand-in/payment_intents?metadata[ucp_checkout_id]=${checkoutId}`);
  return ((await res.json()) as Json).data;
}

const chargesOf = (intentId: string) =>
  [...(stripe?.standIn.state.charges.values() ?? [])].filter((c) => c.paymentIntent === intentId);

async function within<T>(what: string, promise: Promise<T>, ms = 20_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms\n${server?.log().slice(-3000)}`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * complete_checkout under `key` while the stand-in holds `hold`'s answer: once it has the
 * request, SIGKILL the server's group; restart it on the same state and port; let the answer go
 * (to no one). Returns a client of the new server.
 */
async function completeThenCrash(checkoutId: string, token: string, key: string, hold: HoldMatch): Promise<Client> {
  const held = stripe?.hold(hold);
  if (!held || !server) throw new Error("the stand-in and the server are not running");
  const inFlight = complete(await agent(), checkoutId, token, key).then(
    (reply) => ({ reply }),
    (error: unknown) => ({ error }),
  );
  await within("the stand-in received the PaymentIntent create", held.reached);
  if (hold.when !== "before") expect(await intentsOf(checkoutId)).toHaveLength(1);
  await server.kill();
  // The agent's request died with the server: no answer it could take as the result.
  expect(await within("the in-flight completion ends", inFlight)).toHaveProperty("error");
  const port = Number(new URL(server.baseUrl).port);
  server = await startServer({ vars, stateDir, port });
  held.release();
  return agent();
}

async function ordersFor(email: string): Promise<Json[]> {
  // The order index is written after the order: wait for the first entry, then count them all.
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await fetch(`${base()}/admin/orders?q=${encodeURIComponent(email)}`, { headers: ADMIN });
    expect(res.status).toBe(200);
    const { orders } = (await res.json()) as Json;
    if (orders.length > 0 || Date.now() > deadline) return orders;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** One order for the checkout, under every answer; one succeeded PaymentIntent charged once. */
async function expectOneOrder(client: Client, checkout: Json, email: string, answers: Json[]): Promise<Json> {
  const shown = await call(client, "get_checkout", { id: checkout.id });
  expect(shown.status).toBe("completed");
  const orderId = shown.order.id;
  expect(orderId).toMatch(/\S/);
  for (const answer of answers) expect(answer.order?.id, JSON.stringify(answer.messages)).toBe(orderId);
  expect((await ordersFor(email)).map((o: Json) => o.id)).toEqual([orderId]);
  const paid = (await intentsOf(checkout.id)).filter((pi) => pi.status !== "requires_payment_method");
  expect(paid).toHaveLength(1);
  const [intent] = paid;
  const total = checkout.totals.find((t: Json) => t.type === "total").amount;
  expect(intent).toMatchObject({ status: "succeeded", amount: total, amount_received: total });
  // Each attempt key made or touched one PaymentIntent: a retry replayed it, never a second.
  expect(intent.stand_in.idempotency_keys).toEqual([intent.metadata.ucp_attempt]);
  expect(chargesOf(intent.id).map((c) => [c.status, c.amountCaptured])).toEqual([["succeeded", total]]);
  return intent;
}

describe("kill -9 during a Stripe charge", { timeout: 60_000 }, () => {
  it("charged, answer lost: the same key and a new key give one PaymentIntent, one order, stock down by the quantity", async () => {
    const before = await available();
    const email = "crash-charged@example.com";
    const checkout = await ready(await agent(), email);
    const k1 = crypto.randomUUID();
    const client = await completeThenCrash(checkout.id, "tok_visa", k1, CREATE_INTENT);

    const again = await complete(client, checkout.id, "tok_visa", k1);
    const fresh = await complete(client, checkout.id, "tok_visa", crypto.randomUUID());
    expect(again.status, JSON.stringify(again.messages)).toBe("completed");
    await expectOneOrder(client, checkout, email, [again, fresh]);
    expect(await intentsOf(checkout.id)).toHaveLength(1);
    expect(await available()).toBe(before - QUANTITY);
  });

  it("declined, answer lost: the retry replays the decline and holds no stock; a card then pays once", async () => {
    const before = await available();
    const email = "crash-declined@example.com";
    const checkout = await ready(await agent(), email);
    const k1 = crypto.randomUUID();
    const client = await completeThenCrash(checkout.id, "tok_chargeDeclined", k1, CREATE_INTENT);

    const again = await complete(client, checkout.id, "tok_chargeDeclined", k1);
    expect(again.status).toBe("ready_for_complete");
    expect(again.messages.map((m: Json) => m.code)).toContain("payment_failed");
    expect(again.order).toBeUndefined();
    const declined = await intentsOf(checkout.id);
    expect(declined).toHaveLength(1);
    expect(declined[0]).toMatchObject({ status: "requires_payment_method", amount_received: 0 });
    expect(await available()).toBe(before);

    const paid = await complete(client, checkout.id, "tok_visa", crypto.randomUUID());
    expect(paid.status, JSON.stringify(paid.messages)).toBe("completed");
    await expectOneOrder(client, checkout, email, [paid]);
    expect(await intentsOf(checkout.id)).toHaveLength(2);
    expect(await available()).toBe(before - QUANTITY);
  });

  it("the charge never reached Stripe: the same key charges once, a new key names the same order", async () => {
    const before = await available();
    const email = "crash-unsent@example.com";
    const checkout = await ready(await agent(), email);
    const k1 = crypto.randomUUID();
    const client = await completeThenCrash(checkout.id, "tok_visa", k1, { ...CREATE_INTENT, when: "before" });
    expect(await intentsOf(checkout.id)).toEqual([]);

    const again = await complete(client, checkout.id, "tok_visa", k1);
    const fresh = await complete(client, checkout.id, "tok_visa", crypto.randomUUID());
    expect(again.status, JSON.stringify(again.messages)).toBe("completed");
    await expectOneOrder(client, checkout, email, [again, fresh]);
    expect(await intentsOf(checkout.id)).toHaveLength(1);
    expect(await available()).toBe(before - QUANTITY);
  });
});
