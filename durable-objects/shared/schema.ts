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

/** The table a single `CREATE TABLE IF NOT EXISTS` statement makes (none for anything else). */
function createdTable(statement: string): string | undefined {
  return statement.includes(";") ? undefined : CREATED.exec(statement)?.[1];
}

/**
 * One exec for all the statements a new object needs: it pays one call into SQLite, not one
 * per table. A table already known here is skipped (its `IF NOT EXISTS` would do nothing), so
 * an object may name its tables on every write and pay only once per instance. The tables
 * made are then known (forgotten with the rest if a transaction around this rolls back), so
 * the first read of each asks sqlite_master nothing.
 */
export function ensureTables(sql: SqlStorage, statements: readonly string[]): void {
  const known = seen.get(sql) ?? new Set<string>();
  const needed = statements.filter((statement) => {
    const table = createdTable(statement);
    return table === undefined || !known.has(table);
  });
  if (needed.length === 0) return;
  sql.exec(needed.join(";\n"));
  seen.set(sql, known);
  for (const statement of needed) {
    const table = createdTable(statement);
    if (table) known.add(table);
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
