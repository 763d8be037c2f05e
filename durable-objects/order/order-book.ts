/**
 * One order's domain steps, wherever the order is stored: its own OrderObject (every order
 * placed before issue 29) or the object of the checkout session that placed it (since; the
 * host shares its store, ledger and one alarm, docs/decisions/orders.md). The snapshot made
 * at completion, then the merchant's fulfillment events and adjustments, the buyer's
 * confirmation outbox, the platform's webhooks (creation and every change, docs/trust.md), the
 * refunds/stock releases adjustments owe and its entry in the store's order index
 * (index-feed.ts). Every change is one transaction (state, outbox, webhook or effects rows,
 * ledger); the awaits (sending, refunding, releasing) come after it and are retried by the
 * host's alarm. Replies are values. Readable over UCP only by the platform that placed it.
 */
import { merchantSigningKey } from "../../src/auth/merchant-key";
import { returnStock } from "../../src/catalog/stock-returns";
import { releaseStock } from "../../src/catalog/stock-shards";
import { merchantConfig } from "../../src/config";
import { logOrderEvent, type OrderEvent } from "../../src/lib/log";
import { ok, type Result } from "../../src/lib/result";
import { ORDER_CONFIRMATION, orderConfirmation } from "../../src/notify/order-confirmation";
import { notificationSender } from "../../src/notify/sender";
import { applyAdjustment, type Effect, settleAdjustment } from "../../src/order/adjustments";
import { type CaptureJob, captureOnEvent, settleCapture } from "../../src/order/capture";
import { applyEvent } from "../../src/order/fulfillment-events";
import { indexEntry, ORDER_INDEX_NAME, ORDER_LOG_NAME, type OrderIndexEntry } from "../../src/order/index-entry";
import type { Issue } from "../../src/order/line-refs";
import type { AdjustmentInput, FulfillmentEventInput } from "../../src/order/order-input";
import { type OrderState, orderPayload } from "../../src/order/order-state";
import { applyProcessorEvent, type ProcessorEventInput } from "../../src/order/processor-events";
import { postWebhook } from "../../src/order/webhook-http";
import { orderOnlyEnvelope, webhookVersion } from "../../src/order/webhook-version";
import { processorFor } from "../../src/payment/store-processor";
import { type IdempotencyInput, restateAnswer } from "../shared/idempotency";
import type { ObjectStore } from "../shared/kernel";
import type { ObjectReply } from "../shared/object-reply";
import { CAPTURES_SCHEMA, capturesDeadline, queueCapture, runDueCapture } from "./captures";
import { orderDeadline } from "./deadline";
import { fedEntry, feedIndex, INDEX_FEED_SCHEMA, sendIndexFeed, webhookFailures } from "./index-feed";
import { type MerchantOrderView, merchantView } from "./merchant-view";
import { deliverDue, enqueue, messageState, OUTBOX_SCHEMA, type OutboxRow, outboxRows } from "./outbox";
import {
  EFFECTS_SCHEMA,
  effectsDeadline,
  effectsStatus,
  queueEffects,
  RELEASE_LINES_SCHEMA,
  runDueEffects,
  type SettlementPorts,
} from "./settlement";
import { Together } from "./together";
import {
  type AttemptResult,
  DELIVERIES_SCHEMA,
  deliverWebhooks,
  enqueueWebhook,
  reopenWebhooks,
  WEBHOOKS_SCHEMA,
  type WebhookEvent,
  type WebhookRow,
  webhookLog,
  webhookRetry,
  webhooksDeadline,
} from "./webhooks";

/** The order's tables (the host's layout makes them, with the ledger). */
export const ORDER_TABLES = [
  "CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, state TEXT NOT NULL)",
  OUTBOX_SCHEMA,
  EFFECTS_SCHEMA,
  RELEASE_LINES_SCHEMA,
  CAPTURES_SCHEMA,
  WEBHOOKS_SCHEMA,
  DELIVERIES_SCHEMA,
  INDEX_FEED_SCHEMA,
];

/** What the order needs of the object that stores it. */
export interface OrderHost {
  readonly ctx: DurableObjectState;
  readonly env: Env;
  readonly store: ObjectStore;
  /** Sets the object's one alarm at its earliest deadline, the order's (OrderBook.deadline) among them. */
  readonly arm: () => Promise<void>;
}

/** A new order's safety-net alarm: its due work normally runs right after creation (#afterCreate). */
const AFTER_CREATE_ALARM_MS = 30_000;
const isDue = (deadline: number | undefined): boolean => deadline !== undefined && deadline <= Date.now();

/** A merchant change as the Worker passes it: parsed input, ledger entry, response envelope. */
export interface OrderChange<I> {
  readonly input: I;
  readonly idempotency: IdempotencyInput | undefined;
  readonly envelope: unknown;
}

export type { MerchantOrderView };

/** A merchant change's answer: an ObjectReply or the input's issues (src/admin/orders.ts maps it). */
export type ChangeReply = ObjectReply<{ kind: "invalid"; issues: Issue[] }>;

/** `unchanged`: the change was already in the order (a redelivered processor event): nothing saved or sent. */
type Applied = {
  order: OrderState;
  adjustmentId?: string;
  effects: readonly Effect[];
  unchanged?: true;
  capture?: CaptureJob;
};

export class OrderBook {
  readonly #store: ObjectStore;
  readonly #host: OrderHost;
  /** While a new order's follow-up runs: its due work waits for it, the alarm only as a safety net. */
  #hold: number | undefined;

  constructor(host: OrderHost) {
    this.#host = host;
    this.#store = host.store;
  }

  get ctx(): DurableObjectState {
    return this.#host.ctx;
  }

  get env(): Env {
    return this.#host.env;
  }

  /** Stores the order unless it exists already (a retried completion makes no second order),
   * and queues the buyer's confirmation in the same transaction. */
  async create(
    order: OrderState,
    /**
     * No earlier safety net than this: the completion placing the order in its own object
     * passes the alarm it armed already (its recovery deadline), so placing the order moves
     * no alarm (each move is a write to the alarm store) and the follow-up's end moves it once.
     */
    holdUntil = 0,
  ): Promise<{ created: boolean }> {
    const now = Date.now();
    const outcome = this.#store.transaction(() => {
      if (this.#load()) return { created: false };
      this.#save(order);
      this.#announce(order, "order.created", now);
      // A new order has no webhook attempts yet (and maybe no table for them).
      feedIndex(this.ctx.storage.sql, indexEntry(order, { failures: 0, lastFailureAt: null }), now);
      if (order.buyer_email) {
        enqueue(this.ctx.storage.sql, { kind: ORDER_CONFIRMATION, to: order.buyer_email, orderId: order.id }, now);
      }
      return { created: true };
    });
    if (!outcome.created) {
      // A retried completion on an order that may have any rows due: every deadline.
      await this.#arm();
      this.ctx.waitUntil(this.#sendIndex().then(() => this.#arm()));
      return outcome;
    }
    logOrderEvent(order.id, "created", { profile: order.owner });
    // The safety net, committed with the order (no await in between): if the work below dies
    // with the isolate, this alarm does it. Set later than the work needs, so it rarely runs.
    this.#hold = Math.max(now + AFTER_CREATE_ALARM_MS, holdUntil);
    await this.#arm();
    // What is due at once (the index entry from the feed, the confirmation, the created
    // webhook) goes out after the reply, without an alarm run: the completion's answer waits
    // on no store-wide object (issue 27). #arm then leaves the alarm only for what is owed.
    this.ctx.waitUntil(this.#afterCreate(order));
    return outcome;
  }

  /**
   * The full order for its owner, or for the buyer on the order page (`handoff`: the Worker
   * opened the permalink's sealed token to this very id); another platform gets `not_owner`.
   * Writes nothing.
   */
  async read(owner: string, envelope: unknown, handoff = false): Promise<ObjectReply> {
    const order = this.#store.read(undefined, () => this.#load());
    if (!order) return { kind: "not_found" };
    if (!handoff && order.owner !== owner) return { kind: "not_owner" };
    return { kind: "ok", body: JSON.stringify(orderPayload(order, envelope)) };
  }

  /**
   * The buyer's confirmation email as the outbox has it, for the confirmation page, which
   * may say an email was sent only when one was. Writes nothing; no order: none.
   */
  async confirmationEmail(): Promise<"sent" | "failed" | "pending" | "none"> {
    return this.#store.read("none", (sql) => messageState(sql, ORDER_CONFIRMATION));
  }

  /** The order's latest index entry and version, for the index's rebuild (none: no order here). */
  async indexState(): Promise<{ entry: OrderIndexEntry; version: number } | undefined> {
    return this.#store.read(undefined, (sql) => {
      const fed = fedEntry(sql);
      if (fed) return fed;
      // An order from before the feed: version 0, so anything it feeds later wins.
      const order = this.#load();
      return order ? { entry: indexEntry(order, webhookFailures(sql)), version: 0 } : undefined;
    });
  }

  /** Appends a fulfillment event (merchant admin). */
  async recordEvent(change: OrderChange<FulfillmentEventInput>): Promise<ChangeReply> {
    return this.#change(change, { event: "fulfillment", type: change.input.type }, (order, now) => {
      const next = applyEvent(order, change.input, now);
      if (!next.ok) return next;
      // The first shipment of an order only authorized takes the money (capture.ts).
      const shipped = captureOnEvent(next.value, change.input.type);
      return ok({ order: shipped.order, effects: [], ...(shipped.capture ? { capture: shipped.capture } : {}) });
    });
  }

  /** Appends an adjustment (merchant admin), then refunds and releases stock as it says. */
  async recordAdjustment(change: OrderChange<AdjustmentInput>): Promise<ChangeReply> {
    const logged = { event: "adjustment", type: change.input.type } as const;
    return this.#change(change, logged, (order, now) => applyAdjustment(order, change.input, now));
  }

  /**
   * A payment processor's event about this order (Stripe's webhooks: a dashboard refund, a
   * dispute): recorded once, keyed by the event id in the ledger and by the refund's or
   * dispute's id in the order, so redeliveries change nothing. No effects: the money already
   * moved at the processor. `invalid`: the event's charge is not this order's.
   */
  async recordProcessorEvent(change: OrderChange<ProcessorEventInput>): Promise<ChangeReply> {
    const logged = { event: "adjustment", type: `processor:${change.input.eventType}` } as const;
    return this.#change(change, logged, (order, now) => {
      const next = applyProcessorEvent(order, change.input, now);
      if (!next.ok) return next;
      return ok({ order: next.value.order, effects: [], ...(next.value.changed ? {} : { unchanged: true as const }) });
    });
  }

  /** The webhook delivery log: every event and each attempt (merchant admin, tests). */
  async webhooks(): Promise<ReturnType<typeof webhookLog>> {
    return this.#store.read([], (sql) => webhookLog(sql));
  }

  /** The order for the merchant's console and admin API (not UCP: merchant-side facts included). Writes nothing. */
  async merchantView(envelope: unknown): Promise<MerchantOrderView | undefined> {
    return this.#store.read(undefined, (sql) => {
      const order = this.#load();
      return order ? merchantView(order, envelope, webhookLog(sql)) : undefined;
    });
  }

  /** Sends every undelivered webhook now (the merchant's "retry now"); the delivery log after. */
  async retryWebhooks(): Promise<ReturnType<typeof webhookLog> | undefined> {
    const sql = this.ctx.storage.sql;
    if (!this.#store.read(undefined, () => this.#load())) return undefined;
    this.#store.transaction(() => reopenWebhooks(sql, Date.now()));
    await this.#deliverWebhooks();
    await this.#sendIndex();
    await this.#arm();
    return webhookLog(sql);
  }

  /** The notification outbox, read-only (tests and support). */
  async outbox(): Promise<OutboxRow[]> {
    return this.#store.read([], (sql) => outboxRows(sql));
  }

  /** Delivers due notifications and effects, then re-arms. Alarms are at-least-once: rows
   * already sent or done are never due again, so a repeat run does nothing twice. */
  async alarm(): Promise<void> {
    // No order, or nothing queued and no ledger (an order from before the outbox): nothing runs, nothing is written.
    const idle = (sql: SqlStorage) => this.#orderId() === undefined || orderDeadline(sql) === undefined;
    this.#hold = undefined;
    if (this.#store.read(true, idle)) return;
    // Orders from before a table existed gain it here, before anything reads it.
    this.#store.transaction(() => undefined);
    const now = Date.now();
    await this.#notify(this.#load(), now);
    await this.#settle();
    await this.#capture();
    await this.#deliverWebhooks();
    await this.#sendIndex();
    this.#store.pruneLedger(now);
    await this.#arm();
  }

  /** A new order's due work, run after its creation answered; a failure is left to the alarm. */
  async #afterCreate(order: OrderState): Promise<void> {
    try {
      // Side by side: the merchant's list need not wait on an email. Each claims its row
      // before its first await, so an alarm overlapping this never sends twice.
      // The index entry and the created webhook go out side by side too, and their outcomes
      // are recorded together: one commit for both (together.ts).
      const together = new Together();
      const [, , failed] = await Promise.all([
        order.buyer_email ? this.#notify(order, Date.now()) : undefined,
        this.#sendIndex(together),
        order.webhook_url ? this.#deliverWebhooks("on failure", together) : 0,
      ]);
      // The entry fed at creation holds until an attempt fails: only then is it fed and sent again.
      if (failed > 0) await this.#sendIndex();
      this.#hold = undefined;
      await this.#arm();
    } catch (e) {
      // The hold stays: the safety-net alarm does what is left.
      console.error("order follow-up failed, left to the alarm", order.id, e instanceof Error ? e.message : e);
    }
  }

  /** Sends the due notifications of `order`. */
  async #notify(order: OrderState | undefined, now: number): Promise<void> {
    if (!order) return;
    const { name, storefront } = merchantConfig(this.env);
    const compose = (row: { to: string }) => orderConfirmation(order, row.to, name, storefront.locale);
    await deliverDue(this.ctx.storage.sql, notificationSender(this.env), compose, now);
  }

  async #change<I>(
    change: OrderChange<I>,
    logged: { event: OrderEvent; type: string },
    apply: (order: OrderState, now: number) => Result<Applied, Issue[]>,
  ): Promise<ChangeReply> {
    const sql = this.ctx.storage.sql;
    // No order here: not_found, and nothing written (the host may hold none, or only a session).
    if (!this.#store.read(false, () => this.#orderId() !== undefined)) return { kind: "not_found" };
    const now = Date.now();
    const { idempotency } = change;
    const options = { now, ...(idempotency ? { idempotency } : {}) };
    const reply = this.#store.mutate(options, (): ChangeReply | { kind: "ok"; body: string; fresh: true } => {
      const order = this.#load();
      if (!order) return { kind: "not_found" };
      const next = apply(order, now);
      if (!next.ok) return { kind: "invalid", issues: next.error };
      // Unchanged (already known): nothing saved or announced; the answer is still recorded,
      // so the next redelivery replays at once.
      const fresh = !next.value.unchanged;
      if (fresh) {
        this.#save(next.value.order);
        this.#announce(next.value.order, "order.updated", now);
        this.#feed(next.value.order, now);
        if (next.value.adjustmentId) queueEffects(sql, next.value.adjustmentId, next.value.effects, now);
        if (next.value.capture)
          queueCapture(sql, next.value.order.id, next.value.capture.chargeId, next.value.capture.amount, now);
      }
      // Recorded with the change (by the kernel), so a retry arriving while the effects below run replays it.
      const body = this.#answer(next.value.order, change.envelope);
      return fresh ? { kind: "ok", body, fresh: true } : { kind: "ok", body };
    });
    // Outside the transaction: refund and release (a replay leaves leftovers to the alarm).
    if (reply.kind !== "ok" || !("fresh" in reply)) return reply;
    const orderId = this.#orderId();
    if (orderId) logOrderEvent(orderId, logged.event, { type: logged.type });
    let body = reply.body;
    // The answer, and what a retry with the same key replays, is the order after its effects:
    // restated in the transaction that records their outcome.
    await this.#settle((settled) => {
      body = this.#answer(settled, change.envelope);
      if (idempotency) restateAnswer(sql, idempotency, body);
    });
    await this.#capture();
    await this.#sendIndex();
    await this.#arm();
    return { kind: "ok", body };
  }

  /**
   * Runs due effects and records each touched adjustment's status; `settled` sees the order
   * so recorded, inside that transaction. Nothing to record when no effect changed.
   */
  async #settle(settled?: (order: OrderState) => void): Promise<void> {
    // Nothing due: no ports to build (they read the order).
    if (!isDue(effectsDeadline(this.ctx.storage.sql))) return;
    const touched = await runDueEffects(this.ctx.storage.sql, this.#ports(), Date.now());
    if (touched.size === 0) return;
    this.#store.transaction(() => {
      let order = this.#load();
      if (!order) return;
      for (const id of touched) order = settleAdjustment(order, id, effectsStatus(this.ctx.storage.sql, id));
      this.#save(order);
      this.#announce(order, "order.updated", Date.now());
      this.#feed(order, Date.now());
      settled?.(order);
    });
  }

  /**
   * Runs a due capture (capture at shipment) and records its final outcome on the order. The
   * UCP order does not show it (no webhook); the console does. Not final: the alarm retries.
   */
  async #capture(): Promise<void> {
    const sql = this.ctx.storage.sql;
    if (!isDue(this.#store.read(undefined, capturesDeadline))) return;
    const processor = processorFor(merchantConfig(this.env));
    const outcome = await runDueCapture(
      sql,
      async (chargeId, amount, key) => {
        if (processor?.capture) return processor.capture(chargeId, amount, key);
        console.error(`capture of ${chargeId} waits: the payment processor cannot capture (is Stripe configured?)`);
        return { ok: false };
      },
      Date.now(),
    );
    if (!outcome) return;
    this.#store.transaction(() => {
      const order = this.#load();
      if (order) this.#save(settleCapture(order, outcome, Date.now()));
    });
    const orderId = this.#orderId();
    if (orderId) logOrderEvent(orderId, "adjustment", { type: `capture:${outcome}` });
  }

  /** Queues the platform's webhook for this state of the order (inside the caller's transaction). */
  #announce(order: OrderState, event: WebhookEvent, now: number): void {
    if (!order.webhook_url) return;
    const body = JSON.stringify(orderPayload(order, orderOnlyEnvelope(webhookVersion(order))));
    enqueueWebhook(this.ctx.storage.sql, { event, url: order.webhook_url, body }, now);
  }

  /**
   * Sends the due webhooks; returns how many attempts failed. The index entry counts failures,
   * so it is fed again after the attempts: `on failure` (a new order, whose entry was fed in
   * its creation) only when one failed, else always (an order from before the feed gains it).
   */
  async #deliverWebhooks(refeed: "always" | "on failure" = "always", together?: Together): Promise<number> {
    // Nothing due: no signing key, no re-fed entry (no attempt changed it).
    if (!isDue(webhooksDeadline(this.ctx.storage.sql))) return 0;
    const config = merchantConfig(this.env);
    const settings = {
      origin: config.origin,
      wire: { config },
      key: await merchantSigningKey(this.env),
      allow: config.outboundAllow,
    };
    const retry = webhookRetry(config.webhookRetryBaseSeconds);
    const orderId = this.#orderId() ?? "unknown";
    // Each attempt is an order event in the log; a throw counts as a failed attempt, as in deliverWebhooks.
    const post = async (row: WebhookRow): Promise<AttemptResult> => {
      let result: AttemptResult;
      try {
        const posted = postWebhook(row, settings);
        result = await (together ? together.send(posted) : posted);
      } catch (e) {
        result = { delivered: false, error: e instanceof Error ? e.message : String(e) };
      }
      const facts = { webhook_id: row.id, webhook_event: row.event, attempt: row.attempts + 1, status: result.status };
      if (result.delivered) logOrderEvent(orderId, "webhook_delivered", facts);
      else logOrderEvent(orderId, "webhook_failed", { ...facts, error: result.error?.slice(0, 200) });
      return result;
    };
    const failed = await deliverWebhooks(this.ctx.storage.sql, post, retry, Date.now);
    if (failed === 0 && refeed === "on failure") return 0;
    // Delivery outcomes are index facts too (the dashboard's webhook failures).
    this.#store.transaction(() => {
      const order = this.#load();
      if (order) this.#feed(order, Date.now());
    });
    return failed;
  }

  /** Writes the order's index entry into the feed (inside the caller's transaction). */
  #feed(order: OrderState, now: number): void {
    feedIndex(this.ctx.storage.sql, indexEntry(order, webhookFailures(this.ctx.storage.sql)), now);
  }

  /**
   * Sends the feed if due; a failure is left to the alarm (the row stays due). A rebuild walks
   * the ids the store recorded: an order with a number is recorded by its allocation (the
   * numbers object, before the order existed); until the index has taken a first version, an
   * order without one sends its id to the log too, before the entry.
   */
  async #sendIndex(together?: Together): Promise<void> {
    const index = this.env.ORDER_INDEX.getByName(ORDER_INDEX_NAME);
    const log = this.env.ORDER_INDEX.getByName(ORDER_LOG_NAME);
    const send = async (entry: OrderIndexEntry, version: number, logged: boolean) => {
      if (!logged && entry.number === undefined) await log.append(entry.id, entry.created_at);
      await index.upsert(entry, version);
    };
    await sendIndexFeed(
      this.ctx.storage.sql,
      together ? (entry, version, logged) => together.send(send(entry, version, logged)) : send,
      Date.now,
    );
  }

  #ports(): SettlementPorts {
    // The shards of the order's variants (and the store-wide object, for reservations from before the split).
    const order = this.#load();
    const variantIds = (order?.line_items ?? []).map((l) => l.item.id);
    const orderId = order?.id;
    // The processor completion charged through (same choice, src/payment/store-processor.ts).
    const processor = processorFor(merchantConfig(this.env));
    return {
      refund: async (charge, amount, effectId) => {
        // The effect's id (`adj_1:refund`) is unique in this order only; the processor's key
        // (Stripe's Idempotency-Key, kept a day per account) must be unique in the store.
        const key = orderId ? `${orderId}:${effectId}` : effectId;
        // The order's id rides along (Stripe: the refund's metadata), so its webhook is known as ours.
        if (processor) return processor.refund(charge, amount, key, orderId ? { orderId } : undefined);
        // Left pending and retried: the refund is owed, the store just cannot pay it yet.
        console.error(`refund of ${charge} waits: no payment processor is configured (PAYMENT_TEST_MODE off)`);
        return { ok: false };
      },
      release: (id) => releaseStock(this.env, id, variantIds),
      restock: (id, lines, key) => returnStock(this.env, id, lines, key),
    };
  }

  /** A change's answer: the UCP order in the envelope the console asked for. */
  #answer(order: OrderState, envelope: unknown): string {
    return JSON.stringify(orderPayload(order, envelope));
  }

  /** The order's id, for the log: without reading and parsing the whole order. */
  #orderId(): string | undefined {
    return this.ctx.storage.sql.exec<{ id: string }>("SELECT id FROM orders").toArray()[0]?.id;
  }

  #load(): OrderState | undefined {
    const row = this.ctx.storage.sql.exec<{ state: string }>("SELECT state FROM orders").toArray()[0];
    return row ? (JSON.parse(row.state) as OrderState) : undefined;
  }

  #save(order: OrderState): void {
    this.ctx.storage.sql.exec(
      "INSERT OR REPLACE INTO orders (id, state) VALUES (?, ?)",
      order.id,
      JSON.stringify(order),
    );
  }

  /** Whether the host holds an order. Writes nothing. */
  placed(): boolean {
    return this.#store.read(false, () => this.#orderId() !== undefined);
  }

  /**
   * The order's earliest due notification, effect, webhook or feed (the ledger is the host's
   * term); while a new order's follow-up runs, not before its safety net. Writes nothing.
   */
  deadline(): number | undefined {
    const due = this.#store.read(undefined, (sql) => orderDeadline(sql, (table) => table !== "ledger"));
    return due === undefined || this.#hold === undefined ? due : Math.max(due, this.#hold);
  }

  async #arm(): Promise<void> {
    await this.#host.arm();
  }
}
