/**
 * What a brand-new SQLite-backed Durable Object costs workerd, per storage directory:
 *
 *   node scripts/run.mjs bench/new-object.ts [dir ...]
 *
 * A purchase journey makes new objects (its checkout, its order, the stock shards of variants
 * nobody bought yet), so this is a floor under its CPU. For each directory (default: the OS
 * temp dir, then /dev/shm) one Miniflare keeps its temporary storage there and serves, one
 * request at a time, `NEW_OBJECT_REQUESTS` (1,500) requests of each kind, twice in turn:
 * a Worker that answers at once, an RPC to one existing object, an RPC to a new object that
 * does nothing, and an RPC to a new object that creates a table and writes a row. It prints
 * workerd CPU ms per request from /proc. On this machine's ext4 the new object's files cost
 * ~3 ms of kernel time in inode allocation (perf: ext4 `recently_deleted` under SQLite's
 * unixOpen); docs/benchmarks.md, "Where a new object's time goes".
 */
import { tmpdir } from "node:os";
import { processTicks, workerdPids } from "./cpu";
import { probeMiniflare } from "./server";

const SCRIPT = `import { DurableObject } from "cloudflare:workers";
export class Probe extends DurableObject {
  ping() { return 1; }
  write() {
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY, v TEXT)");
    this.ctx.storage.sql.exec("INSERT OR REPLACE INTO t VALUES ('k', 'v')");
    return 1;
  }
}
export default {
  async fetch(request, env) {
    const kind = new URL(request.url).pathname.slice(1);
    if (kind === "plain") return new Response("1");
    if (kind === "same") return new Response(String(await env.PROBE.getByName("one").ping()));
    const fresh = env.PROBE.get(env.PROBE.newUniqueId());
    return new Response(String(kind === "new-write" ? await fresh.write() : await fresh.ping()));
  },
};`;

const KINDS = ["plain", "same", "new", "new-write"] as const;
const requests = Number(process.env.NEW_OBJECT_REQUESTS ?? 1500);
const port = Number(process.env.NEW_OBJECT_PORT ?? 10040);

/** utime + stime, in ms, of the workerd processes this process started. */
function workerdCpuMs(): number {
  return workerdPids().reduce((sum, pid) => sum + processTicks(pid), 0) * 10;
}

async function measure(dir: string): Promise<Record<string, number[]>> {
  const mf = probeMiniflare(dir, port, SCRIPT);
  const origin = (await mf.ready).origin;
  const out: Record<string, number[]> = {};
  try {
    for (let round = 0; round < 2; round++) {
      for (const kind of KINDS) {
        const start = workerdCpuMs();
        for (let i = 0; i < requests; i++) await (await fetch(`${origin}/${kind}`)).text();
        out[kind] = [...(out[kind] ?? []), (workerdCpuMs() - start) / requests];
      }
    }
  } finally {
    await mf.dispose();
  }
  return out;
}

const dirs = process.argv.slice(2).length ? process.argv.slice(2) : [tmpdir(), "/dev/shm"];
console.log(`workerd CPU ms per request, ${requests} requests per kind and round, two rounds`);
console.log(`| storage | ${KINDS.join(" | ")} |`);
console.log(`|---|${KINDS.map(() => "---:").join("|")}|`);
for (const dir of dirs) {
  const out = await measure(dir);
  console.log(`| ${dir} | ${KINDS.map((k) => (out[k] ?? []).map((v) => v.toFixed(2)).join(" / ")).join(" | ")} |`);
}
