/**
 * The stand-in's in-memory account: PaymentIntents, charges, refunds, PaymentMethods, events
 * and the idempotency ledger. One instance per stand-in; `reset()` empties it between tests.
 */
import type { Card, Outcome } from "./test-cards.ts";

export type PaymentIntentStatus =
  | "requires_payment_method"
  | "requires_confirmation"
  | "requires_action"
  | "processing"
  | "requires_capture"
  | "succeeded"
  | "canceled";

export interface PaymentIntentRecord {
  readonly id: string;
  readonly created: number;
  readonly clientSecret: string;
  amount: number;
  currency: string;
  status: PaymentIntentStatus;
  captureMethod: "automatic" | "automatic_async" | "manual";
  confirmationMethod: "automatic" | "manual";
  metadata: Record<string, string>;
  description: string | null;
  receiptEmail: string | null;
  customer: string | null;
  statementDescriptor: string | null;
  statementDescriptorSuffix: string | null;
  paymentMethodTypes: string[];
  automaticPaymentMethods: { enabled: boolean; allow_redirects?: string } | null;
  paymentMethod: string | null;
  amountCapturable: number;
  amountReceived: number;
  canceledAt: number | null;
  cancellationReason: string | null;
  latestCharge: string | null;
  lastPaymentError: Record<string, unknown> | null;
  nextAction: Record<string, unknown> | null;
  returnUrl: string | null;
  /** The buyer passed the 3-D Secure step the current next_action asks for (/__stand-in/authenticate). */
  authenticated: boolean;
  /** Every Idempotency-Key whose request created or changed this PaymentIntent (inspection only). */
  readonly idempotencyKeys: string[];
}

export interface PaymentMethodRecord {
  readonly id: string;
  readonly created: number;
  readonly card: Card;
  readonly outcome: Outcome;
  /** Where it came from (a `tok_…`, a `pm_card_…` alias, an `spt_…`), for inspection. */
  readonly source: string;
}

export interface ChargeRecord {
  readonly id: string;
  readonly created: number;
  readonly paymentIntent: string;
  readonly paymentMethod: string;
  amount: number;
  amountCaptured: number;
  amountRefunded: number;
  captured: boolean;
  status: "succeeded" | "failed";
  failureCode: string | null;
  failureMessage: string | null;
  disputed: boolean;
}

export interface RefundRecord {
  readonly id: string;
  readonly created: number;
  readonly amount: number;
  readonly currency: string;
  readonly charge: string;
  readonly paymentIntent: string;
  readonly metadata: Record<string, string>;
  readonly reason: string | null;
  readonly status: "succeeded" | "canceled";
  /** The Idempotency-Key of the request that made it, or null for a dashboard refund (/__stand-in/deliver). */
  readonly idempotencyKey: string | null;
}

export interface DisputeRecord {
  readonly id: string;
  readonly created: number;
  readonly charge: string;
  readonly paymentIntent: string;
  readonly amount: number;
  readonly currency: string;
  readonly reason: string;
  status: string;
}

/** What Stripe stored for a key: the endpoint, the params, and the answer to replay. */
export interface IdempotentResult {
  readonly endpoint: string;
  readonly params: string;
  readonly status: number;
  readonly body: string;
  readonly requestId: string;
  readonly created: number;
}

export class StandInState {
  readonly paymentIntents = new Map<string, PaymentIntentRecord>();
  readonly paymentMethods = new Map<string, PaymentMethodRecord>();
  readonly charges = new Map<string, ChargeRecord>();
  readonly refunds = new Map<string, RefundRecord>();
  readonly disputes = new Map<string, DisputeRecord>();
  readonly events = new Map<string, Record<string, unknown>>();
  /** Keyed by the Idempotency-Key alone: Stripe scopes keys per account, not per endpoint. */
  readonly idempotency = new Map<string, IdempotentResult>();

  reset(): void {
    for (const map of [
      this.paymentIntents,
      this.paymentMethods,
      this.charges,
      this.refunds,
      this.disputes,
      this.events,
      this.idempotency,
    ])
      map.clear();
  }
}
