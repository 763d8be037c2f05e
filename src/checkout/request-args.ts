/**
 * What a wire version's request translation (src/ucp/wire/) may add to the checkout tools'
 * model arguments, beside the translated request. Never published arguments: tools/list does
 * not show them, and a tool reads them only through these functions.
 */
import type { InstrumentCardinality } from "./completion";

/** complete_checkout: how many instruments the submission may carry (absent: `selected`). */
export const INSTRUMENT_CARDINALITY_ARG = "instrument_cardinality";

/**
 * The checkout exactly as the platform sent it, when the translation changed it: the
 * idempotency fingerprint covers what was sent, so two requests that differ only in what the
 * model ignores (an unadvertised consent purpose, a destination's `type`) still conflict.
 */
export const SENT_CHECKOUT_ARG = "sent_checkout";

export function instrumentCardinality(args: object): InstrumentCardinality {
  return (args as Record<string, unknown>)[INSTRUMENT_CARDINALITY_ARG] === "one" ? "one" : "selected";
}

/** What the idempotency fingerprint covers: the sent checkout, else the one the tool reads. */
export function sentCheckout(args: object, read: unknown): unknown {
  const sent = (args as Record<string, unknown>)[SENT_CHECKOUT_ARG];
  return sent === undefined ? read : sent;
}
