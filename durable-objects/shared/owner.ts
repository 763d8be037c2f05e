/**
 * Who a cart or checkout belongs to (docs/trust.md "Sessions belong to their platform").
 * Recorded once, at creation, in the object's own storage; every later call names its
 * caller and is answered as if the session did not exist unless the caller may act on it:
 *
 * - a session created by an authenticated platform: only that platform (authenticated);
 * - a session created anonymously under profile P: callers naming P, anonymous or P itself
 *   authenticated (the usual hand-off: an agent builds the checkout anonymously, its platform
 *   signs the completion). It stays that way: owners are recorded once, at creation, and a
 *   platform that wants its sessions closed to anonymous callers authenticates from the create.
 *
 * A session stored before owners were recorded has no row and answers nobody (fail closed;
 * such sessions expire on their own within their TTL).
 */
import { hasTable } from "./schema";

/** The caller, as the tool pipeline established it (tier + the profile it acts for). */
export interface Caller {
  readonly profile: string;
  readonly authenticated: boolean;
  /**
   * The buyer, on a page opened with this session's hand-off URL (src/pages/): the Worker set
   * it only after the sealed token opened to this very id, so the owner check admits it.
   */
  readonly handoff?: boolean;
}

export const OWNER_SCHEMA = `CREATE TABLE IF NOT EXISTS owner (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  profile TEXT NOT NULL,
  authenticated INTEGER NOT NULL
)`;

/** At creation (inside its transaction, after OWNER_SCHEMA): first writer wins, later ones change nothing. */
export function recordOwner(sql: SqlStorage, caller: Caller): void {
  sql.exec(
    "INSERT OR IGNORE INTO owner (id, profile, authenticated) VALUES (1, ?, ?)",
    caller.profile,
    caller.authenticated ? 1 : 0,
  );
}

/** Whether `caller` may see and act on this session. */
export function mayAct(sql: SqlStorage, caller: Caller | undefined): boolean {
  if (caller?.handoff === true) return true;
  if (!caller || typeof caller.profile !== "string" || !hasTable(sql, "owner")) return false;
  const row = sql
    .exec<{ profile: string; authenticated: number }>("SELECT profile, authenticated FROM owner")
    .toArray()[0];
  if (!row || row.profile !== caller.profile) return false;
  return row.authenticated === 0 || caller.authenticated === true;
}

/** The profile recorded at creation: whom orders placed from this session belong to. */
export function ownerProfile(sql: SqlStorage): string | undefined {
  if (!hasTable(sql, "owner")) return undefined;
  return sql.exec<{ profile: string }>("SELECT profile FROM owner").toArray()[0]?.profile;
}

/** The owner recorded at creation, as a caller (a buyer acting on this session acts for it). */
export function recordedOwner(sql: SqlStorage): Caller | undefined {
  if (!hasTable(sql, "owner")) return undefined;
  const row = sql
    .exec<{ profile: string; authenticated: number }>("SELECT profile, authenticated FROM owner")
    .toArray()[0];
  return row ? { profile: row.profile, authenticated: row.authenticated === 1 } : undefined;
}
