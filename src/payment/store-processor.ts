/**
 * The one place that decides how this store takes money: completion charges through
 * `processorFor`, the order object refunds through it, and discovery and every checkout
 * advertise only its handlers. A merchant wiring a real provider returns it here
 * (docs/payments.md).
 */
import type { MerchantConfig } from "../config";
import type { HandlerRegistry } from "./handlers";
import { type PaymentProcessor, testProcessor } from "./processor";
import { stripeProcessor } from "./stripe-processor";

type PaymentSettings = Pick<MerchantConfig, "paymentTestMode" | "stripe">;

/**
 * The store's processor, or undefined when none is live (no order can be paid): the test
 * processor in test mode, else Stripe when its secret key is set (docs/payments.md).
 */
export function processorFor(config: PaymentSettings): PaymentProcessor | undefined {
  // Test tokens "pay" for real orders: only a store explicitly in test mode accepts them.
  if (config.paymentTestMode) return testProcessor;
  return config.stripe ? stripeProcessor(config.stripe) : undefined;
}

/**
 * Whether processorFor's charges are authorizations the order captures at its first shipment
 * (Stripe with STRIPE_CAPTURE=manual). The order records this at creation, so a later change
 * of the setting never leaves an authorization uncaptured or captures a charge twice.
 */
export function capturesAtShipment(config: PaymentSettings): boolean {
  return !config.paymentTestMode && config.stripe?.capture === "manual";
}

/** What discovery and checkouts advertise: nothing the store cannot honour. */
export function paymentHandlers(config: PaymentSettings & Pick<MerchantConfig, "origin">): HandlerRegistry {
  return processorFor(config)?.handlers(config.origin) ?? {};
}

export function handlerIds(registry: HandlerRegistry): string[] {
  return Object.values(registry).flatMap((entries) => entries.map((e) => e.id));
}

/** Carried by every checkout of a store in test mode, so no platform mistakes it for a live one. */
export const TEST_MODE_NOTE = {
  type: "info",
  code: "test_mode",
  content: "This store is in test mode: payments use test tokens, no money moves and orders are not fulfilled.",
} as const;

/**
 * complete_checkout's answer when no processor is live. `requires_buyer_review`: the agent
 * cannot fix this by retrying; the buyer finishes (or not) with the merchant at continue_url.
 */
export const PAYMENTS_NOT_CONFIGURED = {
  type: "error",
  code: "payments_not_configured",
  content:
    "This store cannot take payments through agents yet: no payment processor is configured. No order was placed and nothing was charged.",
  severity: "requires_buyer_review",
} as const;
