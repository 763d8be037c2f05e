/**
 * Refunds: create against a PaymentIntent or a charge (the whole unrefunded amount unless
 * `amount` says less), retrieve, list. Only captured money can be refunded; an authorization
 * held for capture is released by cancelling the PaymentIntent instead, as on Stripe.
 */
import { invalidParam, noSuch, StripeApiError } from "./errors.ts";
import { now, randomId } from "./ids.ts";
import { listObject, refundObject } from "./objects.ts";
import type { Params } from "./params.ts";
import type { ChargeRecord, RefundRecord, StandInState } from "./state.ts";

export const REFUND_PARAMS = {
  create: [
    "amount",
    "charge",
    "payment_intent",
    "metadata",
    "reason",
    "instructions_email",
    "refund_application_fee",
    "reverse_transfer",
    "origin",
    "currency",
    "customer",
    "customer_account",
    "expand",
  ],
  retrieve: ["expand"],
  list: ["limit", "charge", "payment_intent", "created", "starting_after", "ending_before", "expand"],
} as const;

function chargeToRefund(state: StandInState, params: Params): ChargeRecord {
  const chargeId = params.string("charge");
  const piId = params.string("payment_intent");
  if (!chargeId && !piId) {
    throw new StripeApiError(400, {
      type: "invalid_request_error",
      message: "One of the following params should be provided for this request: payment_intent or charge.",
    });
  }
  if (chargeId) {
    const charge = state.charges.get(chargeId);
    if (!charge) throw noSuch("charge", chargeId, "charge");
    return charge;
  }
  const pi = state.paymentIntents.get(piId ?? "");
  if (!pi) throw noSuch("payment_intent", piId ?? "", "payment_intent");
  const charge = pi.latestCharge ? state.charges.get(pi.latestCharge) : undefined;
  if (charge?.status !== "succeeded" || !charge.captured) {
    throw new StripeApiError(400, {
      type: "invalid_request_error",
      code: "charge_not_refundable",
      param: "payment_intent",
      message: `This PaymentIntent (${pi.id}) does not have a successful charge to refund.`,
    });
  }
  return charge;
}

/** Makes a refund on a charge; also what a dashboard refund (/__stand-in/deliver) does. */
export function refundCharge(
  state: StandInState,
  charge: ChargeRecord,
  amount: number | undefined,
  extra: { metadata?: Record<string, string>; reason?: string | null; idempotencyKey?: string | null } = {},
): RefundRecord {
  const remaining = charge.amountCaptured - charge.amountRefunded;
  if (remaining <= 0) {
    throw new StripeApiError(400, {
      type: "invalid_request_error",
      code: "charge_already_refunded",
      message: `Charge ${charge.id} has already been refunded.`,
    });
  }
  if (charge.disputed) {
    throw new StripeApiError(400, {
      type: "invalid_request_error",
      code: "charge_disputed",
      message: `Charge ${charge.id} has been charged back; cannot issue a refund.`,
    });
  }
  const value = amount ?? remaining;
  if (value <= 0) throw invalidParam("amount", "Invalid positive integer", "parameter_invalid_integer");
  if (value > remaining) {
    throw invalidParam(
      "amount",
      `Refund amount (${value}) is greater than unrefunded amount on charge (${remaining})`,
      "amount_too_large",
    );
  }
  const pi = state.paymentIntents.get(charge.paymentIntent);
  const refund: RefundRecord = {
    id: randomId("re"),
    created: now(),
    amount: value,
    currency: pi?.currency ?? "usd",
    charge: charge.id,
    paymentIntent: charge.paymentIntent,
    metadata: extra.metadata ?? {},
    reason: extra.reason ?? null,
    status: "succeeded",
    idempotencyKey: extra.idempotencyKey ?? null,
  };
  state.refunds.set(refund.id, refund);
  charge.amountRefunded += value;
  return refund;
}

export function createRefund(state: StandInState, params: Params, idempotencyKey: string | undefined) {
  const reason = params.oneOf("reason", ["duplicate", "fraudulent", "requested_by_customer"] as const);
  const charge = chargeToRefund(state, params);
  const refund = refundCharge(state, charge, params.integer("amount"), {
    metadata: params.metadata(),
    reason: reason ?? null,
    idempotencyKey: idempotencyKey ?? null,
  });
  return refundObject(refund);
}

export function retrieveRefund(state: StandInState, id: string) {
  const refund = state.refunds.get(id);
  if (!refund) throw noSuch("refund", id, "refund");
  return refundObject(refund);
}

export function listRefunds(state: StandInState, params: Params) {
  const limit = params.integer("limit") ?? 10;
  const pi = params.string("payment_intent");
  const charge = params.string("charge");
  const all = [...state.refunds.values()]
    .reverse()
    .filter((r) => (!pi || r.paymentIntent === pi) && (!charge || r.charge === charge));
  return listObject("/v1/refunds", all.slice(0, limit).map(refundObject), all.length > limit);
}
