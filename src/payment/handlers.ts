/**
 * Payment handler entries as advertised in discovery (`ucp.payment_handlers`) and in every
 * checkout response. Which ones a store advertises is its processor's answer
 * (store-processor.ts). The built-in test handler is named under the merchant's own domain
 * (reverse-DNS of MERCHANT_ORIGIN), as UCP requires for vendor namespaces.
 */
import { UCP_VERSION } from "../ucp/capabilities";

export const TEST_HANDLER_ID = "mock_payment_handler";

export interface HandlerEntry {
  readonly id: string;
  readonly version: string;
  readonly spec: string;
  /** Optional for a business (payment_handler.json business_schema); Google Pay publishes one. */
  readonly schema?: string;
  readonly available_instruments: ReadonlyArray<{ type: string; constraints?: Record<string, unknown> }>;
  readonly config: Record<string, unknown>;
}

export type HandlerRegistry = Record<string, HandlerEntry[]>;

/** `https://shop.example.com` → `com.example.shop`; `http://localhost:8787` → `localhost`. */
export function reverseDomain(origin: string): string {
  const host = new URL(origin).hostname.toLowerCase().replace(/[^a-z0-9.]/g, "");
  return host
    .split(".")
    .filter((part) => part.length > 0)
    .reverse()
    .map((part) => (/^[a-z]/.test(part) ? part : `x${part}`))
    .join(".");
}

/** The test handler; `config.test_mode` tells platforms no real money moves. */
export function testPaymentHandlers(origin: string): HandlerRegistry {
  return {
    [`${reverseDomain(origin)}.test_payment`]: [
      {
        id: TEST_HANDLER_ID,
        version: UCP_VERSION,
        spec: `${origin}/ucp/payment/test`,
        schema: `${origin}/ucp/payment/test/schema.json`,
        available_instruments: [{ type: "card" }],
        config: { test_mode: true },
      },
    ],
  };
}

/** The handler entry with this instance id, if advertised. */
export function findHandler(registry: HandlerRegistry, handlerId: string): HandlerEntry | undefined {
  for (const entries of Object.values(registry)) {
    const found = entries.find((e) => e.id === handlerId);
    if (found) return found;
  }
  return undefined;
}
