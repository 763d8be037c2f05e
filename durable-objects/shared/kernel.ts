/**
 * The one mutation kernel every object's state goes through (issue 27): its stored layout
 * (a schema-version row and numbered migrations), the transaction, the owner check, the
 * idempotency ledger, and the alarm. The object classes keep only their domain steps.
 *
 * Layout. Each object names its migrations, numbered from 1; `schema_version` holds the
 * highest one applied. An object written before the version row existed (it has tables but
 * no row) is at version 0 and is brought up by every step, so each step must accept what any
 * earlier build wrote (migration 1 is today's tables with `IF NOT EXISTS`). A later change
 * is a new step, never an edit of an old one, with a test that opens state the step before
 * it wrote (test/do/kernel-migrations.test.ts).
 *
 * Nothing is written for a read: an id only ever read (unknown, expired, junk) leaves no
 * storage behind, and a read of an older layout sees it migrated in a transaction that
 * rolls back (ObjectStore.read); the object's first change migrates it for good.
 * What is stored is learnt once per instance (one sqlite_master query), forgotten when a
 * transaction rolls back or the storage is deleted.
 */
import {
  type IdempotencyInput,
  LEDGER_SCHEMA,
  ledgerDeadline,
  priorAnswer,
  pruneLedger,
  recordLedger,
} from "./idempotency";

export type { IdempotencyInput };

import type { ObjectReply } from "./object-reply";
import { type Caller, claimOwner, mayAct, mayActFor } from "./owner";

/** One numbered step of an object's stored layout: synchronous SQL, run in a transaction. */
export interface Migration {
  readonly version: number;
  /** What the step changes, for the log and for readers of the list. */
  readonly does: string;
  readonly up: (sql: SqlStorage) => void;
  /** The step that makes the idempotency ledger: the object keeps one (its expiry arms the alarm). */
  readonly ledger?: true;
}

/** A step made of `CREATE … IF NOT EXISTS` statements (one exec: one call into SQLite). */
export const tables = (version: number, does: string, statements: readonly string[]): Migration => ({
  version,
  does,
  up: (sql) => sql.exec(statements.join(";\n")),
});

/** The ledger's table, a step every object with a ledger lists. */
export const ledgerTable = (version: number): Migration => ({
  ...tables(version, "the idempotency ledger", [LEDGER_SCHEMA]),
  ledger: true,
});

const VERSION_SCHEMA = `CREATE TABLE IF NOT EXISTS schema_version (
  slot INTEGER PRIMARY KEY CHECK (slot = 1),
  version INTEGER NOT NULL
)`;

const NOT_FOUND = { kind: "not_found" } as const;

/** Thrown to roll back a read's migration (ObjectStore.read). */
const ROLLBACK = Symbol("rollback");

/** `absent`: nothing stored; otherwise the layout version stored (0: written before the row). */
type Stored = { kind: "absent" } | { kind: "at"; version: number };

/** What the kernel itself answers a change: a replay, a conflict, or not_found for a caller it may not act for. */
type KernelAnswer = Exclude<ObjectReply, { kind: "not_owner" }>;

export interface MutationOptions {
  readonly now: number;
  /** Who asks; absent: the merchant or the object's own work (no owner check). */
  readonly caller?: Caller;
  readonly idempotency?: IdempotencyInput;
  /** A create: the caller claims the object (shared/owner.ts claimOwner), or is answered `taken`. */
  readonly creates?: boolean;
}

export class ObjectStore {
  #stored: Stored | undefined;
  readonly #latest: number;
  readonly #ledger: boolean;

  constructor(
    readonly storage: DurableObjectStorage,
    readonly migrations: readonly Migration[],
  ) {
    migrations.forEach((m, i) => {
      if (m.version !== i + 1) throw new Error(`migrations must be numbered 1, 2, …: found ${m.version} at ${i + 1}`);
    });
    this.#latest = migrations.length;
    this.#ledger = migrations.some((m) => m.ledger);
  }

  get sql(): SqlStorage {
    return this.storage.sql;
  }

  /** Whether the object has any state (of any layout). Writes nothing. */
  exists(): boolean {
    return this.#read().kind === "at";
  }

  /**
   * A read: `empty` when nothing is stored; else `body` on the latest layout. A read writes
   * nothing, so an object of an older layout is read in a transaction that migrates it and
   * rolls back: the body sees every table (the ones an older build never made are empty),
   * and the object's first change migrates it for good.
   */
  read<T>(empty: T, body: (sql: SqlStorage) => T): T {
    return this.#relearning(() => this.#readOnce(empty, body));
  }

  /** A read for a caller: `not_found`, as for nothing stored, unless it may act on the object (shared/owner.ts). */
  readFor(caller: Caller, body: (sql: SqlStorage) => ObjectReply): ObjectReply {
    return this.read<ObjectReply>(NOT_FOUND, (sql) => (mayAct(sql, caller) ? body(sql) : NOT_FOUND));
  }

  #readOnce<T>(empty: T, body: (sql: SqlStorage) => T): T {
    const stored = this.#read();
    if (stored.kind === "absent") return empty;
    if (stored.version >= this.#latest) return body(this.sql);
    let result: { value: T } | undefined;
    try {
      this.storage.transactionSync(() => {
        this.#steps(stored.version);
        result = { value: body(this.sql) };
        throw ROLLBACK;
      });
    } catch (e) {
      if (e !== ROLLBACK) throw e;
    }
    return (result as { value: T }).value;
  }

  /** One synchronous transaction on the latest layout (migrating first, creating on first write). */
  transaction<T>(body: (sql: SqlStorage) => T): T {
    return this.#relearning(() => {
      try {
        return this.storage.transactionSync(() => {
          this.#migrate();
          return body(this.sql);
        });
      } catch (e) {
        this.#stored = undefined;
        throw e;
      }
    });
  }

  /**
   * Runs `work` again, once, when it met a missing table while the layout was known from
   * before: storage deleted behind this instance's back (a test's wipe of
   * state.storage) is learnt afresh, not a failed call. A transaction that failed rolled back.
   */
  #relearning<T>(work: () => T): T {
    const known = this.#stored !== undefined;
    try {
      return work();
    } catch (e) {
      if (!known || !(e instanceof Error) || !e.message.includes("no such table")) throw e;
      this.#stored = undefined;
      return work();
    }
  }

  /**
   * A change for a caller: in one transaction, a create's claim, the owner check (anyone the object may not
   * act for is answered `not_found`, shared/owner.ts), the ledger (a repeated key replays its
   * answer, a reused one is a conflict), the domain step, and the ledger record of an `ok`.
   */
  mutate<R extends { readonly kind: string } = ObjectReply>(
    options: MutationOptions,
    step: (sql: SqlStorage) => R,
  ): R | KernelAnswer {
    return this.transaction((sql): R | KernelAnswer => {
      if (options.creates && options.caller) {
        const claim = claimOwner(sql, options.caller);
        if (claim.taken) return { kind: "taken" };
        if (!mayActFor(claim.owner, options.caller)) return NOT_FOUND;
      } else if (options.caller !== undefined && !mayAct(sql, options.caller)) return NOT_FOUND;
      const prior = priorAnswer(sql, options.idempotency, options.now);
      if (prior) return prior;
      const reply = step(sql);
      if (reply.kind === "ok" && "body" in reply && typeof reply.body === "string")
        this.recordAnswer(options.idempotency, reply.body, options.now);
      return reply;
    });
  }

  /**
   * Inside a transaction: records an answer made after its change's transaction (a
   * completion's steps run between the two), so a repeated key replays it as mutate's would.
   */
  recordAnswer(idempotency: IdempotencyInput | undefined, body: string, now: number): void {
    if (idempotency) recordLedger(this.sql, idempotency, body, now);
  }

  /**
   * One alarm at the earliest of `deadlines` and the ledger's expiry. With none left, `idle`
   * says what happens: `delete` drops the object's storage (a session past its end), `keep`
   * only the alarm.
   */
  async arm(deadlines: ReadonlyArray<number | undefined>, idle: "delete" | "keep"): Promise<void> {
    const ledger = this.#ledger ? this.read(undefined, (sql) => ledgerDeadline(sql)) : undefined;
    const due = [...deadlines, ledger].filter((d): d is number => d !== undefined);
    if (due.length > 0) {
      // Past deadlines (a retry long overdue) mean "now": setAlarm refuses times <= 0.
      await this.storage.setAlarm(Math.max(Math.min(...due), Date.now()));
      return;
    }
    if (idle === "delete") await this.deleteAll();
    else await this.storage.deleteAlarm();
  }

  /** Forgets ledger entries past their retention (the alarm's part of the ledger). */
  pruneLedger(now: number): void {
    if (this.#ledger && this.#read().kind === "at") this.transaction((sql) => pruneLedger(sql, now));
  }

  /** Drops every table (and the alarm); the object is then as if never written. */
  async deleteAll(): Promise<void> {
    try {
      await this.storage.deleteAlarm();
      await this.storage.deleteAll();
    } finally {
      this.#stored = undefined;
    }
  }

  #read(): Stored {
    if (this.#stored) return this.#stored;
    const names = this.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
      )
      .toArray()
      .map((r) => r.name);
    let stored: Stored = { kind: "absent" };
    if (names.includes("schema_version")) {
      const row = this.sql.exec<{ version: number }>("SELECT version FROM schema_version").toArray()[0];
      stored = { kind: "at", version: row?.version ?? 0 };
    } else if (names.length > 0) stored = { kind: "at", version: 0 };
    this.#stored = stored;
    return stored;
  }

  /** Inside a transaction: every step above the stored version, then the row. */
  #migrate(): void {
    const stored = this.#read();
    const from = stored.kind === "at" ? stored.version : 0;
    if (from >= this.#latest) return;
    this.#steps(from);
    this.sql.exec(
      "INSERT INTO schema_version (slot, version) VALUES (1, ?) ON CONFLICT (slot) DO UPDATE SET version = excluded.version",
      this.#latest,
    );
    this.#stored = { kind: "at", version: this.#latest };
  }

  #steps(from: number): void {
    this.sql.exec(VERSION_SCHEMA);
    for (const m of this.migrations.slice(from)) m.up(this.sql);
  }
}
