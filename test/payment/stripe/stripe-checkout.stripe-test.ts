/**
 * A store with Stripe test keys and no PAYMENT_TEST_MODE (test/payment/stripe/vitest.config.ts),
 * driven through its real MCP and REST bindings in both protocol versions, with the official
 * SDK talking to the Stripe stand-in on https://stripe.test (test/stripe/): what it advertises,
 * a Google Pay token paid with exactly one PaymentIntent keyed by the completion attempt, a
 * decline, 3-D Secure (escalation at 2026-04-08, the three_ds_challenge Action with
 * payment_authentication) and the retry capturing the same PaymentIntent once, a refund from
 * the order, void of an abandoned attempt, and no secret anywhere an agent or a log sees.
 */
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { merchantConfig } from "../../../src/config";
import { processorFor } from "../../../src/payment/store-processor";
import { answerFromProcessor } from "../../../src/tools/payment-verification";
import { discoveryProfile } from "../../../src/ucp/discovery";
import { CURRENT_VERSION, LEGACY_VERSION } from "../../../src/ucp/versions";
import { type Json, tool } from "../../helpers/checkout";
import { googlePay } from "../../helpers/google-pay";
import { FULL_PROFILE, PROFILES } from "../../helpers/mcp";
import { validateCheckout } from "../../helpers/official-schema";
import { CURRENT, validateComposed } from "../../helpers/official-schema-current";
import { type Browser, getPage, pathOf, submit } from "../../helpers/pages";
import { admin } from "../../order/order-helpers";
import { rest } from "../../rest/rest-client";

const STAND_IN = "https://stripe.test/__stand-in";
const V2 = `${PROFILES}/v2026-08-25/full.json`;
const AUTH = `${PROFILES}/v2026-08-25/payment-auth.json`;
const LEGACY = FULL_PROFILE;
const SECRETS = ["sk_test_workerdStandIn", "whsec_workerdStandIn"];
const ADDRESS = {
  street_address: "123 Main St",
  address_locality: "Springfield",
  address_region: "IL",
  postal_code: "62701",
  address_country: "US",
};

let logs: string[] = [];

beforeEach(async () => {
  await fetch(`${STAND_IN}/reset`, { method: "POST" });
  logs = [];
  for (const level of ["log", "warn", "error", "info"] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logs.push(args.map((a) => (a instanceof Error ? a.message : String(a))).join(" "));
    });
});

afterEach(() => {
  vi.restoreAllMocks();
  const all = logs.join("\n");
  for (const secret of SECRETS) expect(all).not.toContain(secret);
  expect(all).not.toContain("tok_");
});

async function standIn(path: string): Promise<Json> {
  const res = await fetch(`${STAND_IN}${path}`);
  expect(res.status, path).toBe(200);
  return res.json();
}

async function mcp(name: string, args: Record<string, unknown>, profile: string, key?: string): Promise<Json> {
  const reply = await tool(name, args, key, profile);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  expect(reply.body.error, JSON.stringify(reply.body.error)).toBeUndefined();
  const payload = reply.body.result.structuredContent;
  for (const secret of SECRETS) expect(JSON.stringify(payload)).not.toContain(secret);
  if (name.endsWith("_checkout")) expectOfficial(payload);
  return payload;
}

/** Every checkout answer against its version's official schemas, handlers and all. */
function expectOfficial(payload: Json): void {
  if (payload?.ucp?.status !== "success") return;
  if (payload.ucp.version === "2026-08-25")
    expect(validateComposed(CURRENT.checkout, "dev.ucp.shopping.checkout", payload)).toEqual([]);
  else expect(validateCheckout(payload)).toEqual([]);
}

/** A checkout ready to complete at the profile's version (2026-08-25 writes typed destinations). */
async function ready(profile: string): Promise<Json> {
  const destination = profile === LEGACY ? ADDRESS : { type: "shipping_address", ...ADDRESS };
  const checkout = await mcp(
    "create_checkout",
    {
      checkout: {
        line_items: [{ item: { id: "item_123" }, quantity: 1 }],
        buyer: { email: "jane@example.com", first_name: "Jane" },
        fulfillment: { methods: [{ type: "shipping", destinations: [destination] }] },
      },
    },
    profile,
  );
  expect(checkout.status, JSON.stringify(checkout.messages)).toBe("ready_for_complete");
  return checkout;
}

async function completeMcp(id: string, profile: string, payment: Json, key = crypto.randomUUID()): Promise<Json> {
  return mcp("complete_checkout", { id, checkout: payment }, profile, key);
}

async function completeRest(id: string, profile: string, payment: Json, key = crypto.randomUUID()): Promise<Json> {
  const reply = await rest("POST", `/checkout-sessions/${id}/complete`, { body: payment, key, profile, sign: true });
  expect(reply.status, reply.text).toBe(200);
  for (const secret of SECRETS) expect(reply.text).not.toContain(secret);
  expectOfficial(reply.body);
  return reply.body;
}

/** The PaymentIntents the stand-in holds for a checkout (its metadata), with their idempotency keys. */
async function intentsOf(checkoutId: string): Promise<Json[]> {
  return (await standIn(`/payment_intents?metadata[ucp_checkout_id]=${encodeURIComponent(checkoutId)}`)).data;
}

describe("what a store with Stripe keys and no test mode advertises", () => {
  it("discovery (both versions) and every checkout: com.google.pay and com.stripe.payments, not the test handler, nothing secret", async () => {
    // Discovery is built from the same config by `npm run discovery` (a static asset): both versions.
    for (const version of [CURRENT_VERSION, LEGACY_VERSION] as const) {
      const profile = JSON.stringify(discoveryProfile(merchantConfig(env), [], version));
      expect(profile).toContain('"com.google.pay"');
      expect(profile).toContain('"com.stripe.payments"');
      expect(profile).not.toContain("test_payment");
      for (const secret of SECRETS) expect(profile).not.toContain(secret);
    }
    for (const profile of [LEGACY, V2]) {
      const checkout = await ready(profile);
      const handlers = checkout.ucp.payment_handlers;
      expect(Object.keys(handlers).sort(), profile).toEqual(["com.google.pay", "com.stripe.payments"]);
      expect(JSON.stringify(handlers)).not.toContain("test_payment");
      expect(handlers["com.google.pay"][0].config.allowed_payment_methods[0].tokenization_specification).toEqual({
        type: "PAYMENT_GATEWAY",
        parameters: {
          gateway: "stripe",
          "stripe:version": "2018-10-31",
          "stripe:publishableKey": "pk_test_workerdStandIn",
        },
      });
      expect(checkout.messages ?? []).not.toContainEqual(expect.objectContaining({ code: "test_mode" }));
    }
  });
});

describe("a Google Pay token pays with exactly one PaymentIntent, keyed by the completion attempt", {
  timeout: 30_000,
}, () => {
  it.each([
    ["MCP", "2026-04-08", LEGACY],
    ["MCP", "2026-08-25", V2],
    ["REST", "2026-04-08", LEGACY],
    ["REST", "2026-08-25", V2],
  ])("%s %s", async (binding, _version, profile) => {
    const checkout = await ready(profile);
    const complete = binding === "MCP" ? completeMcp : completeRest;
    const key = crypto.randomUUID();
    const done = await complete(checkout.id, profile, googlePay("tok_visa"), key);
    expect(done.status, JSON.stringify(done.messages)).toBe("completed");
    expect(done.order.id).toMatch(/\S/);
    // A replay of the same request, and a new key after completion, charge nothing more.
    expect((await complete(checkout.id, profile, googlePay("tok_visa"), key)).status).toBe("completed");
    expect((await complete(checkout.id, profile, googlePay("tok_visa"))).status).toBe("completed");

    const intents = await intentsOf(checkout.id);
    expect(intents).toHaveLength(1);
    const [pi] = intents;
    expect(pi.status).toBe("succeeded");
    expect(pi.amount).toBe(checkout.totals.find((t: Json) => t.type === "total").amount);
    expect(pi.capture_method).toBe("automatic");
    expect(pi.metadata.ucp_attempt).toMatch(new RegExp(`^${checkout.id}:`));
    // Keyed by the attempt, not by the platform's key.
    expect(pi.stand_in.idempotency_keys).toEqual([pi.metadata.ucp_attempt]);
    expect(pi.stand_in.idempotency_keys).not.toContain(key);
  });

  it("Stripe's handler: a shared payment token is charged as shared_payment_granted_token", async () => {
    const checkout = await ready(LEGACY);
    const payment = {
      payment: {
        instruments: [
          {
            id: "instr_spt",
            handler_id: "stripe_payments",
            type: "card",
            selected: true,
            display: { brand: "visa", last_digits: "4242" },
            credential: { type: "shared_payment_token", token: "spt_visa" },
          },
        ],
      },
    };
    const done = await completeMcp(checkout.id, LEGACY, payment);
    expect(done.status, JSON.stringify(done.messages)).toBe("completed");
    const intents = await intentsOf(checkout.id);
    expect(intents).toHaveLength(1);
    expect(intents[0].status).toBe("succeeded");
  });
});

describe("a decline", () => {
  it("is payment_failed on an open checkout; another card then pays, each attempt its own PaymentIntent", async () => {
    const checkout = await ready(LEGACY);
    const declined = await completeMcp(checkout.id, LEGACY, googlePay("tok_chargeDeclinedInsufficientFunds"));
    expect(declined.status).toBe("ready_for_complete");
    expect(declined.messages).toContainEqual(
      expect.objectContaining({
        type: "error",
        code: "payment_failed",
        severity: "recoverable",
        content: "The card was declined: insufficient funds.",
      }),
    );
    expect(declined.order).toBeUndefined();
    const paid = await completeMcp(checkout.id, LEGACY, googlePay("tok_visa"));
    expect(paid.status).toBe("completed");
    const intents = await intentsOf(checkout.id);
    expect(intents.map((pi: Json) => pi.status).sort()).toEqual(["requires_payment_method", "succeeded"]);
    expect(new Set(intents.map((pi: Json) => pi.metadata.ucp_attempt)).size).toBe(2);
  });
});

/**
 * The buyer's bank step as the store's verify page runs it (src/pages/stripe-verify.ts):
 * Stripe.js's handleNextAction at Stripe (here the stand-in's authenticate), then the page asks
 * Stripe how it ended (answerFromProcessor). Before the bank's step it is still pending.
 */
async function buyerVerifies(checkoutId: string, intentId: string, result: "pass" | "fail"): Promise<void> {
  const session = { env, config: merchantConfig(env), checkoutId };
  const early = await answerFromProcessor(session, crypto.randomUUID());
  expect(early).toEqual({ ok: false, reason: "pending" });
  const res = await fetch(`${STAND_IN}/authenticate/${intentId}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `result=${result}`,
    redirect: "manual",
  });
  expect(res.status).toBeLessThan(400);
  const answered = await answerFromProcessor(session, crypto.randomUUID());
  expect(answered.ok).toBe(true);
  if (answered.ok) expect(answered.view.verification?.status).toBe(result === "pass" ? "passed" : "failed");
}

describe("3-D Secure", { timeout: 30_000 }, () => {
  it("2026-04-08: requires_escalation naming the PaymentIntent; after the buyer passed, the retry captures that same one once", async () => {
    const checkout = await ready(LEGACY);
    const escalated = await completeMcp(checkout.id, LEGACY, googlePay("tok_threeDSecure2Required"));
    expect(escalated.status).toBe("requires_escalation");
    expect(escalated.messages).toContainEqual(expect.objectContaining({ code: "requires_3ds" }));
    expect(escalated.continue_url).toMatch(/\/verify$/);
    const [pi] = await intentsOf(checkout.id);
    expect(pi.status).toBe("requires_action");

    await buyerVerifies(checkout.id, pi.id, "pass");
    const done = await completeMcp(checkout.id, LEGACY, googlePay("tok_threeDSecure2Required"));
    expect(done.status, JSON.stringify(done.messages)).toBe("completed");
    const intents = await intentsOf(checkout.id);
    expect(intents).toHaveLength(1);
    expect(intents[0].id).toBe(pi.id);
    expect(intents[0].status).toBe("succeeded");
    // Re-tagged with the attempt that charged it (void and webhooks look it up by that).
    expect(intents[0].metadata.ucp_attempt).not.toBe(pi.metadata.ucp_attempt);
  });

  it("2026-04-08: the buyer fails the bank's step; the checkout is open again with payment_failed and nothing was charged", async () => {
    const checkout = await ready(LEGACY);
    await completeMcp(checkout.id, LEGACY, googlePay("tok_threeDSecure2Required"));
    const [pi] = await intentsOf(checkout.id);
    await buyerVerifies(checkout.id, pi.id, "fail");
    const after = await completeMcp(checkout.id, LEGACY, googlePay("tok_visa"));
    expect(after.status, JSON.stringify(after.messages)).toBe("completed");
    const intents = await intentsOf(checkout.id);
    expect(intents.map((i: Json) => i.status).sort()).toEqual(["requires_payment_method", "succeeded"]);
  });

  it("2026-08-25 with payment_authentication: complete_in_progress with a three_ds_challenge Action", async () => {
    const checkout = await ready(AUTH);
    const accepted = await completeMcp(checkout.id, AUTH, googlePay("tok_threeDSecure2Required"));
    expect(accepted.status).toBe("complete_in_progress");
    expect(accepted.actions["dev.ucp.payment.three_ds_challenge"]).toEqual([
      {
        id: expect.any(String),
        config: { payment_instrument_id: "instr_gp", url: expect.stringMatching(/\/verify$/) },
      },
    ]);
    const [pi] = await intentsOf(checkout.id);

    // The Action's page: the bank's step in Stripe.js; the store completes after Stripe says it passed.
    const url = pathOf(accepted.actions["dev.ucp.payment.three_ds_challenge"][0].config.url);
    const browser: Browser = {};
    const page = await getPage(url, browser);
    expect(page.res.status, page.html).toBe(200);
    expect(page.html).toContain("Verify with your bank");
    expect(page.html).toContain(`data-client-secret="${pi.client_secret}"`);
    const form = /<form\b[^>]*id="stripe-verify-form"[\s\S]*?<\/form>/.exec(page.html)?.[0] ?? "";
    // Posted before the bank's step finished: nothing decided, the step is offered again.
    const early = await submit(url, form, {}, browser);
    expect(early.status).toBe(303);
    expect((await mcp("get_checkout", { id: checkout.id }, AUTH)).status).toBe("complete_in_progress");
    await fetch(`${STAND_IN}/authenticate/${pi.id}`, { method: "POST", body: new URLSearchParams({ result: "pass" }) });
    const again = await getPage(url, browser);
    const fresh = /<form\b[^>]*id="stripe-verify-form"[\s\S]*?<\/form>/.exec(again.html)?.[0];
    // Once Stripe no longer waits for the buyer the page has no step to run; the earlier form posts.
    expect(fresh).toBeUndefined();
    expect((await submit(url, form, {}, browser)).status).toBe(303);
    const done = await mcp("get_checkout", { id: checkout.id }, AUTH);
    expect(done.status, JSON.stringify(done.messages)).toBe("completed");
    const intents = await intentsOf(checkout.id);
    expect(intents).toHaveLength(1);
    expect(intents[0].status).toBe("succeeded");
  });

  it("2026-08-25 without it: requires_escalation", async () => {
    const checkout = await ready(V2);
    const escalated = await completeMcp(checkout.id, V2, googlePay("tok_threeDSecure2Required"));
    expect(escalated.status).toBe("requires_escalation");
  });
});

describe("refund and void", { timeout: 30_000 }, () => {
  it("void on an abandoned attempt cancels its PaymentIntent and frees the stock", async () => {
    const checkout = await ready(LEGACY);
    // An attempt that authorized and then was never finished: what the alarm sees after a crash.
    await completeMcp(checkout.id, LEGACY, googlePay("tok_threeDSecure2Required"));
    const [pi] = await intentsOf(checkout.id);
    const processor = processorFor(merchantConfig(env));
    expect(await processor?.void(pi.metadata.ucp_attempt)).toEqual({ ok: true });
    const [after] = await intentsOf(checkout.id);
    expect(after.status).toBe("canceled");
    // Idempotent: a second void finds it cancelled and is done.
    expect(await processor?.void(pi.metadata.ucp_attempt)).toEqual({ ok: true });
    expect(await intentsOf(checkout.id)).toHaveLength(1);
  });

  it("a refund from the order (the admin API, as the console) makes one Stripe refund, keyed; a replay none", async () => {
    const checkout = await ready(LEGACY);
    const done = await completeMcp(checkout.id, LEGACY, googlePay("tok_visa"));
    expect(done.status).toBe("completed");
    const [pi] = await intentsOf(checkout.id);
    const body = { type: "refund", amount: 500, description: "Damaged in transit" };
    const key = crypto.randomUUID();
    const first = await admin(done.order.id, "adjustments", body, { key });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.adjustments).toEqual([expect.objectContaining({ type: "refund", status: "completed" })]);
    expect((await admin(done.order.id, "adjustments", body, { key })).status).toBe(200);
    const refunds = (await standIn(`/refunds?payment_intent=${pi.id}`)).data;
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 500, status: "succeeded" });
    expect(refunds[0].stand_in.idempotency_key).toMatch(/\S/);
  });

  it("two orders' first refunds are two Stripe refunds: an order's refund key is its own, not adj_1 for every order", async () => {
    const orders = [];
    for (const _ of [1, 2]) {
      const checkout = await ready(LEGACY);
      const done = await completeMcp(checkout.id, LEGACY, googlePay("tok_visa"));
      expect(done.status).toBe("completed");
      const [pi] = await intentsOf(checkout.id);
      orders.push({ orderId: done.order.id as string, intentId: pi.id as string });
    }
    for (const { orderId, intentId } of orders) {
      const body = { type: "refund", amount: 300, description: "Goodwill" };
      const refunded = await admin(orderId, "adjustments", body, { key: crypto.randomUUID() });
      expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
      expect(refunded.body.adjustments).toEqual([expect.objectContaining({ type: "refund", status: "completed" })]);
      const refunds = (await standIn(`/refunds?payment_intent=${intentId}`)).data;
      expect(refunds).toHaveLength(1);
      expect(refunds[0]).toMatchObject({ amount: 300, status: "succeeded", metadata: { ucp_order_id: orderId } });
      expect(refunds[0].stand_in.idempotency_key).toContain(orderId);
    }
  });
});

describe("a completion that dies during its charge", { timeout: 30_000 }, () => {
  it("retried with the same key and with a new key: one PaymentIntent (Stripe replays the attempt's key), one order", async () => {
    // Stripe made the PaymentIntent, then the Worker died before reading the answer (kill -9 between
    // the two): every answer to the creating POST is lost, the SDK's own network retry's too.
    const realFetch = globalThis.fetch;
    let lost = 0;
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const answer = await realFetch(input, init);
      if (
        lost < 2 &&
        url.hostname === "stripe.test" &&
        url.pathname === "/v1/payment_intents" &&
        init?.method === "POST"
      ) {
        lost += 1;
        throw new TypeError("network connection lost (test)");
      }
      return answer;
    });
    const checkout = await ready(LEGACY);
    const key = crypto.randomUUID();
    const died = await tool("complete_checkout", { id: checkout.id, checkout: googlePay("tok_visa") }, key, LEGACY);
    vi.unstubAllGlobals();
    expect(lost, "the Durable Object's SDK used the fetch this test holds").toBe(2);
    // Not a result the platform could take as final: a transient error with retry_after.
    expect(died.status).toBe(503);
    expect(died.body.error.data.retry_after).toBeGreaterThan(0);
    expect(await intentsOf(checkout.id)).toHaveLength(1);

    const again = await tool("complete_checkout", { id: checkout.id, checkout: googlePay("tok_visa") }, key, LEGACY);
    const fresh = await completeMcp(checkout.id, LEGACY, googlePay("tok_visa"));
    const statuses = [again.body.result?.structuredContent?.status, fresh.status];
    expect(statuses).toContain("completed");
    const intents = await intentsOf(checkout.id);
    expect(intents).toHaveLength(1);
    expect(intents[0].status).toBe("succeeded");
    // One attempt key, sent more than once: Stripe's idempotency made it one PaymentIntent.
    expect(intents[0].stand_in.idempotency_keys).toEqual([intents[0].metadata.ucp_attempt]);
    expect(fresh.order.id).toMatch(/\S/);
  });
});
