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
  type IdempotencyInput,
  LEDGER_SCHEMA,
  ledgerDeadline,
  priorAnswer,
  pruneLedger,
  recordLedger,
} from "./shared/idempotency";
import { type Caller, mayAct, OWNER_SCHEMA, recordedOwner, recordOwner } from "./shared/owner";
import { deleteAllStorage, ensureTables, hasTable, transaction } from "./shared/schema";

const CART_SCHEMA = `CREATE TABLE IF NOT EXISTS cart (
  id TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  expires_at INTEGER NOT NULL
)`;

const LINK_SCHEMA = "CREATE TABLE IF NOT EXISTS checkout_link (id INTEGER PRIMARY KEY, generation INTEGER NOT NULL)";

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

export type CartReply = { kind: "ok"; body: string } | { kind: "not_found" } | { kind: "conflict" };

export class CartObject extends DurableObject<Env> {
  /**
   * The last read's answer. Only this object writes its storage, and every write drops it,
   * so it is never stale; it saves reads (the most frequent call) the query and the JSON work.
   */
  #lastRead: { key: string; body: string; expiresAt: number } | undefined;

  /** Creates the cart; a repeated idempotency key replays the first response. */
  async create(command: CartCommand): Promise<CartReply> {
    const now = Date.now();
    const reply = transaction(this.ctx.storage, () => {
      ensureTables(this.ctx.storage.sql, [CART_SCHEMA, LEDGER_SCHEMA, OWNER_SCHEMA]);
      if (!this.#load(now)) recordOwner(this.ctx.storage.sql, command.caller);
      if (!mayAct(this.ctx.storage.sql, command.caller)) return { kind: "not_found" } as const;
      const seen = this.#ledger(command.idempotency, now);
      if (seen) return seen;
      const existing = this.#load(now);
      const pricing = { config: command.config, now, ttlMs: command.ttlMs };
      const made = existing
        ? { cart: existing, messages: [] }
        : newCart(command.cartId, command.currency, command.content, pricing);
      if (!existing) this.#save(made.cart);
      const messages = [...command.messages, ...made.messages];
      return this.#respond(cartPayload(made.cart, command.envelope, command.continueUrl, messages), command, now);
    });
    await this.#arm();
    return reply;
  }

  /** The cart as it is, or not_found (never existed, expired, canceled). Writes nothing. */
  async read(view: CartView): Promise<CartReply> {
    if (!this.#hasTables() || !mayAct(this.ctx.storage.sql, view.caller)) return { kind: "not_found" };
    const now = Date.now();
    const key = `${view.continueUrl}\n${JSON.stringify(view.envelope)}`;
    const last = this.#lastRead;
    if (last?.key === key && now < last.expiresAt) return { kind: "ok", body: last.body };
    const cart = this.#load(now);
    if (!cart) return { kind: "not_found" };
    const body = JSON.stringify(cartPayload(cart, view.envelope, view.continueUrl, []));
    this.#lastRead = { key, body, expiresAt: cart.expires_at };
    return { kind: "ok", body };
  }

  /** Replaces the cart's content (UCP update is a full replacement). */
  async update(command: CartCommand): Promise<CartReply> {
    if (!this.#hasTables()) return { kind: "not_found" };
    const now = Date.now();
    const reply = transaction(this.ctx.storage, () => {
      if (!mayAct(this.ctx.storage.sql, command.caller)) return { kind: "not_found" } as const;
      const seen = this.#ledger(command.idempotency, now);
      if (seen) return seen;
      const cart = this.#load(now);
      if (!cart) return { kind: "not_found" } as const;
      const pricing = { config: command.config, now, ttlMs: command.ttlMs };
      const next = replaceContent(cart, command.content, pricing);
      this.#save(next.cart);
      const messages = [...command.messages, ...next.messages];
      return this.#respond(cartPayload(next.cart, command.envelope, command.continueUrl, messages), command, now);
    });
    await this.#arm();
    return reply;
  }

  /** Returns the cart as it was and deletes it; the ledger outlives it. */
  async cancel(command: CartView & { idempotency: IdempotencyInput }): Promise<CartReply> {
    if (!this.#hasTables()) return { kind: "not_found" };
    const now = Date.now();
    const reply = transaction(this.ctx.storage, () => {
      if (!mayAct(this.ctx.storage.sql, command.caller)) return { kind: "not_found" } as const;
      const seen = this.#ledger(command.idempotency, now);
      if (seen) return seen;
      const cart = this.#load(now);
      if (!cart) return { kind: "not_found" } as const;
      this.#lastRead = undefined;
      this.ctx.storage.sql.exec("DELETE FROM cart");
      return this.#respond(cartPayload(cart, command.envelope, command.continueUrl, []), command, now);
    });
    await this.#arm();
    return reply;
  }

  /** Whom the cart belongs to: a buyer checking it out by hand-off acts for them (checkout.tools.ts). */
  async owner(): Promise<Caller | undefined> {
    return this.#hasTables() ? recordedOwner(this.ctx.storage.sql) : undefined;
  }

  /**
   * Which checkout generation this cart is on (0 before any). UCP keeps one open checkout
   * per cart; when it closes, `advanceCheckout(seen)` moves to the next one, once even if
   * called concurrently (compare and set).
   */
  async checkoutGeneration(): Promise<number> {
    if (!this.#hasTables() || !hasTable(this.ctx.storage.sql, "checkout_link")) return 0;
    return (
      this.ctx.storage.sql.exec<{ generation: number }>("SELECT generation FROM checkout_link").toArray()[0]
        ?.generation ?? 0
    );
  }

  async advanceCheckout(seen: number): Promise<number> {
    if (!this.#hasTables()) return seen;
    return transaction(this.ctx.storage, () => {
      const sql = this.ctx.storage.sql;
      sql.exec(LINK_SCHEMA);
      const current =
        sql.exec<{ generation: number }>("SELECT generation FROM checkout_link").toArray()[0]?.generation ?? 0;
      if (current !== seen) return current;
      sql.exec("INSERT OR REPLACE INTO checkout_link (id, generation) VALUES (1, ?)", seen + 1);
      return seen + 1;
    });
  }

  /** Alarms are at-least-once: clears what is due, then re-arms for the next deadline. */
  override async alarm(): Promise<void> {
    const sql = this.ctx.storage.sql;
    if (!this.#hasTables()) return;
    const now = Date.now();
    this.#lastRead = undefined;
    transaction(this.ctx.storage, () => {
      sql.exec("DELETE FROM cart WHERE expires_at <= ?", now);
      pruneLedger(sql, now);
    });
    await this.#arm();
  }

  /** Whether the tables exist (shared/schema.ts remembers it). */
  #hasTables(): boolean {
    return hasTable(this.ctx.storage.sql, "cart");
  }

  #ledger(idempotency: IdempotencyInput | undefined, now: number): CartReply | undefined {
    return priorAnswer(this.ctx.storage.sql, idempotency, now);
  }

  #respond(payload: unknown, command: { idempotency: IdempotencyInput | undefined }, now: number): CartReply {
    const body = JSON.stringify(payload);
    if (command.idempotency) recordLedger(this.ctx.storage.sql, command.idempotency, body, now);
    return { kind: "ok", body };
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
    const sql = this.ctx.storage.sql;
    const cart = sql.exec<{ expires_at: number }>("SELECT expires_at FROM cart").toArray()[0];
    const deadlines = [cart?.expires_at, ledgerDeadline(sql)].filter((d): d is number => d !== undefined);
    if (deadlines.length === 0) {
      this.#lastRead = undefined;
      await deleteAllStorage(this.ctx.storage);
      return;
    }
    await this.ctx.storage.setAlarm(Math.min(...deadlines));
  }
}
