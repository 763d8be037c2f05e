/**
 * The catalog refresh is shared by the requests that arrive while it runs. A joined request
 * must not depend on the leading request's I/O alone: workerd cancels a request that waits
 * only on another request's promise as hung (a 500; 7 of 90,000 bench requests, 172 of 30,000
 * with a 200 ms refresh period, docs/benchmarks.md), and a leader cancelled mid-read never
 * settles at all.
 */
import { afterEach, describe, expect, it } from "vitest";
import { catalogSnapshot, REFRESH_JOIN_MS, resetCatalogCache } from "../../src/catalog/kv-catalog";

/** A KV namespace whose manifest reads answer "no catalog" after `delayMs`, or never. */
function manifestKv(answers: Array<number | "never">) {
  let reads = 0;
  const kv = {
    get: () => {
      const answer = answers[reads++] ?? 0;
      if (answer === "never") return new Promise(() => {});
      return new Promise((resolve) => setTimeout(() => resolve(null), answer));
    },
  } as unknown as KVNamespace;
  return { kv, reads: () => reads };
}

describe("catalog refresh shared between requests", () => {
  afterEach(() => resetCatalogCache());

  it("concurrent requests share one refresh that finishes in time", async () => {
    const { kv, reads } = manifestKv([50]);
    const now = Date.now();
    const results = await Promise.all(Array.from({ length: 5 }, () => catalogSnapshot(kv, now)));
    expect(results).toEqual([null, null, null, null, null]);
    expect(reads()).toBe(1);
  });

  it(
    "a request joined to a refresh that never finishes reads KV itself after REFRESH_JOIN_MS",
    async () => {
      const { kv, reads } = manifestKv(["never", 0]);
      const now = Date.now();
      void catalogSnapshot(kv, now); // the leader: its request went away mid-read
      const started = Date.now();
      await expect(catalogSnapshot(kv, now)).resolves.toBeNull();
      expect(Date.now() - started).toBeGreaterThanOrEqual(REFRESH_JOIN_MS - 50);
      expect(reads()).toBe(2);
      // The answer is cached: later requests neither wait nor read.
      await expect(catalogSnapshot(kv, now)).resolves.toBeNull();
      expect(reads()).toBe(2);
    },
    3 * REFRESH_JOIN_MS,
  );
});
