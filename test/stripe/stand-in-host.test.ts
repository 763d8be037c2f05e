/**
 * The stand-in as the workerd tests reach it: host stripe.test, answered by the outbound
 * service (test/fixtures/profile-server.ts), called by the official SDK with its fetch client,
 * as the store's processor calls Stripe (STRIPE_API_BASE=https://stripe.test).
 */
import Stripe from "stripe";
import { beforeEach, describe, expect, it } from "vitest";

const stripe = new Stripe("sk_test_workerd", {
  host: "stripe.test",
  port: 443,
  protocol: "https",
  httpClient: Stripe.createFetchHttpClient(),
  maxNetworkRetries: 0,
  telemetry: false,
});

beforeEach(async () => {
  await fetch("https://stripe.test/__stand-in/reset", { method: "POST" });
});

describe("Stripe stand-in on stripe.test (workerd)", () => {
  it("creates one PaymentIntent per key, replays it, and signs webhooks the SDK verifies", async () => {
    const params = {
      amount: 1999,
      currency: "usd",
      confirm: true,
      automatic_payment_methods: { enabled: true, allow_redirects: "never" as const },
      payment_method_data: { type: "card", card: { token: "tok_visa" } },
      metadata: { ucp_attempt: "att_workerd" },
    } as Stripe.PaymentIntentCreateParams;
    const first = await stripe.paymentIntents.create(params, { idempotencyKey: "att_workerd" });
    const again = await stripe.paymentIntents.create(params, { idempotencyKey: "att_workerd" });
    expect(first.status).toBe("succeeded");
    expect(again.id).toBe(first.id);
    const seen = (await (
      await fetch("https://stripe.test/__stand-in/payment_intents?idempotency_key=att_workerd")
    ).json()) as {
      count: number;
    };
    expect(seen.count).toBe(1);
    const sent = (await (
      await fetch("https://stripe.test/__stand-in/deliver", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ type: "payment_intent.succeeded", id: first.id, secret: "whsec_workerd" }),
      })
    ).json()) as { payload: string; signature: string };
    const event = await Stripe.webhooks.constructEventAsync(
      sent.payload,
      sent.signature,
      "whsec_workerd",
      undefined,
      Stripe.createSubtleCryptoProvider(),
    );
    expect(event.type).toBe("payment_intent.succeeded");
  });
});
