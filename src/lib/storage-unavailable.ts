/**
 * Thrown when a store the Worker reads (the catalog's KV namespace) fails to answer: the
 * store is unavailable for now, not broken. The MCP and REST endpoints answer it like an
 * object that cannot be reached, `unavailable()` (-32000 / 503, retry_after), with one log
 * line naming the store; it is never an internal error.
 */
export class StorageUnavailable extends Error {
  override readonly name = "StorageUnavailable";
  constructor(
    readonly store: string,
    cause: unknown,
  ) {
    super(`${store} storage unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** Its one log line where a person's page or the admin API answers it (src/router.ts, src/admin/). */
export function logUnavailable(e: StorageUnavailable): void {
  console.error(JSON.stringify({ event: "storage_unavailable", store: e.store, error: e.message }));
}

/**
 * For a read's `.catch`: a failed read is StorageUnavailable, except text that is not JSON
 * (a `"json"` read parses in the binding), which is corrupted content and stays what it is.
 */
export function unavailableUnlessCorrupt(store: string): (e: unknown) => never {
  return (e) => {
    if (e instanceof SyntaxError) throw e;
    throw new StorageUnavailable(store, e);
  };
}
