/**
 * 2026-08-25 checkout tools: how their requests are read into the model and their payloads
 * written (spec-digest-2026-08-25 §1.7, §2.6, §2.7, §2.9, §2.10).
 *
 * Responses: typed fulfillment destinations and Description-object option descriptions
 * (current-fulfillment.ts), buyer consent as the complete purpose map when buyer_consent is
 * negotiated (current-consent.ts), Constraint Expressions on available instruments
 * (current-payment.ts), and never an `order` on a complete_in_progress checkout. Outstanding
 * Actions (3-D Secure under payment_authentication) are the model's own data, shown by it only
 * to a platform that negotiated the extension (src/checkout/checkout-state.ts).
 *
 * Requests: the purpose map to the model's booleans, typed destinations to plain addresses,
 * pan / network_token credentials to the model's card credential, and complete_checkout's
 * "exactly one instrument" (overview §Payment Handlers: we offer no split payments), which
 * the model enforces as a payment_failed error on the unchanged checkout. The checkout as sent
 * rides along for the idempotency fingerprint (src/checkout/request-args.ts).
 */
import { INSTRUMENT_CARDINALITY_ARG, SENT_CHECKOUT_ARG } from "../../checkout/request-args";
import { ok, type Result } from "../../lib/result";
import { CAPABILITY } from "../capabilities";
import type { ProtocolError } from "../errors";
import { consentIn, consentOut } from "./current-consent";
import { fulfillmentIn, fulfillmentOut } from "./current-fulfillment";
import { handlersOut, instrumentsIn } from "./current-payment";
import type { Json, ToolWire } from "./tool-wire";

const TOOLS = ["create_checkout", "get_checkout", "update_checkout", "complete_checkout", "cancel_checkout"] as const;

/** Any checkout tool's payload: a checkout, or an error response (only its `ucp` is rewritten). */
export function checkoutOut(payload: Json): Json {
  const ucp = handlersOut(payload.ucp);
  if (!isObject(ucp) || ucp.status !== "success") return { ...payload, ucp };
  const out: Json = { ...payload, ucp };
  // CK1: the order exists only once the checkout is completed.
  if (out.status === "complete_in_progress") delete out.order;
  if (out.fulfillment !== undefined) out.fulfillment = fulfillmentOut(out.fulfillment);
  const capabilities = isObject(ucp.capabilities) ? ucp.capabilities : {};
  if (CAPABILITY.buyerConsent in capabilities) {
    const buyer = isObject(out.buyer) ? out.buyer : {};
    out.buyer = { ...buyer, consent: consentOut(buyer.consent) };
  }
  return out;
}

/** create and update: the checkout as the model reads it. */
function writeIn(args: Json): Result<Json, ProtocolError> {
  if (!isObject(args.checkout)) return ok(args);
  const checkout: Json = { ...args.checkout };
  if (isObject(checkout.buyer) && checkout.buyer.consent !== undefined) {
    checkout.buyer = { ...checkout.buyer, consent: consentIn(checkout.buyer.consent) };
  }
  if (checkout.fulfillment !== undefined) {
    const fulfillment = fulfillmentIn(checkout.fulfillment, "$.checkout.fulfillment");
    if (!fulfillment.ok) return fulfillment;
    checkout.fulfillment = fulfillment.value;
  }
  if (isObject(checkout.payment)) {
    checkout.payment = { ...checkout.payment, instruments: instrumentsIn(checkout.payment.instruments) };
  }
  return ok({ ...args, checkout, [SENT_CHECKOUT_ARG]: args.checkout });
}

function completeIn(args: Json): Result<Json, ProtocolError> {
  const written = writeIn(args);
  if (!written.ok) return written;
  return ok({ ...written.value, [INSTRUMENT_CARDINALITY_ARG]: "one" });
}

export const checkoutWire: ToolWire = {
  requests: {
    create_checkout: writeIn,
    update_checkout: writeIn,
    complete_checkout: completeIn,
  },
  responses: Object.fromEntries(TOOLS.map((tool) => [tool, checkoutOut])),
};

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
