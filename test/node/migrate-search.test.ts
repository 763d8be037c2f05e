/**
 * `npm run catalog:migrate-search` (issue 28): a store written before D1 search (today's
 * unprefixed layout, searched through the KV index) moves onto D1 search tables built from the
 * served documents, named by the same manifest; a second run changes nothing.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import demo from "../../data/demo-catalog.json";
import { openLocalDatabase } from "../../scripts/lib/d1-writer";
import { openLocalNamespace } from "../../scripts/lib/kv-writer";
import { kvEntries, validateCatalog } from "../../src/catalog/merchant-catalog";
import { searchD1 } from "../../src/catalog/search-d1";

const ROOT = path.resolve(import.meta.dirname, "../..");
vi.setConfig({ testTimeout: 120_000 });
const state = mkdtempSync(path.join(tmpdir(), "ucp-migrate-search-"));
afterAll(() => rmSync(state, { recursive: true, force: true }));

const migrate = () =>
  spawnSync(process.execPath, ["scripts/run.mjs", "scripts/migrate-search.ts", "--persist-to", state], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  });

async function manifest(): Promise<Record<string, unknown>> {
  const { kv, dispose } = await openLocalNamespace(ROOT, { persistTo: state });
  try {
    return JSON.parse((await kv.get("catalog:manifest")) ?? "{}");
  } finally {
    await dispose();
  }
}

describe("catalog:migrate-search", () => {
  it("moves a store on the KV index onto D1, under the same manifest, once", async () => {
    const { catalog } = validateCatalog(demo, "USD");
    if (!catalog) throw new Error("demo catalog invalid");
    const { data, manifest: head } = kvEntries(catalog, "legacy-1", new Date());
    const { kv, dispose } = await openLocalNamespace(ROOT, { persistTo: state });
    try {
      for (const pair of [...data, head]) await kv.put(pair.key, pair.value);
    } finally {
      await dispose();
    }
    const before = await manifest();
    expect(before.search).toBeUndefined();

    const run = migrate();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Moved 68 products onto D1 search/);
    const after = await manifest();
    expect(after).toEqual({ ...before, search: expect.stringMatching(/^[0-9a-z]{12}$/) });

    const { db, dispose: close } = await openLocalDatabase(ROOT, { persistTo: state });
    try {
      const found = await searchD1(db, {
        key: after.search as string,
        stockVersion: "",
        query: "hiking boots",
        filter: {},
        offset: 0,
        limit: 10,
        fractionDigits: 2,
      });
      expect(found.hits[0]?.id).toBe("prod_ridgeline_boot");
    } finally {
      await close();
    }
    const again = migrate();
    expect(again.stdout).toMatch(/Already searched on D1/);
    expect(await manifest()).toEqual(after);
  });
});
