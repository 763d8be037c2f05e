/**
 * One cart: its state, expiry alarm and idempotency ledger (SQLite storage). Every change
 * is one synchronous transaction; pricing and negotiation happened in the Worker, which
 * passes their results in. Replies are values; domain outcomes are never thrown.
 */
import { DurableObject } from "cloudflare:workers";
import type { Message } from "../schemas/ucp/common";
import { type CartContent, type CartState, isExpired, newCart, replaceContent } from "../src/cart/cart-state";
import { cartPayload } from "../src/cart/cart-view";
import type { CommerceConfig } from "../src/checkout/commerce-config";
import type { UcpEnvelope } from "../src/ucp/envelope";
import {
  type CartCheckoutCommand,
  type CartCheckoutReply,
  checkoutFromCart,
  checkoutGenerations,
} from "./cart/checkout";
import { type IdempotencyInput, ledgerTable, ObjectStore, tables } from "./shared/kernel";
import type { ObjectReply } from "./shared/object-reply";
import { type Caller, OWNER_SCHEMA, recordedOwner } from "./shared/owner";

/** The cart's stored layout, step by step (shared/kernel.ts). */
const MIGRATIONS = [
  tables(1, "the cart, its checkout generation and its owner", [
    `CREATE TABLE IF NOT EXISTS cart (
  id TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  expires_at INTEGER NOT NULL
)`,
    "CREATE TABLE IF NOT EXISTS checkout_link (id INTEGER PRIMARY KEY, generation INTEGER NOT NULL)",
    OWNER_SCHEMA,
  ]),
  ledgerTable(2),
  checkoutGenerations(3),
];

export interface CartView {
  readonly envelope: UcpEnvelope;
  readonly continueUrl: string;
  /** Who asks: anyone but the cart's owner is answered not_found (shared/owner.ts). */
  readonly caller: Caller;
}

export interface CartCommand extends CartView {
  readonly cartId: string;
  readonly currency: string;
  readonly content: CartContent;
  readonly messages: readonly Message[];
  readonly ttlMs: number;
  /** Discount codes are priced by the merchant's configuration. */
  readonly config: Pick<CommerceConfig, "discounts">;
  readonly idempotency: IdempotencyInput | undefined;
}

export class CartObject extends DurableObject<Env> {
  readonly #store = new ObjectStore(this.ctx.storage, MIGRATIONS);
  /**
   * The last read's answer. Only this object writes its storage, and every write drops it,
   * so it is never stale; it saves reads (the most frequent call) the query and the JSON work.
   */
  #lastRead: { key: string; body: string; expiresAt: number } | undefined;

  /** Creates the cart; a repeated idempotency key replays the first response. */
  async create(command: CartCommand): Promise<ObjectReply> {
    const now = Date.now();
    return this.#change(command, now, true, () => {
      const existing = this.#load(now);
      const pricing = { config: command.config, now, ttlMs: command.ttlMs };
      const made = existing
        ? { cart: existing, messages: [] }
        : newCart(command.cartId, command.currency, command.content, pricing);
      if (!existing) this.#save(made.cart);
      return this.#payload(made.cart, command, [...command.messages, ...made.messages]);
    });
  }

  /** The cart as it is, or not_found (never existed, expired, canceled). Writes nothing. */
  async read(view: CartView): Promise<ObjectReply> {
    return this.#store.readFor(view.caller, () => {
      const now = Date.now();
      const key = `${view.continueUrl}\n${JSON.stringify(view.envelope)}`;
      const last = this.#lastRead;
      if (last?.key === key && now < last.expiresAt) return { kind: "ok", body: last.body };
      const cart = this.#load(now);
      if (!cart) return { kind: "not_found" };
      const body = JSON.stringify(cartPayload(cart, view.envelope, view.continueUrl, []));
      this.#lastRead = { key, body, expiresAt: cart.expires_at };
      return { kind: "ok", body };
    });
  }

  /** Replaces the cart's content (UCP update is a full replacement). */
  async update(command: CartCommand): Promise<ObjectReply> {
    if (!this.#store.exists()) return { kind: "not_found" };
    const now = Date.now();
    return this.#change(command, now, false, () => {
      const cart = this.#load(now);
      if (!cart) return { kind: "not_found" };
      const next = replaceContent(cart, command.content, { config: command.config, now, ttlMs: command.ttlMs });
      this.#save(next.cart);
      return this.#payload(next.cart, command, [...command.messages, ...next.messages]);
    });
  }

  /** Returns the cart as it was and deletes it; the ledger outlives it. */
  async cancel(command: CartView & { idempotency: IdempotencyInput }): Promise<ObjectReply> {
    if (!this.#store.exists()) return { kind: "not_found" };
    const now = Date.now();
    return this.#change(command, now, false, (sql) => {
      const cart = this.#load(now);
      if (!cart) return { kind: "not_found" };
      this.#lastRead = undefined;
      sql.exec("DELETE FROM cart");
      return this.#payload(cart, command, []);
    });
  }

  /** Whom the cart belongs to (recorded at its creation). Writes nothing. */
  async owner(): Promise<Caller | undefined> {
    return this.#store.read(undefined, (sql) => recordedOwner(sql));
  }

  /** create_checkout from this cart: the cart decides and makes its one checkout (cart/checkout.ts). */
  async checkout(command: CartCheckoutCommand): Promise<CartCheckoutReply> {
    const store = this.#store;
    return checkoutFromCart(command, {
      read: (empty, body) => store.read(empty, body),
      transaction: (body) => store.transaction(body),
      exists: () => store.exists(),
      hasCart: (now) => this.#load(now) !== undefined,
      env: this.env,
    });
  }

  /** Alarms are at-least-once: clears what is due, then re-arms for the next deadline. */
  override async alarm(): Promise<void> {
    if (!this.#store.exists()) return;
    const now = Date.now();
    this.#lastRead = undefined;
    this.#store.transaction((sql) => sql.exec("DELETE FROM cart WHERE expires_at <= ?", now));
    this.#store.pruneLedger(now);
    await this.#arm();
  }

  /** A change for the caller through the kernel (a create's claim, owner check, ledger, one transaction), then the alarm. */
  async #change(
    command: { caller: Caller; idempotency: IdempotencyInput | undefined },
    now: number,
    creates: boolean,
    step: (sql: SqlStorage) => ObjectReply,
  ): Promise<ObjectReply> {
    const reply = this.#store.mutate({ now, caller: command.caller, idempotency: command.idempotency, creates }, step);
    await this.#arm();
    return reply;
  }

  #payload(cart: CartState, view: CartView, messages: readonly Message[]): ObjectReply {
    return { kind: "ok", body: JSON.stringify(cartPayload(cart, view.envelope, view.continueUrl, [...messages])) };
  }

  #load(now: number): CartState | undefined {
    const row = this.ctx.storage.sql.exec<{ state: string }>("SELECT state FROM cart").toArray()[0];
    if (!row) return undefined;
    const cart = JSON.parse(row.state) as CartState;
    return isExpired(cart, now) ? undefined : cart;
  }

  #save(cart: CartState): void {
    this.#lastRead = undefined;
    this.ctx.storage.sql.exec(
      "INSERT OR REPLACE INTO cart (id, state, expires_at) VALUES (?, ?, ?)",
      cart.id,
      JSON.stringify(cart),
      cart.expires_at,
    );
  }

  /** One alarm, at the earliest deadline; with nothing left, the object's storage goes. */
  async #arm(): Promise<void> {
    const cart = this.#store.read(
      undefined,
      (sql) => sql.exec<{ expires_at: number }>("SELECT expires_at FROM cart").toArray()[0],
    );
    if (!cart) this.#lastRead = undefined;
    await this.#store.arm([cart?.expires_at], "delete");
  }
}
