/**
 * A call to a Durable Object that is tried again, after a short pause, when it failed before
 * the object's own code ran or when the runtime says it may be retried.
 *
 * Why: an object can fail to start. Locally, workerd caps SQLite's heap for the whole process
 * (512 MiB, ~150–200 KiB per open object), and past it a new object fails to open its database
 * until idle ones are evicted; on Cloudflare an object may be reset (a deploy) with
 * `retryable` set. Such an error has no `remote` flag, which every error thrown by an object's
 * own code carries (without it, the call may also have run and lost its reply: hence the
 * premise below). An error the runtime marks `retryable: false` is not tried again. Answering it with 503 at once failed requests under load
 * (docs/benchmarks.md); a few pauses queue the request instead, and a closed loop of clients
 * then runs at the rate objects can open. The same limit can also fail a statement or a
 * commit of an object that did open (SQLITE_NOMEM, or workerd's "internal error", from within
 * the object's code): its transaction rolled back, and the method is as safe to repeat as any
 * other here, so that is tried again too.
 *
 * Safe because every method called this way may run twice with the same arguments: each is
 * keyed (a session or order id, an idempotency ledger, an attempt id), the premise a client's
 * own retry with its key already relies on. Never retried: `overloaded` (the object is
 * queueing too much; more calls make it worse) and any other error thrown by the object's
 * code, which may be a bug that would only repeat.
 */

/**
 * Pauses before each retry (jittered ±50%): ~2.2 s in all before the caller answers 503,
 * about what a client told `retry_after: 1` spends on a retry of its own. Doubling up to
 * 200 ms, then level: room frees up as idle objects are evicted, and a longer pause would
 * only keep a request waiting after it did (the journey's p99 at C = 32 was 1,004 ms with
 * pauses doubling to 800).
 */
export const RETRY_PAUSES_MS: readonly number[] = [25, 50, 100, ...Array<number>(10).fill(200)];

/**
 * Failures of the runtime inside an object, not of its code: SQLite out of memory (the same
 * heap limit, met by a statement once the database opened), and workerd's opaque internal
 * error, which is what a failed storage step or commit reaches JavaScript as.
 */
const RUNTIME_FAILURE = /\bSQLITE_NOMEM\b|^internal error; reference = /;

export function mayRetry(e: unknown): boolean {
  if (typeof e !== "object" || e === null) return false;
  const error = e as { retryable?: unknown; overloaded?: unknown; remote?: unknown; message?: unknown };
  if (error.overloaded === true) return false;
  if (error.retryable === true) return true;
  if (error.retryable === false) return false;
  if (error.remote !== true) return true;
  return typeof error.message === "string" && RUNTIME_FAILURE.test(error.message);
}

/**
 * No new try once this long has passed since the first: a completion's own object calls
 * retry inside the checkout object's `complete`, which the Worker's call retries in turn, and
 * without a deadline on attempts (not only on pauses) the two would multiply.
 */
export const RETRY_DEADLINE_MS = 2_500;

export async function callObject<T>(
  call: () => Promise<T>,
  pauses: readonly number[] = RETRY_PAUSES_MS,
  deadlineMs = RETRY_DEADLINE_MS,
): Promise<T> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      // A new stub each time (the thunk makes one): a stub that threw may be broken.
      return await call();
    } catch (e) {
      const pause = pauses[attempt];
      if (pause === undefined || !mayRetry(e) || Date.now() - started >= deadlineMs) throw e;
      await new Promise((resolve) => setTimeout(resolve, pause * (0.5 + Math.random())));
    }
  }
}
