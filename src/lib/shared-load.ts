/**
 * One load at a time per isolate, shared by the requests that arrive while it runs, made safe
 * for workerd. A request that only awaits a promise settled by another request's I/O has
 * nothing pending of its own, and workerd may cancel it as hung ("your Worker's code had hung
 * and would never generate a response", a 500): seen under load for the catalog refresh
 * (docs/benchmarks.md, memory). So every joiner waits under a timer of its own, and if the
 * shared load has not settled by then (its leading request was cancelled and its I/O will
 * never finish), the joiner drops it and loads for itself.
 */
const LATE = Symbol("late");

export class SharedLoad<T> {
  #flight: { promise: Promise<T>; startedAt: number } | undefined;

  constructor(readonly deadlineMs: number) {}

  run(now: number, load: () => Promise<T>): Promise<T> {
    const flight = this.#flight;
    // The leader's own I/O keeps its request alive; only a joiner needs a timer of its own.
    if (!flight || now - flight.startedAt > this.deadlineMs) return this.#start(now, load).promise;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<typeof LATE>((resolve) => {
      timer = setTimeout(() => resolve(LATE), this.deadlineMs);
    });
    return Promise.race([flight.promise, late])
      .then((result) => {
        if (result !== LATE) return result;
        if (this.#flight === flight) this.#flight = undefined;
        return load();
      })
      .finally(() => {
        if (timer !== undefined) clearTimeout(timer);
      });
  }

  /** Test hook: forget the load in flight. */
  clear(): void {
    this.#flight = undefined;
  }

  #start(now: number, load: () => Promise<T>): { promise: Promise<T>; startedAt: number } {
    const flight = { promise: load(), startedAt: now };
    const done = () => {
      if (this.#flight === flight) this.#flight = undefined;
    };
    flight.promise.then(done, done);
    this.#flight = flight;
    return flight;
  }
}
