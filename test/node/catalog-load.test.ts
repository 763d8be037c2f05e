/**
 * The catalog loader as a merchant runs it (`node scripts/run.mjs scripts/load-catalog.ts`),
 * against a temporary local KV state, read back through the Worker's own catalog code.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { groupAlive } from "../../bench/purchase/proc";
import type { Message } from "../../schemas/ucp/common";
import { openLocalDatabase } from "../../scripts/lib/d1-writer";
import { openLocalNamespace } from "../../scripts/lib/kv-writer";
import { seedDemoCatalog } from "../../scripts/lib/seed-demo";
import { catalogSnapshot, resetCatalogCache } from "../../src/catalog/kv-catalog";
import { runLookup } from "../../src/catalog/lookup";
import { searchD1 } from "../../src/catalog/search-d1";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BROKEN = path.join(import.meta.dirname, "fixtures/catalog-broken.csv");
const FIXED = path.join(import.meta.dirname, "fixtures/catalog-fixed.csv");

// Each test spawns the loader (esbuild, then Node) a few times on a shared machine.
vi.setConfig({ testTimeout: 120_000 });

let state: string;
beforeEach(() => {
  state = mkdtempSync(path.join(tmpdir(), "ucp-catalog-load-"));
});
afterEach(() => rmSync(state, { recursive: true, force: true }));

function loader(...args: string[]) {
  const run = spawnSync(process.execPath, ["scripts/run.mjs", "scripts/load-catalog.ts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** What the Worker serves for these ids from the state: found ids, and the keys in KV. */
async function served(ids: string[]): Promise<{ found: string[]; keys: string[] }> {
  const { kv, dispose } = await openLocalNamespace(ROOT, { persistTo: state });
  try {
    resetCatalogCache();
    const namespace = kv as unknown as KVNamespace;
    const snapshot = await catalogSnapshot(namespace, Date.now());
    const messages: Message[] = [];
    const products = await runLookup(namespace, snapshot, { ids }, {}, "https://shop.example", messages);
    const keys = (await kv.list()).keys.map((k) => k.name);
    return { found: products.map((p) => p.id), keys };
  } finally {
    await dispose();
  }
}

const FIXED_IDS = ["prod_fx_tee", "prod_fx_mug", "prod_fx_lamp", "prod_fx_shorts", "prod_fx_socks"];
const BROKEN_ROWS = [
  /line 4 \(var_fx_tee_m\): missing value for required column "price"/,
  /line 6 \(var_fx_mug_orange\): currency must be a 3-letter ISO 4217 code, got "US\$"/,
  /line 7 \(var_fx_mug_green\): stock must be a non-negative integer, got "-3"/,
  /line 8 \(var_fx_tee_s\): duplicate variant_id "var_fx_tee_s" \(first used on line 2\)/,
  /line 9: malformed CSV: a double quote inside an unquoted field/,
];

describe("catalog:load with a broken CSV", () => {
  it("--check exits non-zero and names all five broken rows by file line", () => {
    const run = loader(BROKEN, "--check");
    expect(run.status).toBe(1);
    expect(run.stdout).not.toMatch(/all valid/);
    for (const row of BROKEN_ROWS) expect(run.stderr).toMatch(row);
    expect(run.stderr).toMatch(/5 problem\(s\); nothing was loaded/);
  });

  it("the load exits non-zero, writes nothing and nothing is served; the fixed file then loads", async () => {
    const broken = loader(BROKEN, "--persist-to", state);
    expect(broken.status).toBe(1);
    for (const row of BROKEN_ROWS) expect(broken.stderr).toMatch(row);
    expect(await served(FIXED_IDS)).toEqual({ found: [], keys: [] });

    const fixed = loader(FIXED, "--persist-to", state);
    expect(fixed.stderr).toBe("");
    expect(fixed.status).toBe(0);
    expect(fixed.stdout).toMatch(/5 products, 9 variants, all valid/);
    expect(fixed.stdout).toMatch(/wrote 5\/5 products/);
    expect((await served(FIXED_IDS)).found.sort()).toEqual([...FIXED_IDS].sort());
  });
});

describe("catalog:load with ids longer than the store's keys hold", () => {
  it("names the row and writes nothing (KV keys hold 512 bytes: a console load's 'load:<id>:product:' or 'availability:' and the id)", async () => {
    const rows = readFileSync(FIXED, "utf8").split("\n");
    // 600 characters of id: a KV key of 608 bytes, refused by KV half-way through the writes.
    const longProduct = `prod_${"x".repeat(595)}`;
    const longVariant = `var_${"é".repeat(250)}`; // 504 bytes as UTF-8: too long with "availability:"
    const file = path.join(state, "long-ids.csv");
    writeFileSync(
      file,
      rows
        .map((line) =>
          line.replace(/^prod_fx_tee,/, `${longProduct},`).replace(",var_fx_mug_green,", `,${longVariant},`),
        )
        .join("\n"),
    );
    const run = loader(file, "--persist-to", state);
    expect(run.status).toBe(1);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).toMatch(/line 2 \(product prod_x{595}\): \$\.id: 600 bytes; ids can be at most 486 bytes/);
    expect(run.stderr).toMatch(
      /line 7 \(var_é{250}\): \$\.variants\[1\]\.id: 504 bytes; variant ids can be at most 499 bytes/,
    );
    expect(await served(FIXED_IDS)).toEqual({ found: [], keys: [] });
  });
});

describe("catalog:load replaces the catalog", () => {
  it("a reload without some products stops serving them and removes their keys", async () => {
    const onlyB = path.join(state, "only-b.csv");
    const lines = readFileSync(FIXED, "utf8").split("\n");
    // Keep the header and the shorts and socks rows (A = tee, mug, lamp).
    writeFileSync(onlyB, [lines[0], ...lines.filter((l) => /^prod_fx_(shorts|socks),/.test(l))].join("\n"));
    expect(loader(FIXED, "--persist-to", state).status).toBe(0);
    expect((await served(FIXED_IDS)).found).toHaveLength(5);

    const first = (await served(FIXED_IDS)).keys;
    const reload = loader(onlyB, "--persist-to", state);
    expect(reload.status).toBe(0);
    // The replaced version is served no more, and stays whole through its grace period.
    expect(reload.stdout).toMatch(/1 replaced version\(s\) are deleted after 90 s/);
    const after = await served(FIXED_IDS);
    expect(after.found.sort()).toEqual(["prod_fx_shorts", "prod_fx_socks"]);
    const products = (keys: string[]) => keys.filter((k) => /^load:[0-9a-z]{12}:product:/.test(k));
    expect(products(after.keys)).toHaveLength(5 + 2);
    expect(after.keys.filter((k) => k.startsWith("product:"))).toEqual([]);
    // Past it (here: a grace of 0 s), --collect deletes its documents and its search tables.
    const collected = loader("--collect", "--grace", "0", "--persist-to", state);
    expect(collected.status, collected.stderr).toBe(0);
    expect(collected.stdout).toMatch(/Collected 1 replaced catalog version\(s\) \(5 product documents\)/);
    const left = await served(FIXED_IDS);
    expect(left.found.sort()).toEqual(["prod_fx_shorts", "prod_fx_socks"]);
    expect(
      products(left.keys)
        .map((k) => k.replace(/^load:[0-9a-z]{12}:/, ""))
        .sort(),
    ).toEqual(["product:prod_fx_shorts", "product:prod_fx_socks"]);
    expect(products(first).every((k) => !left.keys.includes(k))).toBe(true);
    expect(await searchVersions()).toEqual([2]);
  });

  it("moves a catalog written in today's layout (unprefixed keys) to a version, then collects it", async () => {
    await seedDemoCatalog(ROOT, ["--persist-to", state]);
    const { kv, dispose } = await openLocalNamespace(ROOT, { persistTo: state });
    try {
      // Today's layout, as loads before issue 27 wrote it: product:<id>, the index, no prefix.
      const manifest = JSON.parse((await kv.get("catalog:manifest")) ?? "{}");
      for (const name of (await kv.list()).keys.map((k) => k.name).filter((n) => n.startsWith("load:"))) {
        const bare = name.replace(/^load:[0-9a-z]{12}:/, "");
        await kv.put(
          bare === "index:0" ? "catalog:index:0" : bare === "stock" ? "catalog:stock" : bare,
          (await kv.get(name)) ?? "",
        );
        await kv.delete(name);
      }
      const { keys: _k, search: _s, ...legacy } = manifest;
      await kv.put("catalog:manifest", JSON.stringify(legacy));
    } finally {
      await dispose();
    }
    expect((await served(["prod_abc123"])).found).toEqual(["prod_abc123"]);
    expect(loader(FIXED, "--persist-to", state, "--grace", "0").status).toBe(0);
    const after = await served([...FIXED_IDS, "prod_abc123"]);
    expect(after.found).toHaveLength(5);
    expect(after.keys.filter((k) => k.startsWith("product:") || k.startsWith("catalog:index"))).toEqual([]);
  });
});

describe("catalog:load killed halfway", () => {
  it("leaves the old catalog served, whole: documents and search", async () => {
    expect(loader(FIXED, "--persist-to", state).status).toBe(0);
    const before = await served(FIXED_IDS);
    const manifest = (await manifestOf()) as { search: string; keys: string };
    const big = path.join(state, "big.csv");
    const rows = ["product_id,title,description,variant_id,sku,price,currency,availability,stock"];
    for (let n = 1; n <= 12_000; n++)
      rows.push(`prod_k${n},Killed Lamp ${n},A lamp,var_k${n},SKU-K${n},${500 + n},USD,in_stock,5`);
    writeFileSync(big, `${rows.join("\n")}\n`);
    // Killed (SIGKILL: no cleanup) once its first 5,000 documents and their search rows are
    // written, with its whole process group, as a terminal's Ctrl-C reaches it: the loader's
    // local workerd goes too (killed alone, the loader left it running after the test).
    const child = spawn(process.execPath, ["scripts/run.mjs", "scripts/load-catalog.ts", big, "--persist-to", state], {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
      detached: true,
    });
    let out = "";
    await new Promise<void>((resolve) => {
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (/wrote 5000\/12000 products/.test(out)) process.kill(-(child.pid as number), "SIGKILL");
      });
      child.on("exit", () => resolve());
    });
    // Gone within moments (SIGKILL is not ignorable): nothing of the loader outlives the test.
    await vi.waitUntil(() => !groupAlive(child.pid as number), { timeout: 5000, interval: 50 });
    expect(out).toMatch(/wrote 5000\/12000 products/);
    expect(out).not.toMatch(/Loaded/);
    const after = await served([...FIXED_IDS, "prod_k1", "prod_k4999"]);
    expect(after.found.sort()).toEqual([...before.found].sort());
    expect(after.keys.some((k) => k.endsWith(":product:prod_k1"))).toBe(true);
    expect(await manifestOf()).toEqual(expect.objectContaining({ search: manifest.search, keys: manifest.keys }));
    const { db, dispose } = await openLocalDatabase(ROOT, { persistTo: state });
    try {
      const hits = await searchD1(db, {
        key: manifest.search,
        stockVersion: "",
        query: "killed lamp",
        filter: {},
        offset: 0,
        limit: 10,
        fractionDigits: 2,
      });
      expect(hits.hits).toEqual([]);
      const tee = await searchD1(db, {
        key: manifest.search,
        stockVersion: "",
        query: "tee",
        filter: {},
        offset: 0,
        limit: 10,
        fractionDigits: 2,
      });
      expect(tee.hits.map((h) => h.id)).toContain("prod_fx_tee");
    } finally {
      await dispose();
    }
  });
});

async function manifestOf(): Promise<unknown> {
  const { kv, dispose } = await openLocalNamespace(ROOT, { persistTo: state });
  try {
    return JSON.parse((await kv.get("catalog:manifest")) ?? "null");
  } finally {
    await dispose();
  }
}

describe("catalog:load mistakes are one line, never a stack trace", () => {
  it.each([
    [["missing.csv", "--check"], 1, /^error: missing\.csv: no such file$/],
    [["test", "--check"], 1, /^error: test: expected a \.json or \.csv catalog file$/],
    [["folder.csv", "--check"], 1, /^error: folder\.csv is a folder, not a catalog file$/],
    [[], 2, /^error: usage: npm run catalog:load/],
    [[FIXED, "--frobnicate"], 2, /^error: Unknown option '--frobnicate'/],
    [[FIXED, "--env"], 2, /^error: Option '--env <value>' argument missing/],
  ])("%j", (args, status, message) => {
    mkdirSync(path.join(ROOT, "node_modules/.cache/ucp-test-folder.csv"), { recursive: true });
    const fixed = args.map((a) => (a === "folder.csv" ? "node_modules/.cache/ucp-test-folder.csv" : a));
    const run = loader(...fixed);
    expect(run.status).toBe(status);
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]?.replace("node_modules/.cache/ucp-test-", "")).toMatch(message);
  });
});

describe("npm start seeds the demo catalog", () => {
  it("into an empty store, never over a loaded catalog, and over it with --demo (not passed on)", async () => {
    const args = ["--persist-to", state, "--port", "9999"];
    expect(await seedDemoCatalog(ROOT, args)).toEqual(args);
    expect((await served(["prod_abc123"])).found).toEqual(["prod_abc123"]);

    expect(loader(FIXED, "--persist-to", state).status).toBe(0);
    expect(await seedDemoCatalog(ROOT, args)).toEqual(args);
    const kept = await served(["prod_abc123", "prod_fx_tee"]);
    expect(kept.found).toEqual(["prod_fx_tee"]);
    expect(kept.keys).not.toContain("product:prod_abc123");

    expect(await seedDemoCatalog(ROOT, ["--demo", ...args])).toEqual(args);
    expect((await served(["prod_abc123", "prod_fx_tee"])).found).toEqual(["prod_abc123"]);
  });
});

/** Products in each D1 search version of the state (one s_<key>_doc table per version). */
async function searchVersions(): Promise<number[]> {
  const { db, dispose } = await openLocalDatabase(ROOT, { persistTo: state });
  try {
    const tables = await db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 's_*_doc'")
      .all<{ name: string }>();
    return await Promise.all(
      tables.results.map(
        async (t) => (await db.prepare(`SELECT count(*) AS n FROM ${t.name}`).first<{ n: number }>())?.n ?? 0,
      ),
    );
  } finally {
    await dispose();
  }
}
