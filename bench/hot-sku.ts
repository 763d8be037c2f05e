/**
 * Stock shards under load (issue 14 item 3): checkouts completed at C = 32, closed loop,
 * (a) every client buying one hot SKU, (b) client i buying SKU i of 32. With stock in 64
 * groups (src/catalog/stock-shards.ts) (a) funnels every reservation through one object and (b)
 * spreads them over the shards the 32 SKUs hash to (about 25); before, both went through the
 * one store-wide object.
 *
 *   TMPDIR=/dev/shm node scripts/run.mjs bench/hot-sku.ts [bundle-dir]
 *
 * Each client loops create_checkout → update_checkout (select shipping) → complete_checkout
 * on its own keep-alive socket; a completion counts when it answers `completed`. Reported per
 * run: completions/s, p50/p99 of the complete step and of the whole loop, workerd CPU per
 * completion and the cores each side used. Runs a, b, a, b (HOT_ROUNDS pairs) on one Miniflare.
 *
 * Env: HOT_SECONDS (10), HOT_WARMUP (2), HOT_CONCURRENCY (32), HOT_ROUNDS (2), HOT_PORT
 * (10300), HOT_PRODUCTS (2,000), HOT_QUIET (30: seconds to wait before a run for other
 * processes to use under 0.3 cores; each run reports what they used).
 */

import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { KV_KEYS } from "../src/catalog/kv-layout";
import { MCP_PATH } from "../src/config";
import { buildBundle, bundleFile } from "./bundle";
import { cpuMeter, waitForQuiet } from "./cpu";
import { ADDRESS, INSTRUMENT } from "./journey";
import { percentile, post } from "./load";
import { createBenchApiKey, PROFILE_URL, seedCatalog, startServers } from "./server";

const root = path.resolve(import.meta.dirname, "..");
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const seconds = num("HOT_SECONDS", 10);
const warmup = num("HOT_WARMUP", 2);
const concurrency = num("HOT_CONCURRENCY", 32);
const rounds = num("HOT_ROUNDS", 2);
const port = num("HOT_PORT", 10300);
const productCount = num("HOT_PRODUCTS", 2000);
/** Far more than 10 s at any rate here can sell: the hot SKU never runs out. */
const LARGE_STOCK = 1_000_000;

const META = { "ucp-agent": { profile: PROFILE_URL } };

// biome-ignore lint/suspicious/noExplicitAny: wire JSON, checked field by field where it matters
type Json = any;

interface Run {
  readonly label: string;
  readonly completions: number;
  readonly perSecond: number;
  readonly failed: number;
  readonly causes: Record<string, number>;
  readonly completeP50: number;
  readonly completeP99: number;
  readonly loopP50: number;
  readonly loopP99: number;
  readonly workerdCores: number;
  readonly clientCores: number;
  readonly cpuMsPerCompletion: number;
  /** Cores other processes used during the run: the machine is shared, so each run says how much. */
  readonly otherCores: number;
}

let serial = 0;
/** The first failed answer's text, printed once: what a cause count alone cannot say. */
let firstFailure: string | undefined;

async function loop(
  origin: string,
  apiKey: string,
  skuFor: (client: number) => string,
  runSeconds: number,
  agent: http.Agent,
): Promise<{ completes: number[]; loops: number[]; causes: Map<string, number> }> {
  const completes: number[] = [];
  const loops: number[] = [];
  const causes = new Map<string, number>();
  const url = new URL(MCP_PATH, origin);
  const headers = { authorization: `Bearer ${apiKey}` };
  const call = async (name: string, args: Json, key?: string): Promise<Json> => {
    const meta = key ? { ...META, "idempotency-key": key } : META;
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: { meta, ...args } },
    });
    const answer = await post(agent, url, body, 30_000, headers);
    if (answer.status !== 200) {
      firstFailure ??= `${name}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`;
      throw new Error(`HTTP ${answer.status} ${name}`);
    }
    const reply = JSON.parse(answer.text) as Json;
    if (reply.error) throw new Error(`JSON-RPC ${reply.error.code}`);
    return reply.result.structuredContent;
  };
  const deadline = performance.now() + runSeconds * 1000;
  const client = async (c: number) => {
    const sku = skuFor(c);
    while (performance.now() < deadline) {
      const i = serial++;
      const lines = [{ item: { id: sku }, quantity: 1 }];
      const buyer = { email: `hot${i}@example.com` };
      const t0 = performance.now();
      try {
        const created = await call("create_checkout", {
          checkout: {
            line_items: lines,
            buyer,
            fulfillment: { methods: [{ type: "shipping", destinations: [ADDRESS] }] },
          },
        });
        if (created.status !== "ready_for_complete") throw new Error(`create ${created.messages?.[0]?.code}`);
        const method = created.fulfillment.methods[0];
        const group = method.groups[0];
        const option = group.options.find((o: Json) => o.id === "express") ?? group.options[0];
        const selection = { methods: [{ id: method.id, groups: [{ id: group.id, selected_option_id: option.id }] }] };
        const updated = await call("update_checkout", {
          id: created.id,
          checkout: { line_items: lines, buyer, fulfillment: selection },
        });
        if (updated.status !== "ready_for_complete") throw new Error(`update ${updated.messages?.[0]?.code}`);
        const t1 = performance.now();
        const done = await call(
          "complete_checkout",
          { id: created.id, checkout: { payment: { instruments: [INSTRUMENT] } } },
          `hot-${i}`,
        );
        if (done.status !== "completed") throw new Error(`complete ${done.messages?.[0]?.code ?? done.status}`);
        const t2 = performance.now();
        completes.push(t2 - t1);
        loops.push(t2 - t0);
      } catch (e) {
        const cause = e instanceof Error ? e.message : String(e);
        causes.set(cause, (causes.get(cause) ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, c) => client(c)));
  return { completes, loops, causes };
}

async function measure(
  label: string,
  origin: string,
  apiKey: string,
  skuFor: (client: number) => string,
): Promise<Run> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  try {
    await loop(origin, apiKey, skuFor, warmup, agent);
    const started = performance.now();
    const stop = cpuMeter();
    const tally = await loop(origin, apiKey, skuFor, seconds, agent);
    const cpu = stop();
    const elapsed = (performance.now() - started) / 1000;
    const sorted = (xs: number[]) => Float64Array.from(xs).sort();
    const completes = sorted(tally.completes);
    const loops = sorted(tally.loops);
    const perSecond = completes.length / elapsed;
    return {
      label,
      completions: completes.length,
      perSecond,
      failed: [...tally.causes.values()].reduce((a, b) => a + b, 0),
      causes: Object.fromEntries(tally.causes),
      completeP50: percentile(completes, 0.5),
      completeP99: percentile(completes, 0.99),
      loopP50: percentile(loops, 0.5),
      loopP99: percentile(loops, 0.99),
      workerdCores: cpu.workerd,
      clientCores: cpu.client,
      cpuMsPerCompletion: (cpu.workerd * 1000) / perSecond,
      otherCores: cpu.others,
    };
  } finally {
    agent.destroy();
  }
}

const fmt = (r: Run) =>
  `${r.label.padEnd(14)} ${r.perSecond.toFixed(1).padStart(7)}/s  complete p50 ${r.completeP50.toFixed(0).padStart(5)} ms p99 ${r.completeP99
    .toFixed(0)
    .padStart(
      5,
    )} ms  loop p50 ${r.loopP50.toFixed(0).padStart(5)} ms p99 ${r.loopP99.toFixed(0).padStart(5)} ms  workerd ${r.workerdCores.toFixed(2)} cores, ${r.cpuMsPerCompletion.toFixed(1)} ms CPU/completion  client ${r.clientCores.toFixed(2)}  others ${r.otherCores.toFixed(2)}  failed ${r.failed}${r.failed ? ` ${JSON.stringify(r.causes)}` : ""}`;

const temp = mkdtempSync(path.join(tmpdir(), "ucp-hot-sku-"));
const dir = process.argv[2];
try {
  const file = dir ? bundleFile(dir) : buildBundle(root, path.join(temp, "tree")).file;
  const servers = await startServers(file, port);
  try {
    const seeded = await seedCatalog(servers.mf, productCount, 1);
    const apiKey = await createBenchApiKey(servers.mf);
    // 32 in-stock SKUs (each product's first variant), every one with stock that cannot run out.
    const skus = (seeded.products as ReadonlyArray<{ variants?: ReadonlyArray<Json> }>)
      .map((p) => p.variants?.[0])
      .filter((v): v is Json => v?.availability?.status === "in_stock")
      .slice(0, concurrency)
      .map((v) => v.id as string);
    if (skus.length < concurrency) throw new Error(`only ${skus.length} in-stock SKUs in the generated catalog`);
    const kv = await servers.mf.getKVNamespace("CATALOG");
    const stock = ((await kv.get(KV_KEYS.stock, "json")) ?? {}) as Record<string, number>;
    for (const sku of skus) stock[sku] = LARGE_STOCK;
    // Before any request: the Worker caches catalog:stock per catalog version.
    await kv.put(KV_KEYS.stock, JSON.stringify(stock));
    const hot = skus[0] as string;
    console.log(
      `C=${concurrency}, ${warmup} s warm-up + ${seconds} s per run, ${rounds} rounds of (a) one hot SKU, (b) 32 SKUs`,
    );
    const runs: Run[] = [];
    for (let round = 1; round <= rounds; round++) {
      for (const [label, skuFor] of [
        ["a: one SKU", () => hot],
        ["b: 32 SKUs", (c: number) => skus[c % skus.length] as string],
      ] as const) {
        // Other processes share these 2 cores: wait (up to HOT_QUIET s) until they are mostly idle.
        await waitForQuiet(num("HOT_QUIET", 30), 0.3, (o) =>
          console.log(`  waiting: others use ${o.toFixed(2)} cores`),
        );
        const r = await measure(`${label}`, servers.origin, apiKey, skuFor);
        runs.push(r);
        console.log(`round ${round} ${fmt(r)}`);
        if (firstFailure) console.log(`  first failure: ${firstFailure}`);
        firstFailure = undefined;
      }
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? Number.NaN;
    const rate = (prefix: string) => runs.filter((r) => r.label.startsWith(prefix)).map((r) => r.perSecond);
    const [a, b] = [rate("a"), rate("b")];
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    console.log(
      `a: ${a.map((x) => x.toFixed(1)).join(", ")}/s; b: ${b.map((x) => x.toFixed(1)).join(", ")}/s; b/a = ${(mean(b) / mean(a)).toFixed(2)} (means; medians ${median(a).toFixed(1)} vs ${median(b).toFixed(1)})`,
    );
  } finally {
    await servers.mf.dispose();
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
