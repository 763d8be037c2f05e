/**
 * How search's cost grows with the catalog (issue 28 item 5): for each size, the catalog is
 * loaded once into persisted local state (KV documents, and D1 search tables or the KV index),
 * then the real Worker bundle is started on it in a new workerd and measured:
 *   - cold first search: the first search_catalog answer of a fresh isolate (module load,
 *     profile fetch, then the engine's first read: the KV index's whole hydration, or D1);
 *   - search p50/p99 at C = 8 over the judged query set (bench/relevance-set.ts), closed loop;
 *   - the isolate's JS heap after a full collection, before the first search and after the
 *     load (V8 inspector): what the Worker keeps per isolate;
 *   - load time: generating, validating and writing the catalog.
 *
 *   node --experimental-websocket scripts/run.mjs bench/search-scale.ts
 *     [--products 10000,100000,1000000] [--engine d1|kv] [--state DIR] [--seconds 10] [--port 9401]
 *     [--per-query] [--stages]      (BENCH_BUNDLE=<dir> measures a bundle built elsewhere)
 *
 * State is kept under --state (default /dev/shm/ucp-search-scale) and reused by later runs of the
 * same size and engine (the load is then not repeated; its time is read from the state), so
 * repeated query runs at a million skip its ~40 minute load. --per-query times each judged query
 * alone through the Worker; --stages then runs bench/search-profile.ts on the same state: every
 * D1 statement of each query timed inside workerd, and workerd's CPU per search.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { type Response as MfResponse, Miniflare } from "miniflare";
import type { Product } from "../schemas/ucp/product";
import { CliError } from "../scripts/lib/cli-error";
import { catalogKeys } from "../src/catalog/catalog-keys";
import { indexParts } from "../src/catalog/catalog-load";
import { KV_KEYS } from "../src/catalog/kv-layout";
import { CatalogValidator, servedProduct } from "../src/catalog/merchant-catalog";
import { buildSearchIndex } from "../src/catalog/search-index";
import {
  createTablesSql,
  finishTablesSql,
  insertSql,
  newSearchKey,
  SEARCH_BATCH,
  type SearchRows,
  STORE_TABLES_SQL,
  searchRows,
} from "../src/catalog/search-tables";
import { stockPartCount, stockPartValues } from "../src/catalog/stock-parts";
import { buildBundle, bundleFile } from "./bundle";
import { generateProducts } from "./generate-catalog";
import { openHeapProbe } from "./heap-probe";
import { type LoadResult, runScenario, type Scenario } from "./load";
import { RELEVANCE_SET } from "./relevance-set";
import { searchBody } from "./scenarios";
import { PROFILE_URL } from "./server";

type Engine = "d1" | "kv";

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = process.argv[at + 1];
  if (value === undefined) throw new CliError(`--${name} needs a value`);
  return value;
}

const SIZES = option("products", "10000,100000,1000000").split(",").map(Number);
const ENGINE = option("engine", "d1") as Engine;
// tmpfs: each KV value is a file, and on this machine's ext4 a new file cost milliseconds.
const STATE = path.resolve(option("state", "/dev/shm/ucp-search-scale"));
const SECONDS = Number(option("seconds", "10"));
const PORT = Number(option("port", "9401"));
const SEED = 7;
const root = path.resolve(import.meta.dirname, "..");
const KV_ID = "bench-catalog";
const D1_ID = "bench-catalog-db";

/** Writes what it is posted into the persisted KV and D1: one request per batch of products. */
const SEEDER = `export default {
  async fetch(request, env) {
    const { kv, d1 } = await request.json();
    for (let i = 0; i < kv.length; i += 100) await Promise.all(kv.slice(i, i + 100).map(([k, v]) => env.CATALOG.put(k, v)));
    if (d1.length) await env.DB.batch(d1.map(([sql, param]) => param === null ? env.DB.prepare(sql) : env.DB.prepare(sql).bind(param)));
    return new Response("ok");
  },
};`;

function persisted(dir: string) {
  return { kvPersist: path.join(dir, "kv"), d1Persist: path.join(dir, "d1") };
}

interface SeedRecord {
  readonly products: number;
  readonly variants: number;
  readonly engine: Engine;
  readonly loadSeconds: number;
  readonly searchSeconds: number;
  readonly indexBytes?: number;
}

async function seed(dir: string, count: number, engine: Engine): Promise<SeedRecord> {
  const marker = path.join(dir, "seeded.json");
  if (existsSync(marker)) return JSON.parse(readFileSync(marker, "utf8")) as SeedRecord;
  mkdirSync(dir, { recursive: true });
  const mf = new Miniflare({
    modules: true,
    script: SEEDER,
    kvNamespaces: { CATALOG: KV_ID },
    d1Databases: { DB: D1_ID },
    ...persisted(dir),
  });
  const started = performance.now();
  let searchMs = 0;
  try {
    await mf.ready;
    const post = async (kv: Array<[string, string]>, d1: Array<[string, string | null]>) => {
      const res: MfResponse = await mf.dispatchFetch("http://seed/", {
        method: "POST",
        body: JSON.stringify({ kv, d1 }),
      });
      if (!res.ok) throw new Error(`seed failed: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
    const key = newSearchKey();
    const timed = async (run: () => Promise<void>) => {
      const t = performance.now();
      await run();
      searchMs += performance.now() - t;
    };
    if (engine === "d1")
      await timed(() =>
        post(
          [],
          [...STORE_TABLES_SQL, ...createTablesSql(key)].map((s) => [s, null]),
        ),
      );
    // Two passes over the same generated catalog: the search tables first (a minute at a
    // million), then the documents (KV puts, the slow part), so the tables can be inspected early.
    let validator = new CatalogValidator("USD");
    const walk = async (visit: (product: Product, raw: unknown, n: number) => Promise<void>) => {
      validator = new CatalogValidator("USD");
      let n = 0;
      for (const raw of generateProducts(count, SEED)) {
        const checked = validator.check(raw);
        if (checked.problems) throw new Error(`invalid generated product: ${JSON.stringify(checked.problems)}`);
        await visit(checked.product, raw, n++);
        if (n % 100_000 === 0)
          console.log(`  ${n}/${count} products (${((performance.now() - started) / 1000).toFixed(0)} s)`);
      }
      return n;
    };
    const indexed: Product[] = [];
    let rows: SearchRows[] = [];
    const flushRows = async () => {
      const batch = rows;
      rows = [];
      if (batch.length)
        await timed(() =>
          post(
            [],
            insertSql(key, batch).map(({ statement, param }) => [statement, param]),
          ),
        );
    };
    if (engine === "d1") {
      await walk(async (product, _raw, i) => {
        rows.push(searchRows(i, product));
        if (rows.length >= SEARCH_BATCH) await flushRows();
      });
      await flushRows();
      await timed(() =>
        post(
          [],
          finishTablesSql(key).map((s) => [s, null]),
        ),
      );
    }
    let docs: Array<[string, string]> = [];
    let variants = 0;
    const n = await walk(async (product, raw) => {
      variants += product.variants.length;
      docs.push([KV_KEYS.product(product.id), JSON.stringify(servedProduct(raw))]);
      if (engine === "kv") indexed.push(product);
      if (docs.length >= SEARCH_BATCH) {
        await post(docs, []);
        docs = [];
      }
    });
    await post(docs, []);
    let indexBytes: number | undefined;
    const manifest: Record<string, unknown> = {
      version: `bench-${count}-${SEED}`,
      currency: "USD",
      products: n,
      loaded_at: new Date().toISOString(),
    };
    if (engine === "d1") {
      manifest.search = key;
    } else {
      const json = JSON.stringify(buildSearchIndex(indexed));
      indexBytes = Buffer.byteLength(json);
      const parts = indexParts(json);
      for (const [i, part] of parts.entries()) await post([[KV_KEYS.indexPart(i), part]], []);
      manifest.index_parts = parts.length;
    }
    // The stock map in parts, as loads write it (one value was 49 MB at a million, past KV's limit).
    const stockParts = stockPartValues(validator.stock, stockPartCount(variants));
    for (let i = 0; i < stockParts.length; i += 20)
      await post(
        stockParts.slice(i, i + 20).map((value, j) => [catalogKeys(null).stockPart(i + j), value]),
        [],
      );
    manifest.stock_parts = stockParts.length;
    await post([[KV_KEYS.manifest, JSON.stringify(manifest)]], []);
    const record: SeedRecord = {
      products: n,
      variants,
      engine,
      loadSeconds: (performance.now() - started) / 1000,
      searchSeconds: searchMs / 1000,
      ...(indexBytes !== undefined ? { indexBytes } : {}),
    };
    writeFileSync(marker, JSON.stringify(record));
    return record;
  } finally {
    await mf.dispose();
  }
}

function serve(dir: string, scriptPath: string, port: number, inspectorPort: number): Miniflare {
  return new Miniflare({
    host: "127.0.0.1",
    port,
    inspectorPort,
    logRequests: false,
    name: "ucp-worker",
    modules: true,
    scriptPath,
    modulesRoot: path.dirname(scriptPath),
    compatibilityDate: "2026-04-01",
    compatibilityFlags: ["nodejs_compat"],
    kvNamespaces: { CATALOG: KV_ID, AUTH: "bench-auth" },
    d1Databases: { CATALOG_DB: D1_ID },
    durableObjects: { INVENTORY: { className: "InventoryObject", useSQLite: true } },
    bindings: {
      MERCHANT_NAME: "Bench Store",
      MERCHANT_ORIGIN: "https://bench.example",
      MERCHANT_CURRENCY: "USD",
      PROFILE_FALLBACK: "strict",
      CART_TTL_HOURS: "72",
      ID_SIGNING_KEY: "bench-signing-key",
      PAYMENT_TEST_MODE: "true",
    },
    ratelimits: {
      RATE_LIMIT_ANONYMOUS: { simple: { limit: 10_000_000, period: 60 } },
      RATE_LIMIT_AUTHENTICATED: { simple: { limit: 10_000_000, period: 60 } },
    },
    outboundService: async (request: Request) => {
      const { Response } = await import("miniflare");
      if (request.url !== PROFILE_URL) return new Response("not found", { status: 404 });
      return new Response(JSON.stringify(profileBody()), {
        headers: { "content-type": "application/json", "cache-control": "public, max-age=3600" },
      });
    },
    ...persisted(dir),
  });
}

function profileBody() {
  const capabilities = ["catalog.search", "catalog.lookup", "cart", "checkout", "order", "fulfillment", "discount"];
  return {
    ucp: {
      version: "2026-04-08",
      services: {},
      capabilities: Object.fromEntries(
        capabilities.map((c) => [
          `dev.ucp.shopping.${c}`,
          [
            {
              version: "2026-04-08",
              spec: `https://ucp.dev/2026-04-08/specification/${c}`,
              schema: `https://ucp.dev/2026-04-08/schemas/shopping/${c}.json`,
            },
          ],
        ]),
      ),
      payment_handlers: {},
    },
  };
}

const TOOLS_LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });

/** The isolate's heap after a full collection (ucp-worker's inspector, on PORT + 1). */
async function heapAfterGc(url: string) {
  const send = () =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: TOOLS_LIST,
    }).then((r) => r.arrayBuffer());
  await send();
  const probe = await openHeapProbe(PORT + 1, "ucp-worker");
  try {
    // workerd runs inspector commands when the isolate next wakes: requests alongside wake it.
    const nudge = async () => {
      for (let i = 0; i < 20; i++) await send();
    };
    await Promise.all([probe.collectGarbage(), nudge()]);
    return (await Promise.all([probe.usage(), nudge()]))[0];
  } finally {
    probe.close();
  }
}

export interface ScaleRow {
  readonly engine: Engine;
  readonly products: number;
  readonly loadSeconds: number;
  readonly searchTablesSeconds: number;
  readonly indexMb?: number;
  readonly coldFirstSearchMs: number;
  readonly heapBeforeMb: number;
  readonly heapAfterMb: number;
  readonly load: LoadResult;
  /** The machine's 1-minute load average after the measured phase. */
  readonly loadAverage: number;
}

async function measure(count: number, engine: Engine, scriptPath: string): Promise<ScaleRow> {
  const dir = path.join(STATE, `${engine}-${count}`);
  const seeded = await seed(dir, count, engine);
  console.log(`${engine} ${count}: loaded in ${seeded.loadSeconds.toFixed(1)} s`);
  const mf = serve(dir, scriptPath, PORT, PORT + 1);
  let disposed = false;
  try {
    const origin = (await mf.ready).origin;
    const url = `${origin}/ucp/mcp`;
    const started = performance.now();
    const first = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: searchBody(1, "waterproof jacket"),
    });
    const text = await first.text();
    const colds = [performance.now() - started];
    if (!first.ok || !text.includes('"products"'))
      throw new Error(`first search failed: ${first.status} ${text.slice(0, 300)}`);
    // Two more fresh isolates (and storage handles): the cold figure is their median, since one
    // start on this shared machine can stall on another process's CPU.
    for (const query of ["hiking boots", "red jacket"]) {
      const fresh = serve(dir, scriptPath, PORT + 2, PORT + 3);
      try {
        const freshUrl = `${(await fresh.ready).origin}/ucp/mcp`;
        const t = performance.now();
        await (
          await fetch(freshUrl, {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
            body: searchBody(1, query),
          })
        ).text();
        colds.push(performance.now() - t);
      } finally {
        await fresh.dispose();
      }
    }
    colds.sort((a, b) => a - b);
    const coldFirstSearchMs = colds[1] ?? 0;
    console.log(`  cold first searches: ${colds.map((c) => c.toFixed(0)).join(", ")} ms`);
    const bodies = RELEVANCE_SET.map((q, i) => searchBody(i + 2, q.query));
    let next = 0;
    const scenario: Scenario = {
      name: `search_catalog ${engine} ${count}`,
      url,
      nextBody: () => bodies[next++ % bodies.length] as string,
      check: (status, body) =>
        status === 200 && body.includes('"products"') ? undefined : `${status} ${body.slice(0, 200)}`,
    };
    const load = await runScenario(scenario, {
      seconds: SECONDS,
      warmupSeconds: 2,
      concurrency: 8,
      maxRequests: 1_000_000,
      timeoutMs: 30_000,
    });
    const loadAverage = loadavg()[0] ?? 0;
    if (process.argv.includes("--per-query")) {
      // Each query alone (no concurrency), median of three: which queries cost what.
      for (const [i, body] of bodies.entries()) {
        const times: number[] = [];
        for (let r = 0; r < 3; r++) {
          const t = performance.now();
          await (
            await fetch(url, {
              method: "POST",
              headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
              body,
            })
          ).text();
          times.push(performance.now() - t);
        }
        times.sort((a, b) => a - b);
        console.log(`  ${(times[1] ?? 0).toFixed(1).padStart(7)} ms  ${RELEVANCE_SET[i]?.query}`);
      }
    }
    const after = await heapAfterGc(url);
    await mf.dispose();
    disposed = true;
    // The baseline: a fresh isolate that has answered one request, but no search.
    const fresh = serve(dir, scriptPath, PORT, PORT + 1);
    const before = await heapAfterGc(`${(await fresh.ready).origin}/ucp/mcp`).finally(() => fresh.dispose());
    return {
      engine,
      products: count,
      loadSeconds: seeded.loadSeconds,
      searchTablesSeconds: seeded.searchSeconds,
      ...(seeded.indexBytes !== undefined ? { indexMb: seeded.indexBytes / 1024 / 1024 } : {}),
      coldFirstSearchMs,
      heapBeforeMb: before.usedMb,
      heapAfterMb: after.usedMb,
      load,
      loadAverage,
    };
  } finally {
    if (!disposed) await mf.dispose();
  }
}

export function scaleLine(r: ScaleRow): string {
  // workerd's CPU per search and the cores others used: latencies on a shared machine follow the latter.
  const cpuMs = (r.load.cpu.workerd * r.load.seconds * 1000) / Math.max(1, r.load.requests);
  return (
    `${r.engine.padEnd(3)} ${String(r.products).padStart(9)}: search p50 ${r.load.p50.toFixed(1)} ms, p99 ${r.load.p99.toFixed(1)} ms ` +
    `(C=8, ${r.load.rps.toFixed(0)} req/s, ${r.load.errors} errors; workerd ${cpuMs.toFixed(2)} ms CPU a search, ` +
    `others ${r.load.cpu.others.toFixed(1)} cores, load average ${r.loadAverage.toFixed(1)}); cold first search ${r.coldFirstSearchMs.toFixed(0)} ms; ` +
    `heap ${r.heapBeforeMb} → ${r.heapAfterMb} MB (+${r.heapAfterMb - r.heapBeforeMb}); load ${r.loadSeconds.toFixed(0)} s` +
    (r.engine === "d1"
      ? ` (search tables ${r.searchTablesSeconds.toFixed(0)} s)`
      : ` (index ${r.indexMb?.toFixed(1)} MB)`)
  );
}

if (process.argv[1]?.endsWith("bench/search-scale.ts")) {
  mkdirSync(STATE, { recursive: true });
  // BENCH_BUNDLE: a directory `wrangler deploy --dry-run --outdir` filled (another tree's Worker, for before/after).
  const file = process.env.BENCH_BUNDLE
    ? bundleFile(process.env.BENCH_BUNDLE)
    : buildBundle(root, path.join(STATE, "bundle")).file;
  const rows: ScaleRow[] = [];
  for (const size of SIZES) {
    const row = await measure(size, ENGINE, file);
    rows.push(row);
    console.log(scaleLine(row));
    if (process.argv.includes("--stages") && ENGINE === "d1") {
      const state = path.join(STATE, `${ENGINE}-${size}`);
      const args = ["scripts/run.mjs", "bench/search-profile.ts", "--state", state, "--rounds", "3", "--cpu-per-query"];
      spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", timeout: 600_000 });
    }
  }
  writeFileSync(path.join(STATE, `results-${ENGINE}.json`), JSON.stringify(rows, null, 2));
  console.log(`\n${rows.map(scaleLine).join("\n")}`);
}
