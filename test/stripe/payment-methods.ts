/**
 * How a confirmation names its card, in the three ways the store sends one:
 * `payment_method_data[type]=card&payment_method_data[card][token]=tok_…` (a Google Pay token
 * tokenized to Stripe), a Shared Payment Token (`shared_payment_granted_token=spt_…`, or
 * `payment_method_data[shared_payment_granted_token]`, as Stripe's docs show both), or
 * `payment_method=pm_…` (a test alias like `pm_card_visa`, or a PaymentMethod made earlier).
 * Each becomes a PaymentMethod record, as Stripe makes one.
 */
import { invalidParam, noSuch } from "./errors.ts";
import type { FormObject } from "./form.ts";
import { now, randomId } from "./ids.ts";
import type { Params } from "./params.ts";
import type { PaymentMethodRecord, StandInState } from "./state.ts";
import { type Outcome, paymentMethodAlias, sharedTokenOutcome, tokenOutcome } from "./test-cards.ts";

function record(state: StandInState, outcome: Outcome, source: string): PaymentMethodRecord {
  const pm: PaymentMethodRecord = { id: randomId("pm"), created: now(), card: outcome.card, outcome, source };
  state.paymentMethods.set(pm.id, pm);
  return pm;
}

function fromSharedToken(state: StandInState, token: string, param: string): PaymentMethodRecord {
  const outcome = sharedTokenOutcome(token);
  if (!outcome) throw noSuch("shared_payment_granted_token", token, param);
  return record(state, outcome, token);
}

function fromData(state: StandInState, data: FormObject): PaymentMethodRecord {
  const spt = data.shared_payment_granted_token;
  if (typeof spt === "string") return fromSharedToken(state, spt, "payment_method_data[shared_payment_granted_token]");
  if (data.type !== "card") {
    throw invalidParam(
      "payment_method_data[type]",
      "The stand-in takes card payment methods only.",
      "parameter_invalid_string",
    );
  }
  const card = data.card;
  const token = typeof card === "object" && !Array.isArray(card) ? card.token : undefined;
  if (typeof token !== "string") {
    // Raw card numbers would need PCI scope on our side; the store never sends them.
    throw invalidParam(
      "payment_method_data[card][token]",
      "The stand-in takes card tokens (tok_…) only, never card numbers.",
      "parameter_missing",
    );
  }
  const outcome = tokenOutcome(token);
  if (!outcome) throw noSuch("token", token, "payment_method_data[card][token]");
  return record(state, outcome, token);
}

/** The PaymentMethod a create or confirm names, made now if it names a token; undefined if none. */
export function resolvePaymentMethod(state: StandInState, params: Params): PaymentMethodRecord | undefined {
  const data = params.object("payment_method_data");
  const spt = params.string("shared_payment_granted_token");
  const id = params.string("payment_method");
  const given = [data, spt, id].filter((x) => x !== undefined).length;
  if (given > 1) {
    throw invalidParam(
      "payment_method",
      "You may only specify one of these parameters: payment_method, payment_method_data, shared_payment_granted_token.",
      "parameter_invalid_string",
    );
  }
  if (data) return fromData(state, data);
  if (spt !== undefined) return fromSharedToken(state, spt, "shared_payment_granted_token");
  if (id === undefined) return undefined;
  const alias = paymentMethodAlias(id);
  if (alias) return record(state, alias, id);
  const existing = state.paymentMethods.get(id);
  if (!existing) throw noSuch("PaymentMethod", id, "payment_method");
  return existing;
}

/** POST /v1/payment_methods (type=card, card[token]=tok_…): what Stripe.js's stand-in makes. */
export function createPaymentMethod(state: StandInState, params: Params): PaymentMethodRecord {
  const type = params.requiredString("type");
  const card = params.object("card");
  return fromData(state, { type, ...(card ? { card } : {}) });
}
