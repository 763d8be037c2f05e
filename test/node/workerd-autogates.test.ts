/**
 * The local servers' workerd gets SQLite's larger heap (scripts/lib/local-workerd.ts): the
 * config patch (scripts/lib/workerd-autogates.mjs) keeps Miniflare's config intact and adds
 * the gates, and a Miniflare pointed at scripts/workerd-autogates runs a workerd that has them
 * (workerd's own test gate, read by a Worker through `workerd:unsafe`; an unknown or misspelt
 * gate name would stop workerd from starting, so the SQLite gate's name is checked too).
 */
import path from "node:path";
import { Miniflare, serializeConfig } from "miniflare";
import { afterEach, describe, expect, it } from "vitest";
import { SQLITE_HEAP_GATE, useLocalWorkerd } from "../../scripts/lib/local-workerd";
import { autogatesOf, withAutogates } from "../../scripts/lib/workerd-autogates.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const TEST_GATE = "workerd-autogate-test-workerd";
const WORKER = `import unsafe from "workerd:unsafe";
export default { fetch() { return new Response(String(unsafe.isTestAutogateEnabled())); } };`;

const mini = () =>
  new Miniflare({
    modules: true,
    script: WORKER,
    compatibilityDate: "2025-01-01",
    compatibilityFlags: ["unsafe_module"],
  });

describe("withAutogates", () => {
  it("adds the gates to Miniflare's binary config and leaves the rest of it byte for byte", () => {
    const config = serializeConfig({
      services: [
        { name: "main", worker: { modules: [{ name: "m.mjs", esModule: WORKER }], compatibilityDate: "2025-01-01" } },
      ],
      sockets: [{ name: "http", address: "127.0.0.1:0", http: {}, service: { name: "main" } }],
    });
    expect(autogatesOf(config)).toEqual([]);
    const patched = withAutogates(config, [SQLITE_HEAP_GATE, TEST_GATE]);
    expect(autogatesOf(patched)).toEqual([SQLITE_HEAP_GATE, TEST_GATE]);
    expect(() => withAutogates(patched, [TEST_GATE])).toThrow(/already has autogates/);
    // One segment more; the original one is unchanged but for the autogates pointer.
    expect(patched.readUInt32LE(0)).toBe(config.readUInt32LE(0) + 1);
    const words = config.readUInt32LE(4);
    const before = config.subarray(8, 8 + words * 8);
    const after = patched.subarray(16, 16 + words * 8);
    expect([...after].filter((byte, i) => byte !== before[i]).length).toBeLessThanOrEqual(8);
  });
});

describe("useLocalWorkerd", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of ["MINIFLARE_WORKERD_PATH", "UCP_WORKERD_BIN", "UCP_WORKERD_AUTOGATES"]) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it("is off without it: Miniflare's own workerd has no gates", async () => {
    const mf = mini();
    try {
      expect(await (await mf.dispatchFetch("http://x/")).text()).toBe("false");
    } finally {
      await mf.dispose();
    }
  });

  it("hands Miniflare's workerd the gates, the SQLite heap gate among them", async () => {
    useLocalWorkerd(root, [SQLITE_HEAP_GATE, TEST_GATE]);
    expect(process.env.MINIFLARE_WORKERD_PATH).toBe(path.join(root, "scripts", "workerd-autogates"));
    const mf = mini();
    try {
      expect(await (await mf.dispatchFetch("http://x/")).text()).toBe("true");
    } finally {
      await mf.dispose();
    }
  });

  it("names the SQLite heap gate by default, with the prefix workerd accepts", () => {
    useLocalWorkerd(root);
    expect(process.env.UCP_WORKERD_AUTOGATES).toBe("workerd-autogate-increase-sqlite-hard-heap-limit");
    expect(process.env.UCP_WORKERD_BIN).toMatch(/workerd$/);
  });
});
