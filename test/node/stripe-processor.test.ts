/**
 * The Stripe processor's requests and outcome mapping, through the real SDK with a fetch this
 * test controls: what each handler's credential becomes, the Idempotency-Key and metadata of
 * the one PaymentIntent, 3-D Secure and its retry on the same PaymentIntent, declines, void,
 * refunds; and that no secret or credential reaches a log line.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { buildConfig } from "../../src/config";
import type { ChargeRequest, PaymentProcessor } from "../../src/payment/processor";
import { processorFor } from "../../src/payment/store-processor";

const SECRET = "sk_test_51SecretValueNeverLogged";
const VARS = {
  MERCHANT_ORIGIN: "https://shop.example.com",
  STRIPE_SECRET_KEY: SECRET,
  STRIPE_PUBLISHABLE_KEY: "pk_test_51Publishable",
  STRIPE_API_BASE: "https://stripe.test",
  STRIPE_PROFILE_ID: "profile_test123",
  GOOGLE_PAY_ENVIRONMENT: "TEST",
  GOOGLE_PAY_MERCHANT_NAME: "Example Shop",
};
const GOOGLE_TOKEN = JSON.stringify({ id: "tok_visa", object: "token", card: { brand: "Visa", last4: "4242" } });

interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  form: URLSearchParams;
}

let seen: Seen[];
let answers: Array<(req: Seen) => Response>;
let logs: string[];

function stripeJson(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

function intent(status: string, extra: Record<string, unknown> = {}) {
  return {
    id: "pi_123",
    object: "payment_intent",
    amount: 2599,
    currency: "usd",
    status,
    metadata: { ucp_checkout_id: "chk_1", ucp_attempt: "chk_1:a1" },
    next_action: null,
    last_payment_error: null,
    ...extra,
  };
}

function processor(vars: Record<string, unknown> = VARS): PaymentProcessor {
  const found = processorFor(buildConfig(vars));
  if (!found) throw new Error("no processor");
  return found;
}

const REQUEST: ChargeRequest = {
  idempotencyKey: "chk_1:a1",
  checkoutId: "chk_1",
  amount: 2599,
  currency: "USD",
  handlerId: "google_pay",
  credential: { type: "PAYMENT_GATEWAY", token: GOOGLE_TOKEN },
};

beforeEach(() => {
  seen = [];
  answers = [];
  logs = [];
  vi.stubGlobal("fetch", async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
    const req: Seen = {
      method: init?.method ?? "GET",
      url,
      headers: new Headers(init?.headers),
      form: new URLSearchParams(typeof init?.body === "string" ? init.body : ""),
    };
    seen.push(req);
    const answer = answers.shift();
    if (!answer) throw new Error(`unexpected ${req.method} ${url.pathname}`);
    return answer(req);
  });
  for (const level of ["log", "warn", "error", "info"] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logs.push(args.map(String).join(" "));
    });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  const all = logs.join("\n");
  expect(all).not.toContain(SECRET);
  expect(all).not.toContain("tok_visa");
  expect(all).not.toContain("spt_");
});

describe("charge", () => {
  it("a Google Pay token: one confirmed PaymentIntent keyed by the attempt, with the card token and metadata", async () => {
    answers.push(() => stripeJson(intent("succeeded")));
    const outcome = await processor().charge(REQUEST);
    expect(outcome).toEqual({ kind: "captured", chargeId: "pi_123" });
    expect(seen).toHaveLength(1);
    const [req] = seen as [Seen];
    expect(`${req.method} ${req.url.origin}${req.url.pathname}`).toBe("POST https://stripe.test/v1/payment_intents");
    expect(req.headers.get("idempotency-key")).toBe("chk_1:a1");
    expect(req.headers.get("authorization")).toBe(`Bearer ${SECRET}`);
    expect(Object.fromEntries(req.form)).toMatchObject({
      amount: "2599",
      currency: "usd",
      confirm: "true",
      capture_method: "automatic",
      "payment_method_data[type]": "card",
      "payment_method_data[card][token]": "tok_visa",
      "metadata[ucp_checkout_id]": "chk_1",
      "metadata[ucp_attempt]": "chk_1:a1",
      "automatic_payment_methods[allow_redirects]": "never",
    });
  });

  it("a bare tok_ from a platform that unwrapped Google's token is taken too; anything else is declined unsent", async () => {
    answers.push(() => stripeJson(intent("succeeded")));
    await processor().charge({ ...REQUEST, credential: { type: "PAYMENT_GATEWAY", token: "tok_visa" } });
    expect(seen[0]?.form.get("payment_method_data[card][token]")).toBe("tok_visa");
    for (const token of ["", "{not json", JSON.stringify({ id: "pm_card_visa" }), "4242424242424242"]) {
      const outcome = await processor().charge({ ...REQUEST, credential: { type: "PAYMENT_GATEWAY", token } });
      expect(outcome.kind, token).toBe("declined");
    }
    expect(seen).toHaveLength(1);
  });

  it("a shared payment token on Stripe's handler is shared_payment_granted_token", async () => {
    answers.push(() => stripeJson(intent("succeeded")));
    const outcome = await processor().charge({
      ...REQUEST,
      handlerId: "stripe_payments",
      credential: { type: "shared_payment_token", token: "spt_123abc" },
    });
    expect(outcome.kind).toBe("captured");
    expect(seen[0]?.form.get("shared_payment_granted_token")).toBe("spt_123abc");
    expect(seen[0]?.form.has("payment_method_data[type]")).toBe(false);
  });

  it("STRIPE_CAPTURE=manual authorizes (requires_capture counts as paid; captured at shipment)", async () => {
    answers.push(() => stripeJson(intent("requires_capture")));
    const outcome = await processor({ ...VARS, STRIPE_CAPTURE: "manual" }).charge(REQUEST);
    expect(outcome).toEqual({ kind: "captured", chargeId: "pi_123" });
    expect(seen[0]?.form.get("capture_method")).toBe("manual");
  });

  it("a card error is a decline with the store's own words, logged by code only", async () => {
    answers.push(() =>
      stripeJson(
        {
          error: {
            type: "card_error",
            code: "card_declined",
            decline_code: "insufficient_funds",
            message: "Your card has insufficient funds. tok_visa",
            payment_intent: intent("requires_payment_method"),
          },
        },
        402,
      ),
    );
    const outcome = await processor().charge(REQUEST);
    expect(outcome).toEqual({ kind: "declined", reason: "The card was declined: insufficient funds." });
    expect(logs.join("\n")).toContain("code=card_declined decline_code=insufficient_funds");
  });

  it("an unknown token is a decline; Stripe being down is thrown (the attempt is recovered, keyed)", async () => {
    answers.push(() =>
      stripeJson({ error: { type: "invalid_request_error", code: "resource_missing", message: "No such token" } }, 400),
    );
    expect((await processor().charge(REQUEST)).kind).toBe("declined");
    answers.push(
      () => stripeJson({ error: { type: "api_error", message: "boom" } }, 500),
      () => stripeJson({ error: { type: "api_error", message: "boom" } }, 500),
    );
    await expect(processor().charge(REQUEST)).rejects.toThrow(/stripe charge failed/);
    // The SDK's one network retry reused our key.
    expect(seen.slice(1).map((s) => s.headers.get("idempotency-key"))).toEqual(["chk_1:a1", "chk_1:a1"]);
  });

  it("3-D Secure: requires_action names the PaymentIntent; the verified retry takes over that one, never a new one", async () => {
    answers.push(() =>
      stripeJson(
        intent("requires_action", {
          next_action: { type: "redirect_to_url", redirect_to_url: { url: "https://hooks.stripe.com/3ds/x" } },
        }),
      ),
    );
    const first = await processor().charge(REQUEST);
    expect(first).toEqual({
      kind: "requires_action",
      reason: expect.any(String),
      authenticationId: "pi_123",
      actionUrl: "https://hooks.stripe.com/3ds/x",
    });
    // The retry is a new attempt: it re-tags the intent with itself, then confirms it.
    answers.push(
      () => stripeJson(intent("requires_confirmation")),
      () =>
        stripeJson(
          intent("requires_confirmation", { metadata: { ucp_checkout_id: "chk_1", ucp_attempt: "chk_1:a2" } }),
        ),
      () => stripeJson(intent("succeeded")),
    );
    const retry = await processor().charge({
      ...REQUEST,
      idempotencyKey: "chk_1:a2",
      credential: { type: "stripe_payment_intent" },
      authentication: { status: "passed", id: "pi_123" },
    });
    expect(retry).toEqual({ kind: "captured", chargeId: "pi_123" });
    expect(seen.slice(1).map((s) => `${s.method} ${s.url.pathname} ${s.headers.get("idempotency-key") ?? ""}`)).toEqual(
      [
        "GET /v1/payment_intents/pi_123 ",
        "POST /v1/payment_intents/pi_123 chk_1:a2:adopt",
        "POST /v1/payment_intents/pi_123/confirm chk_1:a2:confirm",
      ],
    );
    expect(seen.filter((s) => s.method === "POST" && s.url.pathname === "/v1/payment_intents")).toHaveLength(1);
  });

  it("a verified PaymentIntent of another checkout or amount is not used", async () => {
    answers.push(() => stripeJson(intent("succeeded", { amount: 100 })));
    const outcome = await processor().charge({ ...REQUEST, authentication: { status: "passed", id: "pi_123" } });
    expect(outcome.kind).toBe("declined");
    expect(seen).toHaveLength(1);
  });
});

describe("refund, capture and void", () => {
  it("a refund is one Stripe refund keyed by the order's key, naming the order", async () => {
    answers.push(
      () => stripeJson(intent("succeeded")),
      () => stripeJson({ id: "re_1", object: "refund", status: "succeeded" }),
    );
    expect(await processor().refund("pi_123", 500, "ord_1:refund:1", { orderId: "ord_1" })).toEqual({ ok: true });
    const post = seen[1] as Seen;
    expect(`${post.method} ${post.url.pathname}`).toBe("POST /v1/refunds");
    expect(post.headers.get("idempotency-key")).toBe("ord_1:refund:1");
    expect(Object.fromEntries(post.form)).toMatchObject({
      payment_intent: "pi_123",
      amount: "500",
      "metadata[ucp_order_id]": "ord_1",
    });
  });

  it("refunding a whole authorization not captured yet cancels it; a failure leaves the refund pending", async () => {
    answers.push(
      () => stripeJson(intent("requires_capture", { amount_capturable: 2599 })),
      () => stripeJson(intent("canceled")),
    );
    expect(await processor().refund("pi_123", 2599, "k1")).toEqual({ ok: true });
    expect(seen[1]?.url.pathname).toBe("/v1/payment_intents/pi_123/cancel");
    answers.push(
      () => stripeJson({ error: { type: "api_error" } }, 500),
      () => stripeJson({ error: { type: "api_error" } }, 500),
    );
    expect(await processor().refund("pi_123", 100, "k2")).toEqual({ ok: false });
    expect(await processor().refund("ch_test_abc", 100, "k3")).toEqual({ ok: false });
  });

  it("capture at shipment captures the amount, keyed", async () => {
    answers.push(() => stripeJson(intent("succeeded")));
    expect(await processor().capture?.("pi_123", 2599, "ord_1:capture")).toEqual({ ok: true });
    expect(seen[0]?.url.pathname).toBe("/v1/payment_intents/pi_123/capture");
    expect(seen[0]?.form.get("amount_to_capture")).toBe("2599");
    expect(seen[0]?.headers.get("idempotency-key")).toBe("ord_1:capture");
  });

  it("void finds the attempt's PaymentIntent by metadata and cancels it (a captured one is refunded)", async () => {
    answers.push(
      () =>
        stripeJson({
          object: "search_result",
          data: [
            intent("requires_action"),
            intent("succeeded", { id: "pi_456" }),
            intent("canceled", { id: "pi_789" }),
          ],
          has_more: false,
        }),
      () => stripeJson(intent("canceled")),
      () => stripeJson({ id: "re_2", object: "refund" }),
    );
    expect(await processor().void("chk_1:a1")).toEqual({ ok: true });
    expect(seen[0]?.url.pathname).toBe("/v1/payment_intents/search");
    expect(seen[0]?.url.searchParams.get("query")).toBe("metadata['ucp_attempt']:'chk_1:a1'");
    expect(seen.slice(1).map((s) => `${s.url.pathname} ${s.headers.get("idempotency-key")}`)).toEqual([
      "/v1/payment_intents/pi_123/cancel chk_1:a1:void:pi_123",
      "/v1/refunds chk_1:a1:void:pi_456",
    ]);
  });

  it("void with nothing under the key is done; a search failure keeps the stock held (ok false)", async () => {
    answers.push(() => stripeJson({ object: "search_result", data: [], has_more: false }));
    expect(await processor().void("chk_1:a9")).toEqual({ ok: true });
    answers.push(
      () => stripeJson({ error: { type: "api_error" } }, 500),
      () => stripeJson({ error: { type: "api_error" } }, 500),
    );
    expect(await processor().void("chk_1:a9")).toEqual({ ok: false });
  });
});
