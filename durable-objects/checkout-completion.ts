/**
 * The CheckoutObject's completion attempts (DESIGN.md "One owner per multi-step flow"): the
 * object marks an attempt in a transaction (startAttempt), this drives its steps OUTSIDE any
 * transaction, recording each step as it is done, and the object records the outcome in a
 * transaction (settle). An attempt nobody finished is taken over by the object's alarm at its
 * recovery deadline: finished when the money was captured, otherwise undone.
 */
import type { PaymentInstrument } from "../schemas/ucp/checkout";
import { stockPort } from "../src/catalog/stock-shards";
import type { CheckoutState } from "../src/checkout/checkout-state";
import { type CompletionOutcome, type CompletionPlan, settleCompletion } from "../src/checkout/completion";
import {
  type AttemptPorts,
  type CompletionAttempt,
  compensate,
  driveAttempt,
  RECOVERY_AFTER_MS,
} from "../src/checkout/completion-steps";
import { merchantConfig } from "../src/config";
import { callObject } from "../src/lib/object-call";
import { ORDER_NUMBERS_NAME } from "../src/order/order-number";
import type { Authentication } from "../src/payment/processor";
import { processorFor } from "../src/payment/store-processor";
import type { OrderBook } from "./order/order-book";
import type { OrderObject } from "./order-object";
import {
  endAttempt,
  loadAttempt,
  noteProgress,
  type ParsedAttempt,
  postponeAttempt,
  startAttempt,
} from "./shared/completion-attempt";
import type { ObjectStore } from "./shared/kernel";

/** A recovery that failed (an object or the processor unavailable) is tried again this much later. */
export const RECOVERY_RETRY_MS = 60_000;

export interface AttemptSource {
  readonly owner: string;
  readonly webhookUrl?: string;
  /** The protocol version the webhooks speak: the version of the profile that gave `webhookUrl`. */
  readonly webhookVersion?: string;
  /** The platform negotiated payment_authentication at this version (completion-steps.ts). */
  readonly paymentActions?: { readonly version: string };
}

/** What the object adds when it starts an attempt: the buyer's passed verification, who paid. */
export interface AttemptStart extends AttemptSource {
  readonly authentication: Authentication | undefined;
  readonly startedBy: "buyer" | "platform";
}

export class CompletionAttempts {
  /** The steps this instance is running now. In memory on purpose: a dead instance runs nothing. */
  #running: Promise<CompletionOutcome> | undefined;
  /** The attempt text last parsed (shared/completion-attempt.ts loadAttempt). */
  readonly #parsed: ParsedAttempt = {};

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Env,
    /** The checkout's store: progress and postponements are its transactions. */
    private readonly store: ObjectStore,
    /** The order this session places, kept in this same object (order/order-book.ts). */
    private readonly orders: Pick<OrderBook, "create">,
  ) {}

  /** Waits until no attempt runs in this instance (a concurrent request, the alarm). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running.catch(() => undefined);
  }

  current(): CompletionAttempt | undefined {
    return loadAttempt(this.ctx.storage.sql, this.#parsed);
  }

  /** Inside the object's transaction that marks the session complete_in_progress. */
  start(running: CheckoutState, plan: CompletionPlan, source: AttemptStart, now: number): CompletionAttempt {
    const attempt: CompletionAttempt = {
      // The checkout's id first: the inventory's reservations name the checkout they belong to.
      id: `${running.id}:${crypto.randomUUID()}`,
      checkout: running,
      amount: plan.amount,
      currency: plan.currency,
      handlerId: plan.instrument.handler_id,
      instrumentPath: plan.instrumentPath,
      lines: plan.lines,
      owner: source.owner,
      ...(source.webhookUrl ? { webhookUrl: source.webhookUrl } : {}),
      ...(source.webhookUrl && source.webhookVersion ? { webhookVersion: source.webhookVersion } : {}),
      ...(source.authentication ? { authentication: source.authentication } : {}),
      startedBy: source.startedBy,
      ...(source.paymentActions ? { paymentActions: source.paymentActions } : {}),
      orderHome: "checkout",
      startedAt: now,
      deadline: now + RECOVERY_AFTER_MS,
      progress: {},
    };
    const { progress: _progress, deadline: _deadline, ...stored } = attempt;
    Object.assign(this.#parsed, { text: startAttempt(this.ctx.storage.sql, attempt), attempt: stored });
    return attempt;
  }

  /** Runs what the attempt has not done yet (a request brings the instrument to charge). */
  drive(attempt: CompletionAttempt, instrument: PaymentInstrument): Promise<CompletionOutcome> {
    return this.#run(driveAttempt(attempt, instrument, this.#ports(attempt), Date.now()));
  }

  /**
   * The alarm's part: an attempt past its deadline is finished when its charge was captured
   * (only the order is left to place) and undone otherwise (void the charge key, free the
   * stock). Returns the outcome to settle, or undefined when nothing was due or it failed
   * (then the deadline moves RECOVERY_RETRY_MS on: never into the past).
   */
  async recover(now: number): Promise<{ attempt: CompletionAttempt; outcome: CompletionOutcome } | undefined> {
    const attempt = this.current();
    if (!attempt || now < attempt.deadline) return undefined;
    try {
      const ports = this.#ports(attempt);
      const outcome = await this.#run(
        attempt.progress.chargeId ? driveAttempt(attempt, undefined, ports, now) : compensate(attempt, ports),
      );
      return { attempt, outcome };
    } catch (e) {
      console.error(`completion ${attempt.id}: recovery failed, retried later: ${e instanceof Error ? e.message : e}`);
      this.store.transaction((sql) => postponeAttempt(sql, Date.now() + RECOVERY_RETRY_MS));
      return undefined;
    }
  }

  /**
   * Inside the object's transaction that records the outcome: the session after the attempt,
   * or undefined when that attempt was already settled (a concurrent request, the alarm).
   * `attempt`: the open attempt, as the transaction read it (current()).
   */
  settle(
    checkout: CheckoutState,
    attempt: CompletionAttempt | undefined,
    attemptId: string,
    outcome: CompletionOutcome,
  ): CheckoutState | undefined {
    if (attempt?.id !== attemptId) return undefined;
    endAttempt(this.ctx.storage.sql);
    return settleCompletion(checkout, outcome, attempt.paymentActions !== undefined);
  }

  async #run(steps: Promise<CompletionOutcome>): Promise<CompletionOutcome> {
    this.#running = steps;
    try {
      return await steps;
    } finally {
      if (this.#running === steps) this.#running = undefined;
    }
  }

  #ports(attempt: CompletionAttempt): AttemptPorts {
    const attemptId = attempt.id;
    const config = merchantConfig(this.env);
    // The one processor choice (store-processor.ts); the tool refused already when there is none.
    const processor = processorFor(config);
    if (!processor) throw new Error("no payment processor is configured (PAYMENT_TEST_MODE off)");
    const sql = this.ctx.storage.sql;
    return {
      env: this.env,
      config,
      processor,
      // Stock is per variant: the attempt's lines name the shards it reserves and releases on.
      inventory: stockPort(
        this.env,
        attempt.lines.map((l) => l.variantId),
      ),
      // An attempt a build before issue 29 started places its order where that build would have.
      // Here: a plain call (nothing to retry); an object of its own: a call to retry (callObject).
      order:
        attempt.orderHome === "checkout"
          ? () => ({ create: (order) => this.orders.create(order, attempt.deadline) })
          : (orderId) => ({
              create: (order) =>
                callObject(() => (this.env.ORDER.getByName(orderId) as DurableObjectStub<OrderObject>).create(order)),
            }),
      numbers: {
        allocate: (orderId) =>
          this.env.ORDER_INDEX.getByName(ORDER_NUMBERS_NAME).allocateNumber(orderId, config.orderNumberStart),
      },
      note: (progress) => this.store.transaction(() => noteProgress(sql, attemptId, progress)),
    };
  }
}
