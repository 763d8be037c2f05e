/**
 * Lazy schema creation: tables are created by the first write, never by a read, so an id
 * that is only ever read (unknown, expired, junk) leaves no storage behind.
 */
export function hasTable(sql: SqlStorage, name: string): boolean {
  return sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name).toArray().length > 0;
}

/** One exec for all the statements: a new object pays one call into SQLite, not one per table. */
export function ensureTables(sql: SqlStorage, statements: readonly string[]): void {
  if (statements.length > 0) sql.exec(statements.join(";\n"));
}
