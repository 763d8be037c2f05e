/**
 * The payment processor interface a merchant implements for a real provider (docs/payments.md),
 * and the built-in test processor, live only in test mode (store-processor.ts). A processor
 * receives the credential once, at completion, and never stores it; the checkout keeps only
 * display data.
 */
import { type HandlerRegistry, TEST_HANDLER_ID, testPaymentHandlers } from "./handlers";

export interface ChargeRequest {
  /** Stable per checkout: a retried charge with the same key must not charge twice. */
  readonly idempotencyKey: string;
  /** The checkout paid for: processors record it with the charge so their events find it (Stripe metadata). */
  readonly checkoutId?: string;
  readonly amount: number;
  readonly currency: string;
  readonly handlerId: string;
  readonly credential: { readonly type: string; readonly [key: string]: unknown };
  /**
   * The buyer passed the verification an earlier charge asked for (3-D Secure), for this
   * amount, currency and handler: `id` is the processor's own reference when its
   * `requires_action` gave one, otherwise the store's. Absent on a first charge.
   */
  readonly authentication?: Authentication;
}

export interface Authentication {
  readonly status: "passed";
  readonly id: string;
}

export type ChargeOutcome =
  | { readonly kind: "captured"; readonly chargeId: string }
  | { readonly kind: "declined"; readonly reason: string }
  /**
   * The buyer must verify (e.g. 3-D Secure); completion is retried afterwards with
   * `authentication`. `authenticationId`: the processor's reference for that verification.
   */
  | {
      readonly kind: "requires_action";
      readonly reason: string;
      readonly actionUrl?: string;
      readonly authenticationId?: string;
    };

export interface PaymentProcessor {
  /**
   * The handlers whose credentials this processor can charge: advertised in discovery and in
   * every checkout, and the only ones complete_checkout accepts.
   */
  handlers(origin: string): HandlerRegistry;
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
  /**
   * Gives money back (merchant-side refund or cancellation). Idempotent per `idempotencyKey`:
   * a retry after a crash must not refund twice.
   */
  refund(
    chargeId: string,
    amount: number,
    idempotencyKey: string,
    context?: { readonly orderId?: string },
  ): Promise<{ readonly ok: boolean }>;
  /**
   * Takes an authorized charge (capture at shipment, STRIPE_CAPTURE = "manual"); absent for a
   * processor that always captures at once. Idempotent per key.
   */
  capture?(chargeId: string, amount: number, idempotencyKey: string): Promise<{ readonly ok: boolean }>;
  /**
   * Undoes whatever a charge under `idempotencyKey` did, if anything (nothing, an
   * authorization, a capture): the checkout's alarm calls it for a completion abandoned
   * before its charge was known. ok: true once no money is held under that key; idempotent.
   */
  void(idempotencyKey: string): Promise<{ readonly ok: boolean }>;
  /**
   * The credential to retry a charge with once the buyer passed its verification on the
   * store's own page, when the buyer started the payment there (the page keeps no
   * credential). Undefined: the buyer pays again.
   */
  retryCredential?(handlerId: string): { readonly type: string; readonly [key: string]: unknown } | undefined;
}

/**
 * Documented test tokens (credential `{type: "token", token}`):
 *   success_token      → captured
 *   fail_token         → declined (the checkout stays open; try another instrument)
 *   requires_3ds_token → the buyer must verify (requires_escalation with continue_url);
 *                        captured once the charge carries a passed `authentication`
 * Any other token is declined. Charges are deterministic per idempotency key.
 */
export const TEST_TOKENS = {
  success: "success_token",
  decline: "fail_token",
  requiresAction: "requires_3ds_token",
} as const;

export const testProcessor: PaymentProcessor = {
  handlers: testPaymentHandlers,
  async charge(request) {
    const token = typeof request.credential.token === "string" ? request.credential.token : "";
    if (request.credential.type !== "token") return { kind: "declined", reason: "Unsupported credential type" };
    if (token === TEST_TOKENS.success)
      return { kind: "captured", chargeId: `ch_test_${await shortHash(request.idempotencyKey)}` };
    if (token === TEST_TOKENS.requiresAction) {
      if (request.authentication?.status === "passed")
        return { kind: "captured", chargeId: `ch_test_${await shortHash(request.idempotencyKey)}` };
      return { kind: "requires_action", reason: "The bank requires verification." };
    }
    return { kind: "declined", reason: "The card was declined." };
  },
  retryCredential(handlerId) {
    // A test token is not card data: the one that asks for verification is public and fixed.
    return handlerId === TEST_HANDLER_ID ? { type: "token", token: TEST_TOKENS.requiresAction } : undefined;
  },
  async refund() {
    return { ok: true };
  },
  async void() {
    return { ok: true };
  },
};

async function shortHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
