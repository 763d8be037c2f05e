/**
 * Stripe's idempotency layer for v1 POSTs (docs "Idempotent requests"): the first request
 * under a key that began executing is saved (status and body, errors included) and replayed
 * for every retry with the same parameters, with `Idempotent-Replayed: true`. A key is the
 * account's, not an endpoint's: reusing it on another endpoint, or with other parameters,
 * is an `idempotency_error` (400). Validation errors are not saved. Keys are pruned after
 * 24 hours.
 */
import { StripeApiError } from "./errors.ts";
import type { IdempotentResult, StandInState } from "./state.ts";

const DAY_MS = 24 * 3600 * 1000;

/** The saved result to replay, undefined for a first request; throws for a misused key. */
export function lookup(
  state: StandInState,
  key: string,
  endpoint: string,
  params: string,
): IdempotentResult | undefined {
  if (key.length > 255) {
    throw new StripeApiError(400, {
      type: "invalid_request_error",
      message: "Idempotency-Key must be at most 255 characters long.",
    });
  }
  const saved = state.idempotency.get(key);
  if (!saved) return undefined;
  if (Date.now() - saved.created > DAY_MS) {
    state.idempotency.delete(key);
    return undefined;
  }
  if (saved.endpoint !== endpoint) {
    throw new StripeApiError(400, {
      type: "idempotency_error",
      message: `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${saved.endpoint.split(" ")[1]}' vs '${endpoint.split(" ")[1]}'). Try using a key other than '${key}' if you meant to execute a different request.`,
    });
  }
  if (saved.params !== params) {
    throw new StripeApiError(400, {
      type: "idempotency_error",
      message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
    });
  }
  return saved;
}
