/**
 * Object calls tried again (src/lib/object-call.ts): a call that failed before the object's
 * code ran is repeated after short pauses; an error the object's code threw is not, nor one
 * the runtime marks overloaded. The error shapes are workerd's: an error thrown by an object's
 * method arrives with `remote: true` (test/checkout/completion-crash.test.ts relies on that
 * with a real object: its injected fault must reach the client unretried); an object that
 * could not open its database (local SQLite heap limit) fails with a plain Error.
 */
import { describe, expect, it } from "vitest";
import { callObject, mayRetry, RETRY_PAUSES_MS } from "../../../src/lib/object-call";

const unreached = () => new Error("internal error; reference = 05ik8se9ek5nv48h8049hht7");
const fromObject = (message: string) => Object.assign(new Error(message), { remote: true });
const pauses = [1, 1, 1];

function flaky<T>(failures: Error[], value: T) {
  let calls = 0;
  const call = async () => {
    const failure = failures[calls++];
    if (failure) throw failure;
    return value;
  };
  return { call, calls: () => calls };
}

describe("callObject", () => {
  it("repeats a call that never reached the object's code, and answers with its first success", async () => {
    const object = flaky([unreached(), unreached()], "created");
    await expect(callObject(object.call, pauses)).resolves.toBe("created");
    expect(object.calls()).toBe(3);
  });

  it("gives up after its pauses run out, with the last error", async () => {
    const last = unreached();
    const object = flaky([unreached(), unreached(), unreached(), last], "never");
    await expect(callObject(object.call, pauses)).rejects.toBe(last);
    expect(object.calls()).toBe(pauses.length + 1);
  });

  it("never repeats what the object's code threw: it may have acted", async () => {
    const thrown = fromObject("inventory refused the reservation: conflict");
    const object = flaky([thrown], "never");
    await expect(callObject(object.call, pauses)).rejects.toBe(thrown);
    expect(object.calls()).toBe(1);
  });

  it("repeats what the runtime marks retryable, even from the object, but never an overloaded object", async () => {
    const reset = Object.assign(fromObject("Durable Object reset because its code was updated."), { retryable: true });
    const resetOnce = flaky([reset], "read");
    await expect(callObject(resetOnce.call, pauses)).resolves.toBe("read");
    expect(resetOnce.calls()).toBe(2);

    const overloaded = Object.assign(unreached(), { retryable: true, overloaded: true });
    const busy = flaky([overloaded], "never");
    await expect(callObject(busy.call, pauses)).rejects.toBe(overloaded);
    expect(busy.calls()).toBe(1);
  });

  it("gives up at its deadline, so calls that retry inside a retried call do not multiply", async () => {
    const last = unreached();
    const object = flaky([unreached(), unreached(), unreached(), last], "never");
    // Each pause 10 ms (at least 5 with jitter); the deadline passes after the second try's pause.
    await expect(callObject(object.call, [10, 10, 10, 10], 8)).rejects.toBeInstanceOf(Error);
    expect(object.calls()).toBeLessThan(4);
  });

  it("pauses between tries", async () => {
    const object = flaky([unreached(), unreached()], "ok");
    const started = performance.now();
    await callObject(object.call, [40, 40]);
    // Jittered ±50%: two pauses of at least 20 ms each (less a timer's rounding).
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
  });

  it("repeats an object's statement that met SQLite's heap limit: its transaction wrote nothing", async () => {
    const object = flaky([fromObject("out of memory: SQLITE_NOMEM")], "created");
    await expect(callObject(object.call, pauses)).resolves.toBe("created");
    expect(object.calls()).toBe(2);
  });

  it("classifies errors by where they came from", () => {
    expect(mayRetry(unreached())).toBe(true);
    expect(mayRetry(fromObject("no such table: nope: SQLITE_ERROR"))).toBe(false);
    expect(mayRetry(fromObject("out of memory: SQLITE_NOMEM"))).toBe(true);
    expect(mayRetry(fromObject("internal error; reference = 9upfpq218ski47qa5rugfri4"))).toBe(true);
    expect(mayRetry(fromObject("checkout failed: internal error; reference = x"))).toBe(false);
    // The runtime's own verdict wins over where the error came from.
    expect(mayRetry(Object.assign(unreached(), { retryable: false }))).toBe(false);
    expect(mayRetry("a string")).toBe(false);
    expect(mayRetry(undefined)).toBe(false);
    expect(RETRY_PAUSES_MS.reduce((a, b) => a + b, 0)).toBeLessThan(2500);
  });
});
