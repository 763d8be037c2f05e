/**
 * Lazy schema creation: tables are created by the first write, never by a read, so an id
 * that is only ever read (unknown, expired, junk) leaves no storage behind.
 *
 * A table once seen stays: objects ask for the same few tables many times per request (who
 * owns the session, a running completion, a payment verification, a restock), and a
 * sqlite_master lookup each time was ~28 per purchase (issue 14). Only two things undo a
 * table, and both go through here: a transaction that rolls back (a table it created and a
 * lookup inside it saw is gone again) and deleteAll.
 */
const seen = new WeakMap<SqlStorage, Set<string>>();

export function hasTable(sql: SqlStorage, name: string): boolean {
  const known = seen.get(sql);
  if (known?.has(name)) return true;
  const exists = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name).toArray().length > 0;
  if (exists) {
    if (known) known.add(name);
    else seen.set(sql, new Set([name]));
  }
  return exists;
}

const CREATED = /^\s*CREATE TABLE IF NOT EXISTS (\w+)/i;

/**
 * One exec for all the statements: a new object pays one call into SQLite, not one per table.
 * The tables they name are then known to exist (forgotten with the rest if a transaction
 * around this rolls back), so the first read of each asks sqlite_master nothing.
 */
export function ensureTables(sql: SqlStorage, statements: readonly string[]): void {
  if (statements.length === 0) return;
  sql.exec(statements.join(";\n"));
  const known = seen.get(sql) ?? new Set<string>();
  seen.set(sql, known);
  for (const statement of statements) {
    const name = CREATED.exec(statement)?.[1];
    if (name) known.add(name);
  }
}

/** storage.transactionSync, forgetting the tables seen when it rolls back. */
export function transaction<T>(storage: DurableObjectStorage, body: () => T): T {
  try {
    return storage.transactionSync(body);
  } catch (e) {
    seen.delete(storage.sql);
    throw e;
  }
}

/** storage.deleteAll, which drops every table. */
export async function deleteAllStorage(storage: DurableObjectStorage): Promise<void> {
  try {
    await storage.deleteAll();
  } finally {
    seen.delete(storage.sql);
  }
}
