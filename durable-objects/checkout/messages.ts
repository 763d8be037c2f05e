/** The messages the checkout object adds to a session it answers with but does not change. */
import type { Message } from "../../schemas/ucp/common";
import type { CheckoutState } from "../../src/checkout/checkout-state";

/**
 * A write while a completion is accepted (running, or waiting on the buyer's challenge): the
 * session is frozen (UCP checkout §Accepted completion), so the answer is recoverable.
 */
export const IN_PROGRESS: Message = {
  type: "error",
  code: "checkout_in_progress",
  content: "The checkout is being completed; it cannot change now. Read it again with get_checkout for the result.",
  severity: "recoverable",
};

/** A closed session answers with itself and this; it is not changed. */
export function closedFor(status: CheckoutState["status"], op: string): Message {
  return {
    type: "error",
    code: "invalid_status",
    content: `This checkout is ${status.replaceAll("_", " ")}; ${op} is no longer possible.`,
    severity: "unrecoverable",
  };
}

export const EXPIRED: Message = { type: "info", code: "expired", content: "This checkout expired and was canceled." };
