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
 * such sessions expire on their own within their TTL). Every object that keeps an owner
 * makes its table in a numbered migration (shared/kernel.ts), and these run inside the
 * kernel's read or transaction, so the table is there.
 */

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

/**
 * A create's claim, inside its transaction: a new session records `caller` as its owner; an
 * existing one is the caller's only if the same class of caller (anonymous or authenticated)
 * made it. Before the key spaces split (issue 27), an anonymous caller naming P made its
 * sessions at the very ids P's authenticated creates now derive: such a session is never
 * handed to P, who is sent to an id of its own (`taken`). A buyer's hand-off acts for the
 * owner and always may.
 */
export function claimOwner(sql: SqlStorage, caller: Caller): { taken: true } | { taken: false; owner: Caller } {
  const owner = recordedOwner(sql);
  if (!owner) {
    recordOwner(sql, caller);
    return { taken: false, owner: { profile: caller.profile, authenticated: caller.authenticated === true } };
  }
  const mine = caller.handoff === true || owner.authenticated === caller.authenticated;
  return mine ? { taken: false, owner } : { taken: true };
}

/** Whether `caller` may see and act on this session. */
export function mayAct(sql: SqlStorage, caller: Caller | undefined): boolean {
  if (caller?.handoff === true) return true;
  return mayActFor(recordedOwner(sql), caller);
}

/** mayAct on an owner already read (a create's claim read it in the same transaction). */
export function mayActFor(owner: Caller | undefined, caller: Caller | undefined): boolean {
  if (caller?.handoff === true) return true;
  if (!caller || typeof caller.profile !== "string") return false;
  if (!owner || owner.profile !== caller.profile) return false;
  return !owner.authenticated || caller.authenticated === true;
}

/** The profile recorded at creation: whom orders placed from this session belong to. */
export function ownerProfile(sql: SqlStorage): string | undefined {
  return sql.exec<{ profile: string }>("SELECT profile FROM owner").toArray()[0]?.profile;
}

/** The owner recorded at creation, as a caller (a buyer acting on this session acts for it). */
export function recordedOwner(sql: SqlStorage): Caller | undefined {
  const row = sql
    .exec<{ profile: string; authenticated: number }>("SELECT profile, authenticated FROM owner")
    .toArray()[0];
  return row ? { profile: row.profile, authenticated: row.authenticated === 1 } : undefined;
}
