/**
 * One checkout session: state, expiry alarm and idempotency ledger (SQLite). Create,
 * update and cancel are one transaction each. Completion is three steps so that no await
 * sits inside a transaction: mark complete_in_progress; reserve stock, charge and place the
 * order (each idempotent per checkout, so a crash in between is retried safely); record the
 * outcome. Replies are values; nothing is thrown for a domain outcome.
 */
import { DurableObject } from "cloudflare:workers";
import type { CheckoutComplete } from "../schemas/ucp/checkout";
import type { Message } from "../schemas/ucp/common";
import {
  type CheckoutEnvelope,
  type CheckoutState,
  checkoutPayload,
  isExpired,
  TERMINAL,
} from "../src/checkout/checkout-state";
import type { CommerceConfig } from "../src/checkout/commerce-config";
import { type CompletionPlan, planCompletion, settleCompletion } from "../src/checkout/completion";
import { type CheckoutBase, type CheckoutInput, computeCheckout, saveInstrument } from "../src/checkout/compute";
import {
  type IdempotencyInput,
  LEDGER_SCHEMA,
  ledgerDeadline,
  priorAnswer,
  pruneLedger,
  recordLedger,
} from "./shared/idempotency";
import { ensureTables, hasTable } from "./shared/schema";

const CHECKOUT_SCHEMA = "CREATE TABLE IF NOT EXISTS checkout (id TEXT PRIMARY KEY, state TEXT NOT NULL)";
/** Completed and canceled sessions stay readable this long, then the object clears itself. */
export const CLOSED_RETENTION_MS = 30 * 24 * 3600_000;
/** A completion older than this that never finished (a crash) may be run again. */
export const STALE_COMPLETION_MS = 2 * 60_000;

export interface CheckoutView {
  readonly envelope: CheckoutEnvelope;
  readonly continueUrl: string;
}

export interface CheckoutWrite extends CheckoutView {
  readonly input: CheckoutInput;
  readonly config: CommerceConfig;
  readonly idempotency: IdempotencyInput | undefined;
}

export type CheckoutReply = { kind: "ok"; body: string } | { kind: "not_found" } | { kind: "conflict" };

/** What the Worker's completion step needs to do, when the object says so. */
export type CompletionStart =
  | { kind: "reply"; reply: CheckoutReply }
  | { kind: "run"; plan: CompletionPlan; checkout: CheckoutState };

export class CheckoutObject extends DurableObject<Env> {
  async create(command: CheckoutWrite & { base: CheckoutBase }): Promise<CheckoutReply> {
    const now = Date.now();
    const reply = this.#transact(() => {
      ensureTables(this.ctx.storage.sql, [CHECKOUT_SCHEMA, LEDGER_SCHEMA]);
      const seen = this.#ledger(command.idempotency, now);
      if (seen) return seen;
      const checkout = this.#load(now) ?? computeCheckout(undefined, command.base, command.input, command.config, now);
      this.#save(checkout);
      return this.#record(command, checkoutPayload(checkout, command.envelope, command.continueUrl), now);
    });
    await this.#arm();
    return reply;
  }

  /** The session's status, or null when there is none (writes nothing). */
  async status(): Promise<CheckoutState["status"] | null> {
    return this.#exists() ? (this.#load(Date.now())?.status ?? null) : null;
  }

  async read(view: CheckoutView): Promise<CheckoutReply> {
    const checkout = this.#exists() ? this.#load(Date.now()) : undefined;
    if (!checkout) return { kind: "not_found" };
    return { kind: "ok", body: JSON.stringify(checkoutPayload(checkout, view.envelope, view.continueUrl)) };
  }

  /** Full replacement of what the platform may write; closed sessions change nothing. */
  async update(command: CheckoutWrite): Promise<CheckoutReply> {
    if (!this.#exists()) return { kind: "not_found" };
    const now = Date.now();
    const reply = this.#transact(() => {
      const seen = this.#ledger(command.idempotency, now);
      if (seen) return seen;
      const checkout = this.#load(now);
      if (!checkout) return { kind: "not_found" } as const;
      if (
        checkout.status !== "incomplete" &&
        checkout.status !== "ready_for_complete" &&
        checkout.status !== "requires_escalation"
      ) {
        return this.#refuse(checkout, command, "update");
      }
      const next = computeCheckout(checkout, checkout, command.input, command.config, now);
      this.#save(next);
      return this.#record(command, checkoutPayload(next, command.envelope, command.continueUrl), now);
    });
    await this.#arm();
    return reply;
  }

  async cancel(command: CheckoutView & { idempotency: IdempotencyInput }): Promise<CheckoutReply> {
    if (!this.#exists()) return { kind: "not_found" };
    const now = Date.now();
    const reply = this.#transact(() => {
      const seen = this.#ledger(command.idempotency, now);
      if (seen) return seen;
      const checkout = this.#load(now);
      if (!checkout) return { kind: "not_found" } as const;
      if (TERMINAL.has(checkout.status) || checkout.status === "complete_in_progress") {
        return this.#refuse(checkout, command, "cancel");
      }
      const canceled: CheckoutState = { ...checkout, status: "canceled", messages: [] };
      this.#save(canceled);
      return this.#record(command, checkoutPayload(canceled, command.envelope, command.continueUrl), now);
    });
    await this.#arm();
    return reply;
  }

  /** Step 1 of completion: check, then mark complete_in_progress (or answer right away). */
  async beginCompletion(
    command: CheckoutView & { idempotency: IdempotencyInput; request: CheckoutComplete; handlerIds: string[] },
  ): Promise<CompletionStart> {
    if (!this.#exists()) return { kind: "reply", reply: { kind: "not_found" } };
    const now = Date.now();
    return this.#transact((): CompletionStart => {
      const seen = this.#ledger(command.idempotency, now);
      if (seen) return { kind: "reply", reply: seen };
      const checkout = this.#load(now);
      if (!checkout) return { kind: "reply", reply: { kind: "not_found" } };
      const started = checkout.status === "complete_in_progress" ? this.#startedAt() : undefined;
      if (started !== undefined && now - started < STALE_COMPLETION_MS) {
        // Another completion is running: say so without waiting for it (not recorded).
        return { kind: "reply", reply: this.#show(checkout, command, [progressInfo()]) };
      }
      const plan = planCompletion(checkout, command.request, command.handlerIds);
      if (!plan.ok) {
        return { kind: "reply", reply: this.#record(command, this.#payload(checkout, command, plan.error), now) };
      }
      const running: CheckoutState = {
        ...checkout,
        status: "complete_in_progress",
        payment: { instruments: command.request.payment.instruments.map(saveInstrument) },
      };
      this.#save(running);
      this.ctx.storage.sql.exec(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('completion_started', ?)",
        String(now),
      );
      return { kind: "run", plan: plan.value, checkout: running };
    });
  }

  /** Step 3 of completion: record the outcome of reserving, charging and placing. */
  async finishCompletion(
    command: CheckoutView & { idempotency: IdempotencyInput; outcome: Parameters<typeof settleCompletion>[1] },
  ): Promise<CheckoutReply> {
    const now = Date.now();
    const reply = this.#transact(() => {
      const checkout = this.#load(now);
      if (!checkout) return { kind: "not_found" } as const;
      const settled = settleCompletion(checkout, command.outcome);
      this.#save(settled);
      this.ctx.storage.sql.exec("DELETE FROM meta WHERE key = 'completion_started'");
      return this.#record(command, checkoutPayload(settled, command.envelope, command.continueUrl), now);
    });
    await this.#arm();
    return reply;
  }

  /** Expiry cancels an open session; closed sessions go after their retention. At-least-once safe. */
  override async alarm(): Promise<void> {
    if (!this.#exists()) return;
    const now = Date.now();
    this.#transact(() => {
      const checkout = this.#stored();
      if (checkout && isExpired(checkout, now) && checkout.status !== "complete_in_progress") {
        this.#save({ ...checkout, status: "canceled", messages: [expiredInfo()] });
      }
      pruneLedger(this.ctx.storage.sql, now);
    });
    const checkout = this.#stored();
    if (checkout && TERMINAL.has(checkout.status) && now >= checkout.expires_at + CLOSED_RETENTION_MS) {
      await this.ctx.storage.deleteAll();
      return;
    }
    await this.#arm();
  }

  #transact<T>(body: () => T): T {
    return this.ctx.storage.transactionSync(() => {
      ensureTables(this.ctx.storage.sql, [
        "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
      ]);
      return body();
    });
  }

  #exists(): boolean {
    return hasTable(this.ctx.storage.sql, "checkout");
  }

  #stored(): CheckoutState | undefined {
    const row = this.ctx.storage.sql.exec<{ state: string }>("SELECT state FROM checkout").toArray()[0];
    return row ? (JSON.parse(row.state) as CheckoutState) : undefined;
  }

  /** The session as of `now`: an open session past expires_at reads as canceled. */
  #load(now: number): CheckoutState | undefined {
    const checkout = this.#stored();
    if (checkout && isExpired(checkout, now) && checkout.status !== "complete_in_progress") {
      return { ...checkout, status: "canceled", messages: [expiredInfo()] };
    }
    return checkout;
  }

  #startedAt(): number | undefined {
    const row = this.ctx.storage.sql
      .exec<{ value: string }>("SELECT value FROM meta WHERE key = 'completion_started'")
      .toArray()[0];
    return row ? Number(row.value) : undefined;
  }

  #save(checkout: CheckoutState): void {
    this.ctx.storage.sql.exec(
      "INSERT OR REPLACE INTO checkout (id, state) VALUES (?, ?)",
      checkout.id,
      JSON.stringify(checkout),
    );
  }

  #ledger(idempotency: IdempotencyInput | undefined, now: number): CheckoutReply | undefined {
    return priorAnswer(this.ctx.storage.sql, idempotency, now);
  }

  #payload(checkout: CheckoutState, view: CheckoutView, extra: readonly Message[]) {
    return checkoutPayload(
      { ...checkout, messages: [...checkout.messages, ...extra] },
      view.envelope,
      view.continueUrl,
    );
  }

  #show(checkout: CheckoutState, view: CheckoutView, extra: readonly Message[]): CheckoutReply {
    return { kind: "ok", body: JSON.stringify(this.#payload(checkout, view, extra)) };
  }

  /** A closed session answers with itself and a clear error; it is not changed. */
  #refuse(
    checkout: CheckoutState,
    command: CheckoutView & { idempotency: IdempotencyInput | undefined },
    op: string,
  ): CheckoutReply {
    const message: Message = {
      type: "error",
      code: "invalid_status",
      content: `This checkout is ${checkout.status.replaceAll("_", " ")}; ${op} is no longer possible.`,
      severity: "unrecoverable",
    };
    return this.#record(command, this.#payload(checkout, command, [message]), Date.now());
  }

  #record(command: { idempotency: IdempotencyInput | undefined }, payload: unknown, now: number): CheckoutReply {
    const body = JSON.stringify(payload);
    if (command.idempotency) recordLedger(this.ctx.storage.sql, command.idempotency, body, now);
    return { kind: "ok", body };
  }

  /** One alarm at the earliest deadline: expiry of an open session, ledger retention, or closed retention. */
  async #arm(): Promise<void> {
    const checkout = this.#stored();
    const deadlines = [
      checkout && !TERMINAL.has(checkout.status) ? checkout.expires_at : undefined,
      checkout && TERMINAL.has(checkout.status) ? checkout.expires_at + CLOSED_RETENTION_MS : undefined,
      ledgerDeadline(this.ctx.storage.sql),
    ].filter((d): d is number => d !== undefined);
    if (deadlines.length > 0) await this.ctx.storage.setAlarm(Math.min(...deadlines));
  }
}

function expiredInfo(): Message {
  return { type: "info", code: "expired", content: "This checkout expired and was canceled." };
}

function progressInfo(): Message {
  return {
    type: "info",
    code: "complete_in_progress",
    content: "This checkout is being completed; get it again shortly.",
  };
}
