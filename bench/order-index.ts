/**
 * The order index at 100,000 orders (issue 13): the same generated history loaded into the
 * index Durable Object and into D1 (both local SQLite in Miniflare's workerd), then each list
 * query and the dashboard's figures timed per backend. Usage:
 *   node scripts/run.mjs bench/order-index.ts [--orders 100000] [--runs 40]
 * Prints a markdown table: server time (inside the Worker, around the store call) and the
 * round trip from Node, median and p95 over the runs, after 3 warm-up runs.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { ORDER_STATUSES, type OrderIndexEntry } from "../src/order/index-entry";
import { encodeCursor } from "../src/order/index-query";

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const ORDERS = arg("orders", 100_000);
const RUNS = arg("runs", 40);
const DAY = 86_400_000;
const NOW = Date.parse("2026-11-20T12:00:00Z");

/** A deterministic pseudo-random history: a year of orders, 20,000 buyers, 68 products. */
function generate(count: number): OrderIndexEntry[] {
  // mulberry32: integer math only (a float LCG loses bits past 2^53 and cycles early).
  let seed = 42;
  const rand = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const weights: Record<string, number> = {
    delivered: 0.55,
    shipped: 0.15,
    processing: 0.2,
    partially_shipped: 0.05,
    canceled: 0.05,
  };
  const pickStatus = () => {
    let r = rand();
    for (const s of ORDER_STATUSES) {
      r -= weights[s] ?? 0;
      if (r <= 0) return s;
    }
    return "delivered" as const;
  };
  return Array.from({ length: count }, (_, n) => {
    const lines = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => {
      const p = Math.floor(rand() ** 2 * 68);
      const quantity = 1 + Math.floor(rand() * 3);
      return { item_id: `var_p${p}`, title: `Product ${p}`, quantity, amount: quantity * (1000 + p * 100) };
    });
    const total = lines.reduce((s, l) => s + l.amount, 0) + 500;
    const status = pickStatus();
    const failed = rand() < 0.01;
    const created = NOW - Math.floor(rand() * 365 * DAY);
    return {
      id: `ord_${n.toString(36).padStart(6, "0")}${Math.floor(rand() * 1e9).toString(36)}`,
      created_at: created,
      status,
      total,
      refunded: status === "canceled" ? total : 0,
      currency: "USD",
      buyer_email: `buyer${Math.floor(rand() * 20_000)}@example.com`,
      platform: `https://platform${n % 3}.example/profile.json`,
      webhook_failures: failed ? 1 + Math.floor(rand() * 5) : 0,
      last_webhook_failure_at: failed ? created + 60_000 : null,
      lines,
    };
  });
}

async function bundle(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "order-index-bench-"));
  const outfile = path.join(dir, "worker.mjs");
  await build({
    stdin: {
      contents: `export { OrderIndexObject } from "../durable-objects/order-index-object";
        export { default } from "./order-index-worker";`,
      resolveDir: import.meta.dirname,
      loader: "ts",
    },
    outfile,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    external: ["cloudflare:*"],
    logLevel: "warning",
  });
  return outfile;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const fmt = (n: number) => n.toFixed(1);

async function main(): Promise<void> {
  const scriptPath = await bundle();
  const mf = new Miniflare({
    modules: true,
    scriptPath,
    modulesRoot: path.dirname(scriptPath),
    compatibilityDate: "2026-04-01",
    compatibilityFlags: ["nodejs_compat"],
    durableObjects: { INDEX: { className: "OrderIndexObject", useSQLite: true } },
    d1Databases: ["DB"],
  });
  try {
    const entries = generate(ORDERS);
    const started = Date.now();
    for (const backend of ["do", "d1"]) {
      const t0 = Date.now();
      for (let i = 0; i < entries.length; i += 500) {
        const res = await mf.dispatchFetch(`http://bench/seed?backend=${backend}`, {
          method: "POST",
          body: JSON.stringify(entries.slice(i, i + 500)),
        });
        if (!res.ok) throw new Error(`seed ${backend}: ${res.status} ${await res.text()}`);
      }
      console.error(`loaded ${entries.length} orders into ${backend} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
    const newest = [...entries].sort((a, b) => b.created_at - a.created_at || (b.id < a.id ? -1 : 1));
    const deep = newest[50_000 - 1] ?? newest.at(-1);
    const buyer = entries[1234]?.buyer_email ?? "";
    const from = new Date(NOW - 29 * DAY).toISOString().slice(0, 10);
    const week = new Date(NOW - 6 * DAY).toISOString().slice(0, 10);
    const today = new Date(NOW).toISOString().slice(0, 10);
    const scenarios: Array<[string, string]> = [
      ["newest 50, no filter", "/list?"],
      ["status=shipped", "/list?status=shipped"],
      ["status=canceled, last 30 days", `/list?status=canceled&from=${from}&to=${today}`],
      ["last 7 days", `/list?from=${week}&to=${today}`],
      ["search: buyer email", `/list?q=${encodeURIComponent(buyer)}`],
      ["search: email prefix", "/list?q=buyer123"],
      ["search: order id", `/list?q=${entries[777]?.id}`],
      ["page 1,001 (cursor at 50,000)", deep ? `/list?cursor=${encodeCursor(deep)}` : "/list?"],
      ["status=delivered, page at 50,000", deep ? `/list?status=delivered&cursor=${encodeCursor(deep)}` : "/list?"],
      ["dashboard figures (5 queries)", `/stats?now=${NOW}`],
      ...(["perDay", "byStatus", "topProducts", "webhookFailures"] as const).map((part): [string, string] => [
        `dashboard: ${part} alone (D1 only)`,
        `/stats?now=${NOW}&part=${part}`,
      ]),
    ];
    console.log(
      `| query (${ORDERS.toLocaleString("en-US")} orders, limit 50) | backend | rows | server ms median | server ms p95 | round trip ms median |`,
    );
    console.log("|---|---|---|---|---|---|");
    for (const [label, target] of scenarios) {
      for (const backend of target.includes("part=") ? ["d1"] : ["do", "d1"]) {
        const server: number[] = [];
        const trip: number[] = [];
        let rows = 0;
        for (let i = 0; i < RUNS + 3; i++) {
          const t0 = performance.now();
          const res = await mf.dispatchFetch(`http://bench${target}&backend=${backend}`);
          const body = (await res.json()) as { ms: number; rows: number };
          if (!res.ok) throw new Error(`${label}: ${res.status} ${JSON.stringify(body)}`);
          if (i < 3) continue;
          trip.push(performance.now() - t0);
          server.push(body.ms);
          rows = body.rows;
        }
        server.sort((a, b) => a - b);
        trip.sort((a, b) => a - b);
        const name = backend === "do" ? "index DO" : "D1";
        console.log(
          `| ${label} | ${name} | ${rows} | ${fmt(quantile(server, 0.5))} | ${fmt(quantile(server, 0.95))} | ${fmt(quantile(trip, 0.5))} |`,
        );
      }
    }
    console.error(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await mf.dispose();
  }
}

await main();
