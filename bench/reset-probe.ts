/**
 * The probe behind issue 14 item 4 (docs/benchmarks.md, "Nothing fails under load"): the
 * journey driver of bench/journey.ts with every failed request's socket history (uses, idle
 * time before reuse, time in flight, local port to match `ss` output), free sockets the
 * server closed, and workerd's fds/RSS. Usage, after `wrangler deploy --dry-run --outdir D`:
 *
 *   node scripts/run.mjs bench/reset-probe.ts D/index.js <port> mcp:64:10 rest:64:10 ...
 *
 * PROBE_NO_REUSE=1 destroys each socket after its response (the one variable changed);
 * PROBE_PRODUCTS (4000) sizes the catalog; PROBE_TIMELINE_DIR, when set, receives each
 * run's timestamped workerd output and samples.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import { type JourneyRow, runJourneys } from "./journey";
import { createBenchApiKey, seedCatalog, startServers } from "./server";

type Sock = import("node:net").Socket & { __freedAt?: number; __uses?: number; __born?: number; __idle?: number };
const events: Record<string, unknown>[] = [];
let freeClosed = 0;
const freeClosedIdle: number[] = [];
const proto = http.Agent.prototype as unknown as {
  keepSocketAlive(s: Sock): boolean;
  reuseSocket(s: Sock, r: http.ClientRequest): void;
  createConnection(...a: unknown[]): Sock;
};
let t0 = performance.now();
const reqErrors: Record<string, unknown>[] = [];
const origRequest = http.request;
(http as { request: unknown }).request = (...a: Parameters<typeof http.request>) => {
  const req = origRequest(...a);
  const started = performance.now();
  const opts = a[0] as http.RequestOptions;
  req.on("error", (e: NodeJS.ErrnoException) => {
    const sock = req.socket as Sock | null;
    reqErrors.push({
      code: e.code,
      msg: e.message,
      at: (performance.now() - t0).toFixed(0),
      sentAt: (started - t0).toFixed(0),
      inFlight: (performance.now() - started).toFixed(0),
      path: `${opts.method} ${String(opts.path).slice(0, 30)}`,
      uses: sock?.__uses,
      idle: sock?.__idle?.toFixed(0),
      port: sock?.localPort,
    });
  });
  return req;
};
const keep = proto.keepSocketAlive;
proto.keepSocketAlive = function (s) {
  s.__freedAt = performance.now();
  // PROBE_NO_REUSE=1: one connection per request, the one variable changed.
  if (process.env.PROBE_NO_REUSE === "1") return false;
  return keep.call(this, s);
};
const reuse = proto.reuseSocket;
proto.reuseSocket = function (s, r) {
  s.__idle = performance.now() - (s.__freedAt ?? 0);
  s.__freedAt = undefined;
  s.__uses = (s.__uses ?? 1) + 1;
  reuse.call(this, s, r);
};
const create = proto.createConnection;
proto.createConnection = function (...a) {
  const s = create.apply(this, a);
  s.__born = performance.now();
  s.__uses = 1;
  s.on("end", () => {
    // FIN from the server while the socket sat in the free pool.
    if (s.__freedAt !== undefined) {
      freeClosed++;
      freeClosedIdle.push(performance.now() - s.__freedAt);
    }
  });
  s.on("error", (e: NodeJS.ErrnoException) => {
    events.push({
      code: e.code,
      at: (performance.now() - t0).toFixed(0),
      uses: s.__uses,
      idleBeforeUse: s.__idle?.toFixed(0),
      age: (performance.now() - (s.__born ?? 0)).toFixed(0),
      free: s.__freedAt !== undefined,
    });
  });
  return s;
};

function workerdFds(): number {
  let n = 0;
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const st = readFileSync(`/proc/${e}/stat`, "utf8");
      if (!st.includes("(workerd)")) continue;
      if (Number(st.slice(st.lastIndexOf(")") + 2).split(" ")[1]) !== process.pid) continue;
      n += readdirSync(`/proc/${e}/fd`).length;
    } catch {}
  }
  return n;
}
let maxFds = 0;
const timeline: string[] = [];
const origLog = console.log.bind(console);
console.log = (...a: unknown[]) => {
  timeline.push(`${(performance.now() - t0).toFixed(0)} ${a.map(String).join(" ").slice(0, 300)}`);
};
function workerdInfo(): string {
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const st = readFileSync(`/proc/${e}/stat`, "utf8");
      if (!st.includes("(workerd)")) continue;
      const f = st.slice(st.lastIndexOf(")") + 2).split(" ");
      return `pid=${e} rssMB=${((Number(f[21]) * 4096) / 1e6).toFixed(0)} cpu=${Number(f[11]) + Number(f[12])}`;
    } catch {}
  }
  return "no workerd";
}
setInterval(() => {
  maxFds = Math.max(maxFds, workerdFds());
  timeline.push(`${(performance.now() - t0).toFixed(0)} SAMPLE ${workerdInfo()}`);
}, 250).unref();
const [bundle, port, ...runs] = process.argv.slice(2);
const servers = await startServers(bundle as string, Number(port));
try {
  const seeded = await seedCatalog(servers.mf, Number(process.env.PROBE_PRODUCTS ?? 4000), 1);
  const productIds = seeded.products.filter((p) => p.variants?.[0]?.availability?.available !== false).map((p) => p.id);
  const apiKey = await createBenchApiKey(servers.mf);
  for (const run of runs) {
    const [binding, c, s] = run.split(":");
    events.length = 0;
    reqErrors.length = 0;
    timeline.length = 0;
    t0 = performance.now();
    origLog(`T0 ${run} ${Date.now()}`);
    freeClosed = 0;
    freeClosedIdle.length = 0;
    const row: JourneyRow = await runJourneys(
      binding as "mcp" | "rest",
      { origin: servers.origin, apiKey, productIds },
      { seconds: Number(s), warmupSeconds: 1, concurrency: Number(c), maxRequests: 1e9, timeoutMs: 30_000 },
      Number(c),
    );
    const dir = process.env.PROBE_TIMELINE_DIR;
    if (dir) writeFileSync(`${dir}/timeline-${run.replaceAll(":", "-")}.log`, timeline.join("\n"));
    timeline.length = 0;
    origLog(
      JSON.stringify({
        run,
        jps: row.journeysPerSecond.toFixed(1),
        requests: row.requests,
        failed: row.failed,
        causes: row.causes,
        p99: row.journeyP99.toFixed(0),
        first: row.firstFailure?.slice(0, 200),
        freeClosed,
        maxFds,
        fdsNow: workerdFds(),
        freeClosedIdle: freeClosedIdle.slice(0, 10).map((x) => x.toFixed(0)),
        reqErrors: reqErrors.slice(0, 60),
      }),
    );
  }
} finally {
  await servers.mf.dispose();
}
process.exit(0);
