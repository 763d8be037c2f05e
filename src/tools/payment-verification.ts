/**
 * The buyer's side of a payment verification (3-D Secure, UCP overview Scenario B) for the
 * challenge page: the same CheckoutObject, status rules and ledger as every tool call. The
 * page opened the session by its hand-off token, so it acts as the buyer (`handoff`), whoever
 * owns the session. A button answers only the test handler's challenge, in test mode; with
 * Stripe the bank's step runs in Stripe.js on the page and Stripe says how it ended.
 */
import type { CheckoutObject } from "../../durable-objects/checkout-object";
import type { VerificationView } from "../../durable-objects/checkout-verification";
import type { ObjectReply } from "../../durable-objects/shared/object-reply";
import type { Caller } from "../../durable-objects/shared/owner";
import type { PaymentInstrument } from "../../schemas/ucp/checkout";
import type { MerchantConfig } from "../config";
import { isIssuedId } from "../lib/ids";
import { callObject } from "../lib/object-call";
import { TEST_HANDLER_ID } from "../payment/handlers";
import { processorFor } from "../payment/store-processor";
import { verificationResult } from "../payment/stripe-verification";
import { ledgerEntry } from "./object-reply";

export type { VerificationView };

export interface BuyerSession {
  readonly env: Env;
  readonly config: MerchantConfig;
  /** From the opened hand-off token, never from a form. */
  readonly checkoutId: string;
}

export type VerificationAnswer =
  | { readonly ok: true; readonly view: VerificationView }
  | {
      readonly ok: false;
      /** `pending`: the processor's step is not finished; nothing was recorded. */
      readonly reason: "not_found" | "conflict" | "unavailable" | "not_answerable" | "pending";
    };

/** The session's status and its verification, as the challenge page shows them. */
export async function paymentVerification(session: BuyerSession): Promise<VerificationAnswer> {
  if (!(await isIssuedId("chk", session.config.idSecret, session.checkoutId)))
    return { ok: false, reason: "not_found" };
  return answer(() => stub(session).verification(buyer(session.config)));
}

/**
 * The buyer passes or fails the challenge. `key` comes from the page's form, so a resubmitted
 * form replays the first answer (and another answer under it is a conflict).
 */
export async function answerVerification(
  session: BuyerSession,
  passed: boolean,
  key: string,
): Promise<VerificationAnswer> {
  const current = await paymentVerification(session);
  if (!current.ok) return current;
  // Whether it is still pending is the object's call: a resubmitted form must replay.
  if (!testChallenge(session.config, current.view)) return { ok: false, reason: "not_answerable" };
  const idempotency = await ledgerEntry("verify_payment", key, session.checkoutId, { passed }, session.config.idSecret);
  return answer(() => stub(session).verify({ caller: buyer(session.config), idempotency, passed }));
}

/**
 * After the processor's own step on this page (Stripe.js ran the bank's 3-D Secure): the
 * processor, never the page's form, says whether it passed. `key` comes from the page's form,
 * as for answerVerification.
 */
export async function answerFromProcessor(session: BuyerSession, key: string): Promise<VerificationAnswer> {
  const current = await paymentVerification(session);
  if (!current.ok) return current;
  const reference = current.view.processorReference;
  const settings = processorVerifies(session.config, current.view) ? session.config.stripe : undefined;
  if (!settings || !reference) return { ok: false, reason: "not_answerable" };
  const result = await verificationResult(settings, reference, session.checkoutId);
  if (result === undefined) return { ok: false, reason: "unavailable" };
  if (result === "pending") return { ok: false, reason: "pending" };
  const passed = result === "passed";
  const idempotency = await ledgerEntry("verify_payment", key, session.checkoutId, { passed }, session.config.idSecret);
  return answer(() => stub(session).verify({ caller: buyer(session.config), idempotency, passed }));
}

/** Whether this page may take the buyer's answer: a pending test-handler challenge, in test mode. */
export function buyerAnswers(config: Pick<MerchantConfig, "paymentTestMode">, view: VerificationView): boolean {
  return testChallenge(config, view) && awaitsBuyer(view);
}

/** Whether the processor runs the buyer's step on this page (Stripe.js), and it waits for the buyer. */
export function processorVerifies(
  config: Pick<MerchantConfig, "paymentTestMode" | "stripe">,
  view: VerificationView,
): boolean {
  const stripe = !config.paymentTestMode && config.stripe?.publishableKey !== undefined;
  return stripe && view.processorReference?.startsWith("pi_") === true && awaitsBuyer(view);
}

function awaitsBuyer(view: VerificationView): boolean {
  // A payment_authentication Action waits with the completion accepted; an escalation, escalated.
  const waiting = view.verification?.action ? "complete_in_progress" : "requires_escalation";
  return view.checkout.status === waiting && view.verification?.status === "pending";
}

function testChallenge(config: Pick<MerchantConfig, "paymentTestMode">, view: VerificationView): boolean {
  return config.paymentTestMode && view.verification?.instrument.handler_id === TEST_HANDLER_ID;
}

/**
 * The instrument the buyer's page completes with after the buyer passed a payment they
 * started there, or one asked as a payment_authentication Action (the store, not the
 * platform, then finishes the completion it accepted): the saved display data and the
 * processor's retry credential (the page keeps none). Undefined when the platform retries
 * (an escalation it started) or there is none.
 */
export function retryInstrument(
  config: Pick<MerchantConfig, "paymentTestMode">,
  view: VerificationView,
): PaymentInstrument | undefined {
  const verification = view.verification;
  if (verification?.status !== "passed") return undefined;
  const waiting = verification.action
    ? "complete_in_progress"
    : verification.startedBy === "buyer" && "ready_for_complete";
  if (view.checkout.status !== waiting) return undefined;
  const { instrument } = verification;
  const credential = processorFor(config)?.retryCredential?.(instrument.handler_id);
  return credential ? { ...instrument, selected: true, credential } : undefined;
}

/** The buyer's page: the storefront's own profile, admitted by the hand-off (shared/owner.ts). */
function buyer(config: Pick<MerchantConfig, "origin">): Caller {
  return { profile: `${config.origin}/`, authenticated: false, handoff: true };
}

function stub(session: BuyerSession) {
  return session.env.CHECKOUT.getByName(session.checkoutId) as DurableObjectStub<CheckoutObject>;
}

async function answer(call: () => Promise<ObjectReply>): Promise<VerificationAnswer> {
  try {
    // Retried like the tools' calls: a brief object failure is waited out, not a failed page.
    const reply = await callObject(call);
    if (reply.kind === "ok") return { ok: true, view: JSON.parse(reply.body) as VerificationView };
    // A session never answers not_owner or taken here (the page acts for its owner, and creates nothing).
    return { ok: false, reason: reply.kind === "not_found" || reply.kind === "not_owner" ? "not_found" : "conflict" };
  } catch (e) {
    // Storage or the object unavailable: the page asks the buyer to try again.
    console.error("durable object call failed", e instanceof Error ? e.message : e);
    return { ok: false, reason: "unavailable" };
  }
}
