/**
 * An order in an object of its own: every order placed before issue 29 (since, an order lives
 * in the object of the checkout session that placed it, checkout-object.ts). Its steps are
 * the OrderBook's (order/order-book.ts); this object adds only its layout and its alarm.
 */
import { DurableObject } from "cloudflare:workers";
import type { OrderState } from "../src/order/order-state";
import { ORDER_TABLES, OrderBook, type OrderChange } from "./order/order-book";
import { ledgerTable, ObjectStore, tables } from "./shared/kernel";

export type { ChangeReply, MerchantOrderView, OrderChange } from "./order/order-book";

import type { AdjustmentInput, FulfillmentEventInput } from "../src/order/order-input";
import type { ProcessorEventInput } from "../src/order/processor-events";

/**
 * The order's stored layout, step by step (shared/kernel.ts). Orders placed before the
 * version row had `orders` and some of the rest (the outbox came later, then effects,
 * webhooks, the index feed, captures, release lines): step 1 makes whatever is missing.
 */
const MIGRATIONS = [
  tables(1, "the order, its outbox, effects, captures, webhooks and index feed", ORDER_TABLES),
  ledgerTable(2),
];

export class OrderObject extends DurableObject<Env> {
  readonly #store = new ObjectStore(this.ctx.storage, MIGRATIONS);
  readonly #book: OrderBook = new OrderBook({
    ctx: this.ctx,
    env: this.env,
    store: this.#store,
    arm: () => this.#store.arm([this.#book.deadline()], "keep"),
  });

  async create(order: OrderState) {
    return this.#book.create(order);
  }

  async read(owner: string, envelope: unknown, handoff = false) {
    return this.#book.read(owner, envelope, handoff);
  }

  async confirmationEmail() {
    return this.#book.confirmationEmail();
  }

  async indexState() {
    return this.#book.indexState();
  }

  async recordEvent(change: OrderChange<FulfillmentEventInput>) {
    return this.#book.recordEvent(change);
  }

  async recordAdjustment(change: OrderChange<AdjustmentInput>) {
    return this.#book.recordAdjustment(change);
  }

  async recordProcessorEvent(change: OrderChange<ProcessorEventInput>) {
    return this.#book.recordProcessorEvent(change);
  }

  async webhooks() {
    return this.#book.webhooks();
  }

  async merchantView(envelope: unknown) {
    return this.#book.merchantView(envelope);
  }

  async retryWebhooks() {
    return this.#book.retryWebhooks();
  }

  async outbox() {
    return this.#book.outbox();
  }

  override async alarm(): Promise<void> {
    await this.#book.alarm();
  }
}
