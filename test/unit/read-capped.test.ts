/**
 * readCappedBytes past its cap, in workerd: an incoming request's body is never cancelled
 * (its connection carries the client's next request; test/e2e/wire.e2e.test.ts shows the
 * connection surviving), while a fetched response's body is (nothing rides on it after).
 */
import { describe, expect, it } from "vitest";
import { readCapped, readCappedBytes } from "../../src/lib/read-capped";

/** A body of `chunks` chunks of `size` bytes that records how far it was read and whether it was cancelled. */
function trackedStream(chunks: number, size: number) {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled === chunks) return controller.close();
      seen.pulled++;
      controller.enqueue(new Uint8Array(size));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { body, seen };
}

describe("readCappedBytes", () => {
  it("reads a body within the cap, declared or streamed", async () => {
    const declared = new Request("https://shop.example.com/", { method: "POST", body: "hello" });
    expect(await readCapped(declared, 5)).toBe("hello");
    const { body } = trackedStream(3, 4);
    const streamed = await readCappedBytes(new Request("https://shop.example.com/", { method: "POST", body }), 12);
    expect(streamed?.byteLength).toBe(12);
  });

  it("drains, never cancels, a request body that streams past the cap", async () => {
    const { body, seen } = trackedStream(10, 1024);
    const request = new Request("https://shop.example.com/", { method: "POST", body });
    expect(await readCappedBytes(request, 2048)).toBeUndefined();
    expect(seen).toEqual({ pulled: 10, cancelled: false });
  });

  it("leaves a request body declared over the cap unread for the runtime to discard", async () => {
    const request = new Request("https://shop.example.com/", {
      method: "POST",
      body: "x".repeat(100),
      headers: { "content-length": "100" },
    });
    expect(await readCappedBytes(request, 10)).toBeUndefined();
    expect(request.bodyUsed).toBe(false);
  });

  it("cancels a fetched response's body past the cap", async () => {
    const { body, seen } = trackedStream(10, 1024);
    expect(await readCappedBytes(new Response(body), 2048)).toBeUndefined();
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThan(10);
  });
});
