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
import { deleteAllStorage, ensureTables, hasTable, transaction } from "./shared/schema";

const SESSION_SCHEMA = `CREATE TABLE IF NOT EXISTS session (
  slot INTEGER PRIMARY KEY CHECK (slot = 1),
  expires_at INTEGER NOT NULL
)`;
const FLASH_SCHEMA = `CREATE TABLE IF NOT EXISTS flash (
  name TEXT PRIMARY KEY,
  body TEXT NOT NULL,
  expires_at INTEGER NOT NULL
)`;

export class ConsoleSessionObject extends DurableObject<Env> {
  /** Opens the session until `expiresAt` (epoch ms). */
  async open(expiresAt: number): Promise<void> {
    transaction(this.ctx.storage, () => {
      ensureTables(this.ctx.storage.sql, [SESSION_SCHEMA]);
      this.ctx.storage.sql.exec(
        "INSERT INTO session (slot, expires_at) VALUES (1, ?) ON CONFLICT (slot) DO UPDATE SET expires_at = excluded.expires_at",
        expiresAt,
      );
    });
    await this.#armAlarm();
  }

  /** Whether the session is open at `now`; a read never creates storage. */
  async isOpen(now: number): Promise<boolean> {
    if (!hasTable(this.ctx.storage.sql, "session")) return false;
    const row = this.ctx.storage.sql.exec<{ expires_at: number }>("SELECT expires_at FROM session").toArray()[0];
    return row !== undefined && row.expires_at > now;
  }

  /** Ends the session and drops anything it held (a flash not yet shown goes too). Safe to repeat. */
  async close(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await deleteAllStorage(this.ctx.storage);
  }

  /** Keeps `body` under `name` until it is taken or `expiresAt`; a second put replaces it. */
  async putFlash(name: string, body: string, expiresAt: number): Promise<void> {
    transaction(this.ctx.storage, () => {
      ensureTables(this.ctx.storage.sql, [FLASH_SCHEMA]);
      this.ctx.storage.sql.exec(
        "INSERT INTO flash (name, body, expires_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET body = excluded.body, expires_at = excluded.expires_at",
        name,
        body,
        expiresAt,
      );
    });
    await this.#armAlarm();
  }

  /** The flash under `name`, once: it is deleted as it is read (undefined when gone or expired). */
  async takeFlash(name: string, now: number): Promise<string | undefined> {
    if (!hasTable(this.ctx.storage.sql, "flash")) return undefined;
    const row = transaction(this.ctx.storage, () => {
      const found = this.ctx.storage.sql
        .exec<{ body: string; expires_at: number }>("SELECT body, expires_at FROM flash WHERE name = ?", name)
        .toArray()[0];
      if (found) this.ctx.storage.sql.exec("DELETE FROM flash WHERE name = ?", name);
      return found;
    });
    return row && row.expires_at > now ? row.body : undefined;
  }

  /** Alarms are at-least-once: dropping what is past its deadline twice changes nothing. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    const sql = this.ctx.storage.sql;
    if (hasTable(sql, "flash")) sql.exec("DELETE FROM flash WHERE expires_at <= ?", now);
    if (hasTable(sql, "session")) sql.exec("DELETE FROM session WHERE expires_at <= ?", now);
    await this.#armAlarm();
  }

  /** The next deadline, or, with nothing left, no storage at all. */
  async #armAlarm(): Promise<void> {
    const sql = this.ctx.storage.sql;
    const deadlines = [
      ...(hasTable(sql, "session") ? sql.exec<{ at: number }>("SELECT expires_at AS at FROM session").toArray() : []),
      ...(hasTable(sql, "flash") ? sql.exec<{ at: number }>("SELECT expires_at AS at FROM flash").toArray() : []),
    ].map((r) => r.at);
    if (deadlines.length === 0) {
      await this.close();
      return;
    }
    await this.ctx.storage.setAlarm(Math.max(Math.min(...deadlines), Date.now()));
  }
}
