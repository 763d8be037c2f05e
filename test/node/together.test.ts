/**
 * The order's follow-up hands back the answers of sends started side by side together
 * (durable-objects/order/together.ts), so the writes after them share one commit.
 */
import { describe, expect, it } from "vitest";
import { Together } from "../../durable-objects/order/together";

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const turns = () => new Promise((r) => setTimeout(r, 0));

describe("Together", () => {
  it("an answer that comes first waits for the other send, then both continue in the same turn", async () => {
    const together = new Together();
    const index = deferred<string>();
    const webhook = deferred<number>();
    const seen: string[] = [];
    const a = together.send(index.promise).then((v) => seen.push(`index ${v}`));
    const b = together.send(webhook.promise).then((v) => seen.push(`webhook ${v}`));
    index.resolve("sent");
    await turns();
    expect(seen).toEqual([]);
    webhook.resolve(200);
    // Both continuations run before any timer: one turn, so one commit of the writes after them.
    await new Promise<void>((r) => queueMicrotask(r));
    await Promise.all([a, b]);
    expect(seen).toEqual(["index sent", "webhook 200"]);
  });

  it("a failed send still lets the other answer, and its error reaches its own caller", async () => {
    const together = new Together();
    const index = deferred<string>();
    const webhook = deferred<number>();
    const a = together.send(index.promise);
    const b = together.send(webhook.promise);
    webhook.reject(new Error("receiver down"));
    await turns();
    index.resolve("sent");
    await expect(a).resolves.toBe("sent");
    await expect(b).rejects.toThrow("receiver down");
  });

  it("a send that joins after the others settled answers on its own", async () => {
    const together = new Together();
    await expect(together.send(Promise.resolve(1))).resolves.toBe(1);
    const late = deferred<number>();
    const answer = together.send(late.promise);
    late.resolve(2);
    await expect(answer).resolves.toBe(2);
  });

  it("a send that joins while another is pending is waited for too", async () => {
    const together = new Together();
    const first = deferred<string>();
    const second = deferred<string>();
    let firstDone = false;
    const a = together.send(first.promise).then(() => {
      firstDone = true;
    });
    first.resolve("a");
    // Joins before the first's answer is handed back (the first is still settling).
    const b = together.send(second.promise);
    await turns();
    expect(firstDone).toBe(false);
    second.resolve("b");
    await Promise.all([a, b]);
    expect(firstDone).toBe(true);
  });
});
