/**
 * One console principal's server-side record (named `session:<sid>` for an admin-token
 * session, `access:<email>` for a Cloudflare Access user): whether the session is open, and
 * one-time flashes (a just-issued API key's secret) that the next page shows once.
 *
 * A session cookie is honoured only while its row is here: sign-out deletes everything, so a
 * copied cookie stops working at once and everywhere (a Durable Object is one strongly
 * consistent place; KV would keep answering "open" from caches). Nothing outlives its
 * deadline: the alarm drops expired flashes and, past the session's end, the whole object.
 */
import { DurableObject } from "cloudflare:workers";
import { ObjectStore, tables } from "./shared/kernel";

/** The session's stored layout, step by step (shared/kernel.ts). */
const MIGRATIONS = [
  tables(1, "the session's end and its one-time flashes", [
    `CREATE TABLE IF NOT EXISTS session (
  slot INTEGER PRIMARY KEY CHECK (slot = 1),
  expires_at INTEGER NOT NULL
)`,
    `CREATE TABLE IF NOT EXISTS flash (
  name TEXT PRIMARY KEY,
  body TEXT NOT NULL,
  expires_at INTEGER NOT NULL
)`,
  ]),
];

export class ConsoleSessionObject extends DurableObject<Env> {
  readonly #store = new ObjectStore(this.ctx.storage, MIGRATIONS);

  /** Opens the session until `expiresAt` (epoch ms). */
  async open(expiresAt: number): Promise<void> {
    this.#store.transaction((sql) =>
      sql.exec(
        "INSERT INTO session (slot, expires_at) VALUES (1, ?) ON CONFLICT (slot) DO UPDATE SET expires_at = excluded.expires_at",
        expiresAt,
      ),
    );
    await this.#arm();
  }

  /** Whether the session is open at `now`; a read never creates storage. */
  async isOpen(now: number): Promise<boolean> {
    return this.#store.read(false, (sql) => {
      const row = sql.exec<{ expires_at: number }>("SELECT expires_at FROM session").toArray()[0];
      return row !== undefined && row.expires_at > now;
    });
  }

  /** Ends the session and drops anything it held (a flash not yet shown goes too). Safe to repeat. */
  async close(): Promise<void> {
    await this.#store.deleteAll();
  }

  /** Keeps `body` under `name` until it is taken or `expiresAt`; a second put replaces it. */
  async putFlash(name: string, body: string, expiresAt: number): Promise<void> {
    this.#store.transaction((sql) =>
      sql.exec(
        "INSERT INTO flash (name, body, expires_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET body = excluded.body, expires_at = excluded.expires_at",
        name,
        body,
        expiresAt,
      ),
    );
    await this.#arm();
  }

  /** The flash under `name`, once: it is deleted as it is read (undefined when gone or expired). */
  async takeFlash(name: string, now: number): Promise<string | undefined> {
    if (!this.#store.exists()) return undefined;
    const row = this.#store.transaction((sql) => {
      const found = sql
        .exec<{ body: string; expires_at: number }>("SELECT body, expires_at FROM flash WHERE name = ?", name)
        .toArray()[0];
      if (found) sql.exec("DELETE FROM flash WHERE name = ?", name);
      return found;
    });
    return row && row.expires_at > now ? row.body : undefined;
  }

  /** Alarms are at-least-once: dropping what is past its deadline twice changes nothing. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    if (this.#store.exists())
      this.#store.transaction((sql) => {
        sql.exec("DELETE FROM flash WHERE expires_at <= ?", now);
        sql.exec("DELETE FROM session WHERE expires_at <= ?", now);
      });
    await this.#arm();
  }

  /** The next deadline, or, with nothing left, no storage at all. */
  async #arm(): Promise<void> {
    const deadlines = this.#store.read([], (sql) =>
      sql.exec<{ at: number }>("SELECT expires_at AS at FROM session UNION ALL SELECT expires_at FROM flash").toArray(),
    );
    await this.#store.arm(
      deadlines.map((r) => r.at),
      "delete",
    );
  }
}
