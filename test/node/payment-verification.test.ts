/** The payment verification's pure rules (src/checkout/payment-verification.ts) and the test processor's 3-D Secure. */
import { describe, expect, it } from "vitest";
import type { CheckoutState } from "../../src/checkout/checkout-state";
import {
  authenticationFor,
  decideVerification,
  type PaymentVerification,
  verificationRequested,
} from "../../src/checkout/payment-verification";
import { TEST_HANDLER_ID } from "../../src/payment/handlers";
import { TEST_TOKENS, testProcessor } from "../../src/payment/processor";

const NOW = Date.UTC(2026, 3, 8);

const escalated: CheckoutState = {
  id: "chk_1",
  status: "requires_escalation",
  currency: "USD",
  line_items: [],
  totals: [{ type: "total", amount: 2500 }],
  messages: [{ type: "error", code: "requires_3ds", content: "Verify.", severity: "requires_buyer_input" }],
  next_line: 1,
  created_at: NOW,
  expires_at: NOW + 3600_000,
};

const pending: PaymentVerification = verificationRequested(
  {
    id: "3ds_a",
    amount: 2500,
    currency: "USD",
    instrument: { id: "i1", handler_id: TEST_HANDLER_ID, type: "card", display: { last_digits: "3184" } },
    instrumentPath: "$.payment.instruments[0]",
    startedBy: "platform",
  },
  NOW,
);

const charge = { amount: 2500, currency: "USD", handlerId: TEST_HANDLER_ID, type: "card" };

describe("the buyer's answer", () => {
  it("passed: ready_for_complete, the 3-D Secure error gone, an info for the platform", () => {
    const decided = decideVerification(escalated, pending, true, NOW + 1);
    expect(decided?.checkout.status).toBe("ready_for_complete");
    expect(decided?.checkout.messages).toEqual([expect.objectContaining({ type: "info", code: "payment_verified" })]);
    expect(decided?.verification).toMatchObject({ status: "passed", decidedAt: NOW + 1 });
  });

  it("failed: open with payment_failed on the instrument", () => {
    const decided = decideVerification(escalated, pending, false, NOW + 1);
    expect(decided?.checkout.status).toBe("ready_for_complete");
    expect(decided?.checkout.messages).toEqual([
      expect.objectContaining({ code: "payment_failed", severity: "recoverable", path: "$.payment.instruments[0]" }),
    ]);
    expect(decided?.verification.status).toBe("failed");
  });

  it("only once, and only while the checkout is escalated for it", () => {
    const passed = decideVerification(escalated, pending, true, NOW + 1);
    expect(decideVerification(passed?.checkout as CheckoutState, passed?.verification, false, NOW + 2)).toBeUndefined();
    expect(
      decideVerification({ ...escalated, status: "ready_for_complete", messages: [] }, pending, true, NOW),
    ).toBeUndefined();
    expect(decideVerification(escalated, undefined, true, NOW)).toBeUndefined();
  });
});

describe("which charge a passed verification authenticates", () => {
  const passed = { ...pending, status: "passed" as const };

  it("the same amount, currency, handler and instrument type", () => {
    expect(authenticationFor(passed, charge)).toEqual({ status: "passed", id: "3ds_a" });
  });

  it("not another amount (the checkout changed), nor a pending, failed or used one", () => {
    expect(authenticationFor(passed, { ...charge, amount: 2600 })).toBeUndefined();
    expect(authenticationFor(passed, { ...charge, handlerId: "other" })).toBeUndefined();
    for (const status of ["pending", "failed", "used"] as const) {
      expect(authenticationFor({ ...pending, status }, charge)).toBeUndefined();
    }
  });
});

describe("the test processor's 3-D Secure", () => {
  const request = (authentication?: { status: "passed"; id: string }) => ({
    idempotencyKey: "chk_1:a",
    amount: 2500,
    currency: "USD",
    handlerId: TEST_HANDLER_ID,
    credential: { type: "token", token: TEST_TOKENS.requiresAction },
    ...(authentication ? { authentication } : {}),
  });

  it("asks for verification without a passed authentication, captures with one", async () => {
    expect(await testProcessor.charge(request())).toMatchObject({ kind: "requires_action" });
    expect(await testProcessor.charge(request({ status: "passed", id: "3ds_a" }))).toMatchObject({
      kind: "captured",
      chargeId: expect.stringMatching(/^ch_test_/),
    });
  });

  it("gives the buyer's page the public retry token for its own handler only", () => {
    expect(testProcessor.retryCredential?.(TEST_HANDLER_ID)).toEqual({ type: "token", token: "requires_3ds_token" });
    expect(testProcessor.retryCredential?.("other")).toBeUndefined();
  });
});
