/**
 * What a new object's stored layout costs workerd (issue 29 item 2): CPU per new object and
 * RSS per object kept open, for the order's layout made the kernel's way (a sqlite_master
 * lookup, then the version table, each step and the version row, one exec each), in one exec,
 * and in one exec with the TEXT-keyed tables WITHOUT ROWID (one b-tree each instead of a
 * table and its automatic index). A one-table object is the floor.
 *
 *   node scripts/run.mjs bench/new-object-layout.ts [dir]      (default /dev/shm)
 *
 * Env: LAYOUT_REQUESTS (1,500 per kind and round), LAYOUT_PORT (10050).
 */
import { readFileSync } from "node:fs";
import { CAPTURES_SCHEMA } from "../durable-objects/order/captures";
import { INDEX_FEED_SCHEMA } from "../durable-objects/order/index-feed";
import { OUTBOX_SCHEMA } from "../durable-objects/order/outbox";
import { EFFECTS_SCHEMA, RELEASE_LINES_SCHEMA } from "../durable-objects/order/settlement";
import { DELIVERIES_SCHEMA, WEBHOOKS_SCHEMA } from "../durable-objects/order/webhooks";
import { LEDGER_SCHEMA } from "../durable-objects/shared/idempotency";
import { processTicks, workerdPids } from "./cpu";
import { probeMiniflare } from "./server";

const VERSION =
  "CREATE TABLE IF NOT EXISTS schema_version (slot INTEGER PRIMARY KEY CHECK (slot = 1), version INTEGER NOT NULL)";
const STEP1 = [
  "CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, state TEXT NOT NULL)",
  OUTBOX_SCHEMA,
  EFFECTS_SCHEMA,
  RELEASE_LINES_SCHEMA,
  CAPTURES_SCHEMA,
  WEBHOOKS_SCHEMA,
  DELIVERIES_SCHEMA,
  INDEX_FEED_SCHEMA,
];
const ROW = "INSERT INTO schema_version (slot, version) VALUES (1, 2)";
const noRowid = (s: string) => (/\bTEXT PRIMARY KEY|PRIMARY KEY \(/.test(s) ? `${s} WITHOUT ROWID` : s);

const LAYOUTS: Record<string, string[]> = {
  "one table": ["CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY, v TEXT)"],
  "order, kernel's way": [
    "SELECT name FROM sqlite_master WHERE type = 'table'",
    VERSION,
    STEP1.join(";\n"),
    LEDGER_SCHEMA,
    ROW,
  ],
  "order, one exec": [[VERSION, ...STEP1, LEDGER_SCHEMA, ROW].join(";\n")],
  "order, one exec, WITHOUT ROWID": [[VERSION, ...[...STEP1, LEDGER_SCHEMA].map(noRowid), ROW].join(";\n")],
  // What each distinct statement an object runs costs it while open (workerd keeps them prepared).
  "one table, 30 distinct statements": [
    "CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY, v TEXT)",
    ...Array.from({ length: 30 }, (_, i) => `SELECT v, k, ${i} AS n FROM t WHERE k = 'k${i}' OR v = 'v${i}'`),
  ],
};

const script = `import { DurableObject } from "cloudflare:workers";
const LAYOUTS = ${JSON.stringify(LAYOUTS)};
export class Probe extends DurableObject {
  make(kind) {
    for (const s of LAYOUTS[kind]) this.ctx.storage.sql.exec(s).toArray();
    return 1;
  }
}
export default {
  async fetch(request, env) {
    const kind = decodeURIComponent(new URL(request.url).pathname.slice(1));
    return new Response(String(await env.PROBE.get(env.PROBE.newUniqueId()).make(kind)));
  },
};`;

const requests = Number(process.env.LAYOUT_REQUESTS ?? 1500);
const port = Number(process.env.LAYOUT_PORT ?? 10050);
const cpuMs = () => workerdPids().reduce((sum, pid) => sum + processTicks(pid), 0) * 10;
const rssKb = () =>
  workerdPids().reduce((sum, pid) => {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return sum + Number(m?.[1] ?? 0);
  }, 0);

const dir = process.argv[2] ?? "/dev/shm";
console.log(
  `${requests} new objects per kind and round, one at a time, storage in ${dir}; two rounds, a fresh workerd each`,
);
console.log("| layout | workerd CPU ms per new object | RSS KiB per open object |");
console.log("|---|---:|---:|");
const results: Record<string, { cpu: number[]; rss: number[] }> = {};
for (let round = 0; round < 2; round++) {
  for (const kind of Object.keys(LAYOUTS)) {
    // A fresh runtime per kind: RSS growth is then this kind's objects (all opened within ~10 s).
    const mf = probeMiniflare(dir, port, script);
    const origin = (await mf.ready).origin;
    try {
      for (let i = 0; i < 50; i++) await (await fetch(`${origin}/${encodeURIComponent(kind)}`)).text();
      const rss = rssKb();
      const start = cpuMs();
      for (let i = 0; i < requests; i++) await (await fetch(`${origin}/${encodeURIComponent(kind)}`)).text();
      const r = results[kind] ?? { cpu: [], rss: [] };
      results[kind] = r;
      r.cpu.push((cpuMs() - start) / requests);
      r.rss.push((rssKb() - rss) / requests);
    } finally {
      await mf.dispose();
    }
  }
}
for (const [kind, r] of Object.entries(results)) {
  console.log(
    `| ${kind} | ${r.cpu.map((v) => v.toFixed(2)).join(" / ")} | ${r.rss.map((v) => v.toFixed(0)).join(" / ")} |`,
  );
}
