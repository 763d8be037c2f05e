/**
 * One checkout session: state, expiry alarm and idempotency ledger (SQLite). Create,
 * update and cancel are one transaction each. The object owns its completion: it marks the
 * attempt (transaction), runs reserve, charge and order outside any transaction, each keyed
 * by the attempt id it stored (checkout-completion.ts), and records the outcome
 * (transaction); its alarm resumes or undoes an abandoned attempt. A charge that asks the
 * buyer to verify (3-D Secure) leaves a payment verification the buyer answers on the
 * challenge page (checkout-verification.ts). Replies are values; nothing is thrown for a
 * domain outcome. The order a completion places lives here too (order/order-book.ts, its
 * methods `order*` below): one new object per purchase, not two (issue 29).
 */
import { DurableObject } from "cloudflare:workers";
import type { CheckoutComplete, PaymentInstrument } from "../schemas/ucp/checkout";
import type { Message } from "../schemas/ucp/common";
import {
  type CheckoutEnvelope,
  type CheckoutState,
  checkoutPayload,
  isExpired,
  TERMINAL,
} from "../src/checkout/checkout-state";
import { type CompletionOutcome, type InstrumentCardinality, planCompletion } from "../src/checkout/completion";
import type { CompletionAttempt } from "../src/checkout/completion-steps";
import { type CheckoutBase, type CheckoutInput, computeCheckout, saveInstrument } from "../src/checkout/compute";
import { commerceConfig } from "../src/checkout/merchant-commerce";
import { awaitsBuyer, challengeActions, decideVerification } from "../src/checkout/payment-verification";
import type { AdjustmentInput, FulfillmentEventInput } from "../src/order/order-input";
import type { ProcessorEventInput } from "../src/order/processor-events";
import { embeddingFor } from "../src/ucp/embedded";
import { clearSession } from "./checkout/clear-session";
import { closedFor, EXPIRED, IN_PROGRESS } from "./checkout/messages";
import { type AttemptSource, CompletionAttempts, RECOVERY_RETRY_MS } from "./checkout-completion";
import {
  attemptStart,
  loadVerification,
  noteOwnerWebhook,
  noteVerification,
  saveVerification,
  VERIFICATION_SCHEMA,
  verificationView,
} from "./checkout-verification";
import { ORDER_TABLES, OrderBook, type OrderChange } from "./order/order-book";
import { ATTEMPT_SCHEMA } from "./shared/completion-attempt";
import { type IdempotencyInput, LEDGER_SCHEMA, ledgerDeadline, pruneLedger } from "./shared/idempotency";
import { type MutationOptions, ObjectStore, tables } from "./shared/kernel";
import { type ObjectReply, okReply } from "./shared/object-reply";
import { type Caller, OWNER_SCHEMA, recordedOwner } from "./shared/owner";

/**
 * The session's stored layout, step by step (shared/kernel.ts). Sessions stored before the
 * version row have some of these (the completion attempt, the owner, the verification came
 * later): step 1 makes what is missing, all in one statement (a table made later would make
 * SQLite prepare every statement again). The completion records its answer in the ledger
 * itself, after its steps ran outside the change's transaction.
 */
const MIGRATIONS = [
  tables(1, "the session, its meta, owner, completion attempt, payment verification and ledger", [
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS checkout (id TEXT PRIMARY KEY, state TEXT NOT NULL)",
    LEDGER_SCHEMA,
    OWNER_SCHEMA,
    ATTEMPT_SCHEMA,
    VERIFICATION_SCHEMA,
  ]),
  tables(2, "the order the session places (order/order-book.ts)", ORDER_TABLES),
];
/** The states update may change; complete_in_progress is frozen, the rest are closed. */
const EDITABLE = new Set<CheckoutState["status"]>(["incomplete", "ready_for_complete", "requires_escalation"]);
/** Completed and canceled sessions stay readable this long, then the object clears itself. */
export const CLOSED_RETENTION_MS = 30 * 24 * 3600_000;

export interface CheckoutView {
  readonly envelope: CheckoutEnvelope;
  readonly continueUrl: string;
  /** Who asks: anyone but the session's owner is answered not_found (shared/owner.ts). */
  readonly caller: Caller;
}

export interface CheckoutWrite extends CheckoutView {
  readonly input: CheckoutInput;
  readonly idempotency: IdempotencyInput | undefined;
}

/** create_checkout: the session, and where the owner platform wants its order webhooks. */
export interface CheckoutCreate extends CheckoutWrite {
  readonly base: CheckoutBase;
  readonly ownerWebhookUrl?: string;
  readonly ownerWebhookVersion?: string;
}

/** The buyer's answer to the payment verification (the challenge page, through src/tools/). */
export interface VerificationCommand {
  readonly caller: Caller;
  readonly idempotency: IdempotencyInput;
  readonly passed: boolean;
}

/** complete_checkout as the tool sends it: the request, what the store offers, who places it. */
export interface CompletionCommand extends CheckoutView, AttemptSource {
  readonly idempotency: IdempotencyInput;
  readonly request: CheckoutComplete;
  readonly handlerIds: string[];
  /** How many instruments the submission may carry (the wire's rule; completion.ts). */
  readonly instrumentCardinality?: InstrumentCardinality;
}

export class CheckoutObject extends DurableObject<Env> {
  readonly #store = new ObjectStore(this.ctx.storage, MIGRATIONS);
  readonly #book: OrderBook = new OrderBook({
    ctx: this.ctx,
    env: this.env,
    store: this.#store,
    // While an attempt is open the order is being placed by it: its settle arms for both, and
    // until then the attempt's recovery deadline stands in for the order's safety net.
    arm: async () => {
      if (!this.#completion.current()) await this.#arm();
    },
  });
  readonly #completion = new CompletionAttempts(this.ctx, this.env, this.#store, this.#book);
  /** The alarm time this instance last set, so an unchanged deadline is not set again. */
  #armed: number | undefined;
  /**
   * The session as last read or written, with the stored text it came from. A request reads
   * the row several times (the change, its answer, the alarm's deadline): the text is still
   * read every time, so a rolled-back write is never served, and only an unchanged text
   * skips the parse. States are never mutated in place (src/checkout builds new ones).
   */
  #parsed: { text: string; state: CheckoutState } | undefined;

  async create(command: CheckoutCreate): Promise<ObjectReply> {
    const { caller, ownerWebhookUrl: url, ownerWebhookVersion: version } = command;
    // Learnt before the claim (no extra statement: the kernel reads the layout once anyway).
    const written = this.#store.exists();
    return this.#change(
      command,
      (now) => {
        const existing = this.#load(now);
        // A session past its retention left the order it placed here: its id cannot start
        // another, whose completion would take a payment for that order (review R29). `taken`
        // sends the create to the caller's other id space (checkout.tools.ts).
        if (!existing && written && this.#book.placed()) return { kind: "taken" };
        // A new session notes where its owner wants order webhooks (its claim made the caller the owner).
        if (!existing && !caller.handoff) noteOwnerWebhook(this.ctx.storage.sql, url, version);
        const config = commerceConfig(this.env);
        const checkout = existing ?? computeCheckout(undefined, command.base, command.input, config, now);
        this.#save(checkout);
        return okReply(this.#shown(checkout, command));
      },
      { creates: true },
    );
  }

  /** The session's status, or null when there is none (writes nothing). */
  async status(): Promise<CheckoutState["status"] | null> {
    return this.#store.read(null, () => this.#load(Date.now())?.status ?? null);
  }

  async read(view: CheckoutView): Promise<ObjectReply> {
    return this.#store.readFor(view.caller, () => this.#open(Date.now(), (c) => okReply(this.#shown(c, view))));
  }

  /** The challenge page's view of the session and its payment verification. Writes nothing. */
  async verification(caller: Caller): Promise<ObjectReply> {
    return this.#store.readFor(caller, (sql) => this.#open(Date.now(), (c) => okReply(verificationView(sql, c))));
  }

  /**
   * The buyer passes or fails the challenge (once: a later answer changes nothing). Passed:
   * ready_for_complete for the platform's retry; failed: open with payment_failed. No money
   * moves either way. Answers the challenge page's view.
   */
  async verify(command: VerificationCommand): Promise<ObjectReply> {
    const sql = this.ctx.storage.sql;
    return this.#change(command, (now) =>
      this.#open(now, (checkout) => {
        const decided = decideVerification(checkout, loadVerification(sql), command.passed, now);
        if (decided) {
          this.#save(decided.checkout);
          saveVerification(sql, decided.verification);
        }
        return okReply(verificationView(sql, decided?.checkout ?? checkout));
      }),
    );
  }

  /** Full replacement of what the platform may write; closed sessions change nothing. */
  async update(command: CheckoutWrite): Promise<ObjectReply> {
    return this.#change(command, (now) =>
      this.#open(now, (checkout) => {
        if (checkout.status === "complete_in_progress") return this.#refuse(checkout, command, IN_PROGRESS);
        if (!EDITABLE.has(checkout.status))
          return this.#refuse(checkout, command, closedFor(checkout.status, "update"));
        const next = computeCheckout(checkout, checkout, command.input, commerceConfig(this.env), now);
        this.#save(next);
        return okReply(this.#shown(next, command));
      }),
    );
  }

  async cancel(command: CheckoutView & { idempotency: IdempotencyInput }): Promise<ObjectReply> {
    return this.#change(command, (now) =>
      this.#open(now, (checkout) => {
        if (TERMINAL.has(checkout.status) || checkout.status === "complete_in_progress") {
          return this.#refuse(checkout, command, closedFor(checkout.status, "cancel"));
        }
        const canceled: CheckoutState = { ...checkout, status: "canceled", messages: [] };
        this.#save(canceled);
        return okReply(this.#shown(canceled, command));
      }),
    );
  }

  /**
   * complete_checkout, owned here: mark the attempt (transaction), run its steps outside any
   * transaction, record the outcome (transaction). A retry under any key while an attempt is
   * open resumes that attempt: same reservation, same charge key, same order.
   */
  async complete(command: CompletionCommand): Promise<ObjectReply> {
    if (!this.#store.exists()) return { kind: "not_found" };
    // A concurrent completion in this instance finishes first; this one then sees its result.
    await this.#completion.idle();
    const now = Date.now();
    type Start = { kind: "start"; attempt: CompletionAttempt; instrument: PaymentInstrument };
    const options = { now, caller: command.caller, idempotency: command.idempotency };
    const start = this.#store.mutate<ObjectReply | Start>(options, (sql) =>
      this.#open(now, (checkout): ObjectReply | Start => {
        const plan = planCompletion(checkout, command.request, command.handlerIds, command.instrumentCardinality);
        if (!plan.ok) return okReply(this.#payload(checkout, command, plan.error));
        const { instrument } = plan.value;
        const open = this.#completion.current();
        if (open) return { kind: "start", attempt: open, instrument };
        const instruments = command.request.payment.instruments.map(saveInstrument);
        const running: CheckoutState = { ...checkout, status: "complete_in_progress", payment: { instruments } };
        this.#save(running);
        const source = attemptStart(sql, command, plan.value);
        return { kind: "start", attempt: this.#completion.start(running, plan.value, source, now), instrument };
      }),
    );
    if (start.kind !== "start") return start;
    await this.#arm(); // the recovery deadline, before anything leaves this object
    // Steps are keyed by the attempt id: even two drivers of one attempt reserve and charge once.
    const outcome = await this.#completion.drive(start.attempt, start.instrument);
    return this.#settle(start.attempt.id, outcome, command);
  }

  /** Records an attempt's outcome (once: a second settle of one attempt changes nothing). */
  async #settle(attemptId: string, outcome: CompletionOutcome, command?: CompletionCommand): Promise<ObjectReply> {
    const now = Date.now();
    const reply = this.#store.transaction((sql): ObjectReply => {
      const checkout = this.#stored();
      if (!checkout) return { kind: "not_found" };
      const attempt = this.#completion.current();
      const settled = this.#completion.settle(checkout, attempt, attemptId, outcome);
      if (settled && attempt) {
        this.#save(settled);
        noteVerification(sql, attempt, outcome, now);
      }
      if (!command) return { kind: "ok", body: "" };
      // Recorded after the steps ran, outside the change's transaction: the kernel's mutate cannot.
      const answer = okReply(this.#shown(this.#asOf(settled ?? checkout, now), command));
      this.#store.recordAnswer(command.idempotency, answer.body, now);
      return answer;
    });
    await this.#arm();
    return reply;
  }

  // The order this session placed, for the Worker (src/tools/order-stub.ts): as OrderObject's methods.

  async orderRead(owner: string, envelope: unknown, handoff = false) {
    return this.#book.read(owner, envelope, handoff);
  }

  async orderConfirmationEmail() {
    return this.#book.confirmationEmail();
  }

  async orderIndexState() {
    return this.#book.indexState();
  }

  async orderRecordEvent(change: OrderChange<FulfillmentEventInput>) {
    return this.#book.recordEvent(change);
  }

  async orderRecordAdjustment(change: OrderChange<AdjustmentInput>) {
    return this.#book.recordAdjustment(change);
  }

  async orderRecordProcessorEvent(change: OrderChange<ProcessorEventInput>) {
    return this.#book.recordProcessorEvent(change);
  }

  async orderWebhooks() {
    return this.#book.webhooks();
  }

  async orderMerchantView(envelope: unknown) {
    return this.#book.merchantView(envelope);
  }

  async orderRetryWebhooks() {
    return this.#book.retryWebhooks();
  }

  async orderOutbox() {
    return this.#book.outbox();
  }

  /**
   * Recovers an abandoned completion at its deadline, cancels an expired open session (after
   * a recovery, in the same run: a stranded session expires and its stock is back), and
   * clears a closed session after its retention. At-least-once safe; never re-armed in the past.
   */
  override async alarm(): Promise<void> {
    // The alarm that fired is no longer set (this run sets the next one).
    this.#armed = undefined;
    if (!this.#store.exists()) return;
    // A session of an older layout gains its tables before the recovery reads them.
    this.#store.transaction(() => undefined);
    await this.#completion.idle();
    const recovered = await this.#completion.recover(Date.now());
    if (recovered) await this.#settle(recovered.attempt.id, recovered.outcome);
    const now = Date.now();
    this.#store.transaction((sql) => {
      const checkout = this.#stored();
      // complete_in_progress without an attempt: marked by a version that kept none; expiry closes it.
      const stranded = checkout?.status === "complete_in_progress" && !this.#completion.current();
      if (checkout && isExpired(checkout, now) && (checkout.status !== "complete_in_progress" || stranded)) {
        this.#save({ ...checkout, status: "canceled", messages: [EXPIRED] });
      }
      pruneLedger(sql, now);
    });
    const checkout = this.#stored();
    if (checkout && TERMINAL.has(checkout.status) && now >= checkout.expires_at + CLOSED_RETENTION_MS) {
      if (this.#book.placed()) {
        // The order it placed here stays (orders are kept); the session is gone as if never written.
        this.#store.transaction((sql) => clearSession(sql));
        this.#parsed = undefined;
      } else {
        await this.#store.deleteAll();
        this.#armed = undefined;
        return;
      }
    }
    await this.#book.alarm();
    await this.#arm(RECOVERY_RETRY_MS);
  }

  /** A change through the kernel (a create's claim, owner check, ledger, one transaction), then the alarm. */
  async #change(
    command: { caller: Caller; idempotency: IdempotencyInput | undefined },
    step: (now: number) => ObjectReply,
    create?: Pick<MutationOptions, "creates">,
  ): Promise<ObjectReply> {
    if (!create && !this.#store.exists()) return { kind: "not_found" };
    const now = Date.now();
    const reply = this.#store.mutate({ now, caller: command.caller, idempotency: command.idempotency, ...create }, () =>
      step(now),
    );
    await this.#arm();
    return reply;
  }

  /** `step` on the session as of `now`, or not_found when there is none. */
  #open<R>(now: number, step: (checkout: CheckoutState) => R): R | { kind: "not_found" } {
    const checkout = this.#load(now);
    return checkout ? step(checkout) : { kind: "not_found" };
  }

  #stored(): CheckoutState | undefined {
    const row = this.ctx.storage.sql.exec<{ state: string }>("SELECT state FROM checkout").toArray()[0];
    if (!row) return undefined;
    if (this.#parsed?.text === row.state) return this.#parsed.state;
    const state = JSON.parse(row.state) as CheckoutState;
    this.#parsed = { text: row.state, state };
    return state;
  }

  /** The session as of `now`: an open session past expires_at reads as canceled. */
  #load(now: number): CheckoutState | undefined {
    const checkout = this.#stored();
    return checkout && this.#asOf(checkout, now);
  }

  #asOf(checkout: CheckoutState, now: number): CheckoutState {
    if (isExpired(checkout, now) && checkout.status !== "complete_in_progress") {
      return { ...checkout, status: "canceled", messages: [EXPIRED] };
    }
    return checkout;
  }

  #save(checkout: CheckoutState): void {
    const text = JSON.stringify(checkout);
    this.ctx.storage.sql.exec("INSERT OR REPLACE INTO checkout (id, state) VALUES (?, ?)", checkout.id, text);
    this.#parsed = { text, state: checkout };
  }

  #payload(checkout: CheckoutState, view: CheckoutView, extra: readonly Message[]) {
    return this.#shown({ ...checkout, messages: [...checkout.messages, ...extra] }, view);
  }

  /**
   * The response. While the buyer has a payment to verify, continue_url is its challenge
   * (UCP overview Scenario B: continue_url is where the buyer completes the bank check).
   */
  #shown(checkout: CheckoutState, view: CheckoutView) {
    const verification = loadVerification(this.ctx.storage.sql);
    const challenge = awaitsBuyer(checkout, verification);
    const url = challenge ? `${view.continueUrl}/verify` : view.continueUrl;
    const envelope = embeddingFor(view.envelope, recordedOwner(this.ctx.storage.sql)?.authenticated === true);
    return checkoutPayload(checkout, envelope, url, challengeActions(checkout, verification, url));
  }

  /** A write the session's state refuses: the session as it is, with why (recorded in the ledger). */
  #refuse(checkout: CheckoutState, view: CheckoutView, message: Message): ObjectReply {
    return okReply(this.#payload(checkout, view, [message]));
  }

  /**
   * One alarm at the earliest deadline: a running attempt's recovery (which stands in for
   * expiry while it runs), expiry of an open session, ledger retention, closed retention.
   * A deadline already past is one the caller could not act on yet: from the alarm itself it
   * is retried `floor` ms on, so nothing fires in a loop.
   */
  async #arm(floor = 0): Promise<void> {
    const checkout = this.#stored();
    const attempt = this.#completion.current();
    const open = checkout && !TERMINAL.has(checkout.status);
    const deadlines = [
      attempt?.deadline,
      open && !attempt ? checkout.expires_at : undefined,
      checkout && !open ? checkout.expires_at + CLOSED_RETENTION_MS : undefined,
      ledgerDeadline(this.ctx.storage.sql),
    ].filter((d): d is number => d !== undefined);
    const now = Date.now();
    const own = deadlines.length > 0 ? Math.max(Math.min(...deadlines), now + floor) : undefined;
    // The order's work (only a session completing or completed, or cleared, holds one) is
    // not floored: each of its retries is already scheduled ahead (order/order-book.ts).
    // An open attempt that has not placed its order yet holds none (a retry finds it by the attempt).
    const placing = attempt !== undefined && attempt.progress.order === undefined;
    const placed = !checkout || checkout.status === "completed" || checkout.status === "complete_in_progress";
    const orderDue = placed && !placing ? this.#book.deadline() : undefined;
    const due = [own, orderDue === undefined ? undefined : Math.max(orderDue, now)].filter(
      (d): d is number => d !== undefined,
    );
    if (due.length === 0) return;
    const at = Math.min(...due);
    // Most writes leave the earliest deadline where it was (an update keeps expires_at).
    if (at === this.#armed) return;
    // Unknown while the write is in flight: a concurrent request then sets its own time.
    this.#armed = undefined;
    await this.ctx.storage.setAlarm(at);
    this.#armed = at;
  }
}
