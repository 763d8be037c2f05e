/** Wire shapes of cart responses: the cart payload and the not-found error response. Pure. */
import type { Message } from "../../schemas/ucp/common";
import { CAPABILITY } from "../ucp/capabilities";
import type { UcpEnvelope } from "../ucp/envelope";
import { type CartState, cartTotals } from "./cart-state";

export function cartPayload(cart: CartState, envelope: UcpEnvelope, continueUrl: string, messages: readonly Message[]) {
  return {
    ucp: envelope,
    id: cart.id,
    line_items: cart.line_items,
    currency: cart.currency,
    totals: cartTotals(cart),
    ...(cart.context ? { context: cart.context } : {}),
    ...(cart.buyer ? { buyer: cart.buyer } : {}),
    // Only a platform that negotiated the discount extension sees its field.
    ...(cart.discounts && envelope.capabilities?.[CAPABILITY.discount] ? { discounts: cart.discounts } : {}),
    ...(messages.length > 0 ? { messages } : {}),
    continue_url: continueUrl,
    expires_at: new Date(cart.expires_at).toISOString(),
  };
}

/** No cart to return (never existed, expired, canceled): an error response. */
export function cartNotFound(envelope: UcpEnvelope, origin: string) {
  return {
    ucp: { ...envelope, status: "error" as const },
    messages: [
      {
        type: "error" as const,
        code: "not_found",
        content: "Cart not found or has expired",
        severity: "unrecoverable" as const,
      },
    ],
    continue_url: `${origin}/`,
  };
}
