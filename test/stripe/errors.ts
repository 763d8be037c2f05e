/**
 * Stripe's v1 error body, `{ error: { type, code, message, param, ... } }`, with the HTTP
 * statuses the SDK maps to its error classes (stripe-node src/Error.ts generateV1Error:
 * 400/404 invalid request or idempotency, 401 authentication, 402 card, 409 conflict).
 */
export interface StripeErrorBody {
  type: "invalid_request_error" | "card_error" | "idempotency_error" | "api_error";
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  charge?: string;
  payment_intent?: Record<string, unknown>;
  payment_method?: Record<string, unknown>;
  request_log_url?: string;
}

/** Thrown by an endpoint; the router turns it into the response. `saved`: replayable under its key. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
    /**
     * Stripe saves an idempotent result only once the endpoint began executing: a validation
     * error (a missing or unknown parameter) is not saved, a card decline is (docs "Idempotent requests").
     */
    readonly saved = false,
  ) {
    super(body.message);
  }
}

const docUrl = (code: string) => `https://stripe.com/docs/error-codes/${code.replaceAll("_", "-")}`;

export const missingParam = (param: string) =>
  new StripeApiError(400, {
    type: "invalid_request_error",
    code: "parameter_missing",
    param,
    message: `Missing required param: ${param}.`,
    doc_url: docUrl("parameter_missing"),
  });

export const unknownParam = (param: string) =>
  new StripeApiError(400, {
    type: "invalid_request_error",
    code: "parameter_unknown",
    param,
    message: `Received unknown parameter: ${param}`,
    doc_url: docUrl("parameter_unknown"),
  });

export const invalidParam = (param: string, message: string, code = "parameter_invalid_empty") =>
  new StripeApiError(400, { type: "invalid_request_error", code, param, message, doc_url: docUrl(code) });

export const noSuch = (what: string, id: string, param = "id") =>
  new StripeApiError(404, {
    type: "invalid_request_error",
    code: "resource_missing",
    param,
    message: `No such ${what}: '${id}'`,
    doc_url: docUrl("resource_missing"),
  });

/** An action the object's status does not allow; Stripe returns the object with it. */
export const unexpectedState = (message: string, paymentIntent?: Record<string, unknown>) =>
  new StripeApiError(400, {
    type: "invalid_request_error",
    code: "payment_intent_unexpected_state",
    message,
    doc_url: docUrl("payment_intent_unexpected_state"),
    ...(paymentIntent ? { payment_intent: paymentIntent } : {}),
  });

export const unknownRoute = (method: string, path: string) =>
  new StripeApiError(404, {
    type: "invalid_request_error",
    message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
  });

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body, null, 2), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}
