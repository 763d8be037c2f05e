/**
 * The closed set of business message codes this store writes in a UCP payload's `messages`
 * (spec-digest §5 "Code registry": codes are open strings, so a platform builds its UX on the
 * ones a store actually sends; this list is the store's promise). Every builder takes a
 * `MessageCode`; test/node/message-codes.test.ts finds every code written in src/ and
 * durable-objects/ and holds it to this list. Protocol errors (JSON-RPC `error`, REST
 * `{code, content}`) are not messages and are not here (src/ucp/errors.ts).
 */
export const MESSAGE_CODES = [
  // The spec's registry.
  "not_found",
  "out_of_stock",
  "address_undeliverable",
  "payment_failed",
  "missing",
  "field_required",
  "invalid_quantity",
  "requires_3ds",
  "payment_required",
  "unauthorized",
  "capabilities_incompatible",
  "quantity_adjusted",
  "discount_code_expired",
  "discount_code_invalid",
  "discount_code_already_applied",
  "discount_code_combination_disallowed",
  "discount_code_user_ineligible",
  // Embedded Checkout's error code for a delegation the host cannot serve (ec.* messages).
  "not_supported_error",
  // The store's own, each named in docs where an agent meets it.
  "invalid",
  "invalid_state",
  "invalid_status",
  "invalid_handler",
  "not_ready",
  "checkout_in_progress",
  "completion_abandoned",
  "expired",
  "fulfillment_required",
  "fulfillment_method_unsupported",
  "fulfillment_unavailable",
  "quantity_unit_mismatch",
  "currency_unavailable",
  "price_filter_ignored",
  "payments_not_configured",
  "payment_authentication_required",
  "payment_verified",
  "test_mode",
] as const;

export type MessageCode = (typeof MESSAGE_CODES)[number];

const KNOWN: ReadonlySet<string> = new Set(MESSAGE_CODES);

export function isMessageCode(code: unknown): code is MessageCode {
  return typeof code === "string" && KNOWN.has(code);
}
