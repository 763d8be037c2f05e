/**
 * The buyer's verification of an escalated payment (3-D Secure, UCP overview Scenario B): a
 * charge answered `requires_action`, the checkout asks the buyer (requires_escalation,
 * `requires_3ds`), the buyer passes or fails the challenge at continue_url, and the
 * platform's retried complete_checkout charges with the passed verification attached.
 * A platform that negotiated dev.ucp.shopping.payment_authentication gets the challenge as a
 * checkout Action instead (`action`): the session stays complete_in_progress, the buyer
 * answers on the same page (the Action's surface), and the store itself completes the
 * checkout after a pass; the platform only polls get_checkout.
 * Pure: the CheckoutObject stores the record and runs these in its transactions.
 */
import type { Message } from "../../schemas/ucp/common";
import type { Authentication } from "../payment/processor";
import { type CheckoutState, type SavedInstrument, statusFrom } from "./checkout-state";

/** `used`: a charge carried it (captured or declined); it authenticates nothing more. */
export type VerificationStatus = "pending" | "passed" | "failed" | "used";

export interface PaymentVerification {
  /** The processor's reference when it gave one (`authenticationId`), else `3ds_<random>`. */
  readonly id: string;
  readonly status: VerificationStatus;
  /** What the buyer is asked to confirm: the attempt's charge. */
  readonly amount: number;
  readonly currency: string;
  /** Display data only (brand, last digits): never a credential. */
  readonly instrument: SavedInstrument;
  readonly instrumentPath: string;
  /** Who sent the payment: the buyer on the store's page, or the platform through the API. */
  readonly startedBy: "buyer" | "platform";
  /** Asked as a payment_authentication Action (`id`: ours, never reused; `version`: the extension's). */
  readonly action?: ChallengeAction;
  readonly createdAt: number;
  readonly decidedAt?: number;
}

export const REQUIRES_3DS = "requires_3ds";
export const THREE_DS_CHALLENGE = "dev.ucp.payment.three_ds_challenge";

export interface ChallengeAction {
  readonly id: string;
  readonly version: string;
}

/** The verification a `requires_action` charge asks for (replaces any earlier one). */
export function verificationRequested(
  request: Pick<
    PaymentVerification,
    "id" | "amount" | "currency" | "instrument" | "instrumentPath" | "startedBy" | "action"
  >,
  now: number,
): PaymentVerification {
  return { ...request, status: "pending", createdAt: now };
}

/**
 * Whether the buyer has a challenge to answer now: the session is escalated for it, or (as an
 * Action) its completion waits on it.
 */
export function awaitsBuyer(checkout: CheckoutState, verification: PaymentVerification | undefined): boolean {
  if (verification?.status !== "pending") return false;
  if (verification.action) return checkout.status === "complete_in_progress";
  return (
    checkout.status === "requires_escalation" &&
    checkout.messages.some((m) => m.type === "error" && m.code === REQUIRES_3DS)
  );
}

/**
 * The outstanding challenge Action, for the checkout response (payment_authentication: the
 * instrument is one in the checkout, the url the buyer's challenge page). Undefined when
 * there is none: an answered or superseded Action is never shown again.
 */
export function challengeActions(
  checkout: CheckoutState,
  verification: PaymentVerification | undefined,
  challengeUrl: string,
): Record<string, Array<{ id: string; config: { payment_instrument_id: string; url: string } }>> | undefined {
  const action = verification?.action;
  if (!action || !awaitsBuyer(checkout, verification)) return undefined;
  const instrumentId = verification.instrument.id;
  // An instrument no longer in the checkout takes its Action with it.
  if (!checkout.payment?.instruments.some((i) => i.id === instrumentId)) return undefined;
  return {
    [THREE_DS_CHALLENGE]: [{ id: action.id, config: { payment_instrument_id: instrumentId, url: challengeUrl } }],
  };
}

/**
 * The buyer's answer. Passed: the escalation is resolved and the session is
 * ready_for_complete again for the platform's retry (Scenario B). Failed: nothing was
 * charged, the session stays open with a payment_failed error, as for a decline. Undefined
 * when there is nothing to answer (already answered, or the session moved on).
 */
export function decideVerification(
  checkout: CheckoutState,
  verification: PaymentVerification | undefined,
  passed: boolean,
  now: number,
): { checkout: CheckoutState; verification: PaymentVerification } | undefined {
  if (!verification || !awaitsBuyer(checkout, verification)) return undefined;
  const others = checkout.messages.filter((m) => m.code !== REQUIRES_3DS);
  if (passed && verification.action) {
    // The store completes it now (the page, as the buyer): the platform is not asked to retry.
    return {
      checkout: { ...checkout, messages: others },
      verification: { ...verification, status: "passed", decidedAt: now },
    };
  }
  if (passed) {
    const verified: Message = {
      type: "info",
      code: "payment_verified",
      content: "The buyer verified the payment. Complete the checkout again to place the order.",
    };
    const messages = [...others, verified];
    return {
      checkout: { ...checkout, status: statusFrom(messages), messages },
      verification: { ...verification, status: "passed", decidedAt: now },
    };
  }
  const failed: Message = {
    type: "error",
    code: "payment_failed",
    path: verification.instrumentPath,
    content:
      "The card's bank could not verify the payment (3-D Secure failed). Nothing was charged; pay with another card.",
    severity: "recoverable",
  };
  return {
    // As after a decline: open, and another instrument may be tried.
    checkout: { ...checkout, status: "ready_for_complete", messages: [...others, failed] },
    verification: { ...verification, status: "failed", decidedAt: now },
  };
}

/** The passed verification a new charge carries, when it is for this very charge. */
export function authenticationFor(
  verification: PaymentVerification | undefined,
  charge: { amount: number; currency: string; handlerId: string; type: string },
): Authentication | undefined {
  if (verification?.status !== "passed") return undefined;
  const same =
    verification.amount === charge.amount &&
    verification.currency === charge.currency &&
    verification.instrument.handler_id === charge.handlerId &&
    verification.instrument.type === charge.type;
  return same ? { status: "passed", id: verification.id } : undefined;
}

/** The instrument completion pays with: the selected one, else the first (as planCompletion picks). */
export function chosenInstrument<T extends { selected?: boolean }>(instruments: readonly T[]): T | undefined {
  return instruments.find((i) => i.selected === true) ?? instruments[0];
}
