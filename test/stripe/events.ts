/**
 * What `/__stand-in/deliver` sends: an event of the given type around the named object as it
 * is now. Two types also act first, as they would on Stripe: `charge.refunded` makes a
 * dashboard refund (no Idempotency-Key, no metadata; `amount` or the rest) and
 * `charge.dispute.created` opens a dispute on the charge.
 */
import { invalidParam, noSuch } from "./errors.ts";
import { now, randomId } from "./ids.ts";
import { chargeObject, disputeObject, paymentIntentObject, refundObject } from "./objects.ts";
import { refundCharge } from "./refunds.ts";
import type { ChargeRecord, DisputeRecord, StandInState } from "./state.ts";
import { buildEvent } from "./webhooks.ts";

export interface DeliverRequest {
  /** e.g. payment_intent.succeeded, payment_intent.payment_failed, charge.refunded, charge.dispute.created */
  readonly type: string;
  /** The object: pi_…, ch_…, re_… or dp_… (a pi_ stands for its latest charge where a charge is meant). */
  readonly id: string;
  readonly amount?: number;
  readonly reason?: string;
  readonly status?: string;
}

function chargeOf(state: StandInState, id: string): ChargeRecord {
  const chargeId = id.startsWith("pi_") ? state.paymentIntents.get(id)?.latestCharge : id;
  const charge = chargeId ? state.charges.get(chargeId) : undefined;
  if (!charge) throw noSuch("charge", id, "id");
  return charge;
}

export function eventFor(state: StandInState, apiVersion: string, req: DeliverRequest): Record<string, unknown> {
  const { type, id } = req;
  if (type.startsWith("payment_intent.")) {
    const pi = state.paymentIntents.get(id);
    if (!pi) throw noSuch("payment_intent", id, "id");
    return buildEvent(state, apiVersion, type, paymentIntentObject(pi, state));
  }
  if (type === "charge.refunded") {
    const charge = chargeOf(state, id);
    const before = { amount_refunded: charge.amountRefunded, refunded: charge.amountRefunded >= charge.amount };
    refundCharge(state, charge, req.amount, { reason: req.reason ?? "requested_by_customer" });
    return buildEvent(state, apiVersion, type, chargeObject(charge, state), before);
  }
  if (type === "charge.dispute.created") {
    const charge = chargeOf(state, id);
    const dispute: DisputeRecord = {
      id: randomId("dp"),
      created: now(),
      charge: charge.id,
      paymentIntent: charge.paymentIntent,
      amount: req.amount ?? charge.amountCaptured - charge.amountRefunded,
      currency: state.paymentIntents.get(charge.paymentIntent)?.currency ?? "usd",
      reason: req.reason ?? "fraudulent",
      status: "needs_response",
    };
    state.disputes.set(dispute.id, dispute);
    charge.disputed = true;
    return buildEvent(state, apiVersion, type, disputeObject(dispute, state));
  }
  if (type.startsWith("charge.dispute.")) {
    const dispute = state.disputes.get(id);
    if (!dispute) throw noSuch("dispute", id, "id");
    const before = { status: dispute.status };
    if (req.status) dispute.status = req.status;
    else if (type === "charge.dispute.closed") dispute.status = "lost";
    return buildEvent(state, apiVersion, type, disputeObject(dispute, state), before);
  }
  if (type.startsWith("charge.")) return buildEvent(state, apiVersion, type, chargeObject(chargeOf(state, id), state));
  if (type.startsWith("refund.") || type === "charge.refund.updated") {
    const refund = state.refunds.get(id);
    if (!refund) throw noSuch("refund", id, "id");
    return buildEvent(state, apiVersion, type, refundObject(refund));
  }
  throw invalidParam("type", `The stand-in does not build ${type} events.`, "parameter_invalid_string");
}
