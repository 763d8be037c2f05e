/**
 * A call to a Durable Object that is tried again, after a short pause, when it failed before
 * the object's own code ran or when the runtime says it may be retried.
 *
 * Why: an object can fail to start. Locally, workerd caps SQLite's heap for the whole process
 * (512 MiB, ~150–200 KiB per open object), and past it a new object fails to open its database
 * until idle ones are evicted; on Cloudflare an object may be reset (a deploy) with
 * `retryable` set. Such an error has no `remote` flag, which every error thrown by an object's
 * own code carries. Answering it with 503 at once failed requests under load
 * (docs/benchmarks.md); a few pauses queue the request instead, and a closed loop of clients
 * then runs at the rate objects can open. The same limit can also fail a statement of an
 * object that did open (SQLITE_NOMEM, thrown from the object's code): its transaction rolled
 * back, and the method is as safe to repeat as any other here, so that is tried again too.
 *
 * Safe because every method called this way may run twice with the same arguments: each is
 * keyed (a session or order id, an idempotency ledger, an attempt id), the premise a client's
 * own retry with its key already relies on. Never retried: `overloaded` (the object is
 * queueing too much; more calls make it worse) and any other error thrown by the object's
 * code.
 */

/** Pauses before each retry (jittered ±50%): ~1.6 s in all before the caller answers 503. */
export const RETRY_PAUSES_MS: readonly number[] = [25, 50, 100, 200, 400, 800];

/** SQLite out of memory: the same heap limit, met by a statement once the database opened. */
const SQLITE_NOMEM = /\bSQLITE_NOMEM\b/;

export function mayRetry(e: unknown): boolean {
  if (typeof e !== "object" || e === null) return false;
  const error = e as { retryable?: unknown; overloaded?: unknown; remote?: unknown; message?: unknown };
  if (error.overloaded === true) return false;
  if (error.retryable === true || error.remote !== true) return true;
  return typeof error.message === "string" && SQLITE_NOMEM.test(error.message);
}

export async function callObject<T>(call: () => Promise<T>, pauses: readonly number[] = RETRY_PAUSES_MS): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      // A new stub each time (the thunk makes one): a stub that threw may be broken.
      return await call();
    } catch (e) {
      const pause = pauses[attempt];
      if (pause === undefined || !mayRetry(e)) throw e;
      await new Promise((resolve) => setTimeout(resolve, pause * (0.5 + Math.random())));
    }
  }
}
