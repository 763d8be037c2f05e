/**
 * A verified Stripe event (src/payment-webhooks/stripe-webhook.ts checks the signature) read
 * into what the store does with it: a payment's outcome for its checkout, refunds and
 * disputes for its order, or nothing. Pure: only the fields the store uses are read, each
 * checked, so an API version that adds fields changes nothing and one that drops a field we
 * need is ignored with a reason, never a crash.
 *
 * Where the object is: PaymentIntents carry `metadata.ucp_checkout_id` (the completion sets
 * it), the store's refunds `metadata.ucp_order_id`; a refund made in the dashboard or a
 * dispute names only its PaymentIntent, which the webhook looks up.
 */
import * as z from "zod";
import type { ProcessorChange, ProcessorDispute, ProcessorRefund } from "../order/processor-events";

/** Where the event's object belongs, as far as the event itself says. */
export interface EventTarget {
  readonly orderId?: string;
  readonly checkoutId?: string;
  /** The PaymentIntent (the order's charge id): looked up when no metadata names the object. */
  readonly paymentIntentId?: string;
}

export type StripeEventPlan =
  /** Refunds and disputes: facts for the order. */
  | {
      readonly kind: "order";
      readonly target: EventTarget;
      readonly changes: readonly ProcessorChange[];
      /** charge.refunded without its refunds (current API versions): list this charge's refunds. */
      readonly refundsOfCharge?: string;
    }
  /** A payment finished after the buyer's action (3-D Secure): the checkout's verification. */
  | { readonly kind: "payment"; readonly target: EventTarget; readonly passed: boolean }
  | { readonly kind: "ignored"; readonly reason: string };

export interface StripeEventFacts {
  readonly id: string;
  readonly type: string;
  /** ms */
  readonly created: number;
  readonly plan: StripeEventPlan;
}

const Id = z.string().min(1).max(255);
const Metadata = z.record(z.string(), z.string()).nullish();
/** An expandable field: the id, or the object when the endpoint expanded it. */
const Ref = z.union([Id, z.object({ id: Id })]).nullish();
const refId = (ref: z.infer<typeof Ref>): string | undefined => (typeof ref === "string" ? ref : ref?.id);

const EventSchema = z.object({
  id: Id,
  type: z.string().min(1).max(200),
  created: z.number().int().nonnegative(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

const PaymentIntentSchema = z.object({ id: Id, metadata: Metadata, status: z.string().optional() });

const RefundSchema = z.object({
  id: Id,
  object: z.literal("refund"),
  amount: z.number().int().nonnegative(),
  currency: z.string().min(3).max(3),
  status: z.string().nullish(),
  reason: z.string().nullish(),
  metadata: Metadata,
  payment_intent: Ref,
  charge: Ref,
});

const ChargeSchema = z.object({
  id: Id,
  metadata: Metadata,
  payment_intent: Ref,
  // Older API versions embed the charge's refunds; newer ones leave them to refund.* events.
  refunds: z.object({ data: z.array(z.unknown()) }).nullish(),
});

const DisputeSchema = z.object({
  id: Id,
  amount: z.number().int().nonnegative(),
  currency: z.string().min(3).max(3),
  status: z.string().min(1).max(100),
  reason: z.string().max(100).nullish(),
  payment_intent: Ref,
  charge: Ref,
  evidence_details: z.object({ due_by: z.number().int().nullish() }).nullish(),
});

/**
 * The metadata keys the store writes on Stripe objects (src/payment/stripe-processor.ts):
 * PaymentIntents `ucp_checkout_id` and `ucp_attempt`; its refunds `ucp_order_id` and
 * `ucp_refund` (the refund's key, `<order id>:<adjustment id>:refund`), a void's refund `ucp_attempt`.
 */
export const METADATA = {
  checkout: "ucp_checkout_id",
  order: "ucp_order_id",
  refund: "ucp_refund",
  attempt: "ucp_attempt",
} as const;

/**
 * The adjustment a store refund's key names: `<order id>:<adjustment>:refund` (the order's
 * effect id scoped by the order), or the bare effect id refunds made before that carry.
 */
const STORE_REFUND_KEY = /^(?:ord_[A-Za-z0-9_-]{1,100}:)?(adj_\d{1,6}):refund$/;

/** The event's id, type and time and what the store does with it; undefined for a body that is not an event. */
export function readStripeEvent(event: unknown): StripeEventFacts | undefined {
  const parsed = EventSchema.safeParse(event);
  if (!parsed.success) return undefined;
  const { id, type, created, data } = parsed.data;
  return { id, type, created: created * 1000, plan: planFor(type, data.object) };
}

function planFor(type: string, object: Record<string, unknown>): StripeEventPlan {
  switch (type) {
    case "payment_intent.succeeded":
    case "payment_intent.amount_capturable_updated":
    case "payment_intent.payment_failed":
      return paymentPlan(object, type !== "payment_intent.payment_failed");
    case "refund.created":
    case "refund.updated":
    case "refund.failed":
    case "charge.refund.updated":
      return refundPlan(object);
    case "charge.refunded":
      return chargeRefundedPlan(object);
    case "charge.dispute.created":
    case "charge.dispute.updated":
    case "charge.dispute.closed":
    case "charge.dispute.funds_withdrawn":
    case "charge.dispute.funds_reinstated":
      return disputePlan(object);
    default:
      return { kind: "ignored", reason: "not an event the store handles" };
  }
}

function paymentPlan(object: Record<string, unknown>, passed: boolean): StripeEventPlan {
  const intent = PaymentIntentSchema.safeParse(object);
  if (!intent.success) return { kind: "ignored", reason: "not a PaymentIntent" };
  const checkoutId = intent.data.metadata?.[METADATA.checkout];
  return {
    kind: "payment",
    target: { paymentIntentId: intent.data.id, ...(checkoutId ? { checkoutId } : {}) },
    passed,
  };
}

function refundFact(object: unknown): { refund: ProcessorRefund; target: EventTarget } | undefined {
  const parsed = RefundSchema.safeParse(object);
  if (!parsed.success) return undefined;
  const r = parsed.data;
  const metadata = r.metadata ?? {};
  const orderId = metadata[METADATA.order];
  const paymentIntentId = refId(r.payment_intent);
  const storeAdjustmentId = STORE_REFUND_KEY.exec(metadata[METADATA.refund] ?? "")?.[1];
  return {
    refund: {
      id: r.id,
      amount: r.amount,
      currency: r.currency.toUpperCase(),
      status: r.status ?? "pending",
      ...(r.reason ? { reason: r.reason } : {}),
      // The store tags every refund it makes; a refund made in the dashboard has none of these.
      byStore: [METADATA.order, METADATA.refund, METADATA.attempt].some((key) => metadata[key] !== undefined),
      ...(storeAdjustmentId ? { storeAdjustmentId } : {}),
    },
    target: { ...(orderId ? { orderId } : {}), ...(paymentIntentId ? { paymentIntentId } : {}) },
  };
}

/** A refund object (an event's, or one listed from the API) as the order's change, and where it points. */
export function refundChange(object: unknown): { change: ProcessorChange; target: EventTarget } | undefined {
  const fact = refundFact(object);
  return fact ? { change: { kind: "refund", refund: fact.refund }, target: fact.target } : undefined;
}

function refundPlan(object: Record<string, unknown>): StripeEventPlan {
  const fact = refundFact(object);
  if (!fact) return { kind: "ignored", reason: "not a refund" };
  return { kind: "order", target: fact.target, changes: [{ kind: "refund", refund: fact.refund }] };
}

function chargeRefundedPlan(object: Record<string, unknown>): StripeEventPlan {
  const charge = ChargeSchema.safeParse(object);
  if (!charge.success) return { kind: "ignored", reason: "not a charge" };
  const refunds = (charge.data.refunds?.data ?? []).map(refundFact).filter((f) => f !== undefined);
  const paymentIntentId = refId(charge.data.payment_intent);
  const checkoutId = charge.data.metadata?.[METADATA.checkout];
  const orderId = refunds.find((f) => f.target.orderId)?.target.orderId;
  return {
    kind: "order",
    target: {
      ...(orderId ? { orderId } : {}),
      ...(checkoutId ? { checkoutId } : {}),
      ...(paymentIntentId ? { paymentIntentId } : {}),
    },
    changes: refunds.map((f) => ({ kind: "refund" as const, refund: f.refund })),
    // Current API versions send the charge without its refunds: the webhook lists them.
    ...(refunds.length === 0 ? { refundsOfCharge: charge.data.id } : {}),
  };
}

function disputePlan(object: Record<string, unknown>): StripeEventPlan {
  const parsed = DisputeSchema.safeParse(object);
  if (!parsed.success) return { kind: "ignored", reason: "not a dispute" };
  const d = parsed.data;
  const dueBy = d.evidence_details?.due_by;
  const dispute: ProcessorDispute = {
    id: d.id,
    amount: d.amount,
    currency: d.currency.toUpperCase(),
    status: d.status,
    reason: d.reason ?? "general",
    ...(dueBy ? { evidenceDueBy: dueBy * 1000 } : {}),
  };
  const paymentIntentId = refId(d.payment_intent);
  return { kind: "order", target: paymentIntentId ? { paymentIntentId } : {}, changes: [{ kind: "dispute", dispute }] };
}
