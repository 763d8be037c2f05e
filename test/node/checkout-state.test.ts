import { describe, expect, it } from "vitest";
import { type CheckoutState, checkoutPayload, statusFrom } from "../../src/checkout/checkout-state";
import { reverseDomain, testPaymentHandlers } from "../../src/payment/handlers";
import { TEST_TOKENS, testProcessor } from "../../src/payment/processor";
import { validateOfficial } from "../helpers/official-schema";

const error = (severity: "recoverable" | "requires_buyer_input" | "requires_buyer_review") =>
  ({ type: "error", code: "x", content: "x", severity }) as const;

describe("statusFrom", () => {
  it("is ready with no errors, incomplete with recoverable ones, escalated with requires_* ones", () => {
    expect(statusFrom([])).toBe("ready_for_complete");
    expect(statusFrom([{ type: "warning", code: "w", content: "w" }])).toBe("ready_for_complete");
    expect(statusFrom([error("recoverable")])).toBe("incomplete");
    expect(statusFrom([error("recoverable"), error("requires_buyer_input")])).toBe("requires_escalation");
    expect(statusFrom([error("requires_buyer_review")])).toBe("requires_escalation");
  });
});

describe("checkoutPayload", () => {
  const state: CheckoutState = {
    id: "chk_1",
    status: "ready_for_complete",
    currency: "USD",
    line_items: [
      {
        id: "li_1",
        item: { id: "item_123", title: "Red T-Shirt", price: 2500 },
        quantity: 2,
        totals: [
          { type: "subtotal", amount: 5000 },
          { type: "total", amount: 5000 },
        ],
      },
    ],
    totals: [
      { type: "subtotal", amount: 5000 },
      { type: "total", amount: 5000 },
    ],
    messages: [],
    next_line: 2,
    created_at: 0,
    expires_at: 6 * 3600_000,
  };
  const envelope = {
    version: "2026-04-08",
    status: "success" as const,
    capabilities: { "dev.ucp.shopping.checkout": [{ version: "2026-04-08" }] },
    payment_handlers: testPaymentHandlers("https://shop.example.com"),
  };

  it("validates against the official checkout schema, with continue_url while open", () => {
    const payload = checkoutPayload(state, envelope, "https://shop.example.com/checkout/chk_1");
    expect(validateOfficial("https://ucp.dev/schemas/shopping/checkout.json", payload).errors).toEqual([]);
    expect(payload.continue_url).toBe("https://shop.example.com/checkout/chk_1");
  });

  it("omits continue_url and expires_at once terminal", () => {
    const payload = checkoutPayload({ ...state, status: "canceled" }, envelope, "https://x.example/c");
    expect(payload).not.toHaveProperty("continue_url");
    expect(payload).not.toHaveProperty("expires_at");
  });
});

describe("payment handlers and the test processor", () => {
  it("names the test handler under the merchant's own domain", () => {
    expect(reverseDomain("https://shop.example.com")).toBe("com.example.shop");
    expect(reverseDomain("http://localhost:8787")).toBe("localhost");
    expect(Object.keys(testPaymentHandlers("https://shop.example.com"))).toEqual(["com.example.shop.test_payment"]);
  });

  it("captures, declines or asks for the buyer by documented token, the same way every time", async () => {
    const charge = (token: string) =>
      testProcessor.charge({
        idempotencyKey: "chk_1",
        amount: 100,
        currency: "USD",
        handlerId: "h",
        credential: { type: "token", token },
      });
    const first = await charge(TEST_TOKENS.success);
    expect(first).toMatchObject({ kind: "captured" });
    expect(await charge(TEST_TOKENS.success)).toEqual(first);
    expect(await charge(TEST_TOKENS.decline)).toMatchObject({ kind: "declined" });
    expect(await charge(TEST_TOKENS.requiresAction)).toMatchObject({ kind: "requires_action" });
    expect(await charge("anything")).toMatchObject({ kind: "declined" });
  });
});
