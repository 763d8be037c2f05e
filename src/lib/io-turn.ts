/**
 * Wait for the runtime's next look at its sockets before starting a request's work.
 *
 * workerd runs an event loop (KJ) that checks sockets and timers only once its queue of ready
 * work is empty; it never interrupts a busy queue to poll. A purchase journey keeps that queue
 * busy: each step is a chain of Durable Object calls, and a client on a kept-alive connection
 * whose next request is already in the socket when the previous answer is written is read
 * without a poll. Under load those connections go round and round while a connection whose
 * request arrived a moment later waits, unread, until the queue happens to drain: seconds at
 * 32 clients (docs/benchmarks.md, "Why some requests waited seconds"), and past the 5 s
 * keep-alive limit the runtime closes the connection under the waiting request (ECONNRESET).
 *
 * A timer only fires at that poll, so a request that first waits on one joins the requests the
 * poll finds instead of jumping ahead of them. It costs one timer per request.
 */
export function nextIoTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
