/**
 * Completions under load: closed-loop clients, each on its own keep-alive socket, looping
 * create_checkout → update_checkout (select shipping) → complete_checkout over MCP; a
 * completion counts when it answers `completed`. Used by `npm run bench` (BENCH_ONLY=completions:
 * is the store's order index on the completion's path? issue 27) and by bench/hot-sku.ts (one hot
 * SKU vs 32). Reported per run: completions/s, p50/p99 of the complete step and of the loop,
 * workerd CPU per completion and the cores each side used.
 */
import http from "node:http";
import type { Miniflare } from "miniflare";
import { KV_KEYS } from "../src/catalog/kv-layout";
import { MCP_PATH } from "../src/config";
import { cpuMeter } from "./cpu";
import { ADDRESS, INSTRUMENT } from "./journey";
import { percentile, post } from "./load";
import { PROFILE_URL } from "./server";

const META = { "ucp-agent": { profile: PROFILE_URL } };
/** Far more than a run at any rate here can sell: the SKUs never run out. */
const LARGE_STOCK = 1_000_000;

// biome-ignore lint/suspicious/noExplicitAny: wire JSON, checked field by field where it matters
type Json = any;

export interface CompletionRun {
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
  /** The first failed answer's text: what a cause count alone cannot say. */
  readonly firstFailure?: string;
}

export interface CompletionOptions {
  readonly concurrency: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
}

let serial = 0;

async function loop(
  origin: string,
  apiKey: string,
  skuFor: (client: number) => string,
  runSeconds: number,
  concurrency: number,
  agent: http.Agent,
): Promise<{ completes: number[]; loops: number[]; causes: Map<string, number>; firstFailure?: string }> {
  const completes: number[] = [];
  const loops: number[] = [];
  const causes = new Map<string, number>();
  let firstFailure: string | undefined;
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
      const buyer = { email: `bench${i}@example.com` };
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
          `bench-${process.pid}-${i}`,
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
  return { completes, loops, causes, ...(firstFailure ? { firstFailure } : {}) };
}

/** One run: a warm-up loop, then the measured one, with workerd's CPU read from /proc. */
export async function measureCompletions(
  label: string,
  origin: string,
  apiKey: string,
  skuFor: (client: number) => string,
  options: CompletionOptions,
): Promise<CompletionRun> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  try {
    await loop(origin, apiKey, skuFor, options.warmupSeconds, options.concurrency, agent);
    const started = performance.now();
    const stop = cpuMeter();
    const tally = await loop(origin, apiKey, skuFor, options.seconds, options.concurrency, agent);
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
      ...(tally.firstFailure ? { firstFailure: tally.firstFailure } : {}),
    };
  } finally {
    agent.destroy();
  }
}

export const formatRun = (r: CompletionRun): string =>
  `${r.label.padEnd(14)} ${r.perSecond.toFixed(1).padStart(7)}/s  complete p50 ${r.completeP50.toFixed(0).padStart(5)} ms p99 ${r.completeP99
    .toFixed(0)
    .padStart(
      5,
    )} ms  loop p50 ${r.loopP50.toFixed(0).padStart(5)} ms p99 ${r.loopP99.toFixed(0).padStart(5)} ms  workerd ${r.workerdCores.toFixed(2)} cores, ${r.cpuMsPerCompletion.toFixed(1)} ms CPU/completion  client ${r.clientCores.toFixed(2)}  others ${r.otherCores.toFixed(2)}  failed ${r.failed}${r.failed ? ` ${JSON.stringify(r.causes)}` : ""}`;

/**
 * `count` in-stock SKUs (each product's first variant) given stock that cannot run out, set
 * before any request: the Worker caches catalog:stock per catalog version.
 */
export async function unlimitedSkus(mf: Miniflare, products: readonly unknown[], count: number): Promise<string[]> {
  const skus = (products as ReadonlyArray<{ variants?: ReadonlyArray<Json> }>)
    .map((p) => p.variants?.[0])
    .filter((v): v is Json => v?.availability?.status === "in_stock")
    .slice(0, count)
    .map((v) => v.id as string);
  if (skus.length < count) throw new Error(`only ${skus.length} in-stock SKUs in the generated catalog`);
  const kv = await mf.getKVNamespace("CATALOG");
  const stock = ((await kv.get(KV_KEYS.stock, "json")) ?? {}) as Record<string, number>;
  for (const sku of skus) stock[sku] = LARGE_STOCK;
  await kv.put(KV_KEYS.stock, JSON.stringify(stock));
  return skus;
}
