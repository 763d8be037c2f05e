/**
 * Memory under hostile variety (issue 10, finding 11): RSS of the workerd process after a
 * bounded run of requests whose cache keys all differ (profile URLs, API keys, cart ids),
 * the way a caller that wants to grow per-isolate caches would send them.
 *
 *   node scripts/run.mjs bench/memory.ts [--root <checkout>] [--requests 30000] [--clients 8] [--mix varied|same|profiles|keys|ids]
 *   node --experimental-websocket scripts/run.mjs bench/memory.ts --heap [...]
 *
 * --heap also reads the Worker isolate's JS heap through the V8 inspector (bench/heap-probe.ts)
 * after the load, then forces a full collection and reads heap and RSS again: live heap after
 * a collection is what the Worker retains; the rest of the RSS is memory the runtime keeps.
 *
 * --mix same sends only the ordinary request (one profile, one query): the control that shows
 * how much of the growth is the runtime's own and how much comes from varied keys; profiles,
 * keys and ids send only that one kind of varied request.
 *
 * --root builds and measures another checkout of this repository (e.g. the commit before a
 * change, unpacked with `git archive`), served by this checkout's bench harness.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { CliError } from "../scripts/lib/cli-error";
import { buildBundle } from "./bundle";
import { type HeapUsage, openHeapProbe } from "./heap-probe";
import { PROFILE_URL, startServers } from "./server";

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = process.argv[at + 1];
  if (value === undefined) throw new CliError(`--${name} needs a value`);
  return value;
}

function count(name: string, fallback: number, max: number): number {
  const value = Number(option(name, String(fallback)));
  if (!Number.isInteger(value) || value < 1 || value > max) throw new CliError(`--${name} must be 1..${max}`);
  return value;
}

/** The workerd child Miniflare started (ppid = this process). */
function workerdPid(): number {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const match = /^\d+ \(([^)]*)\) \S (\d+)/.exec(stat);
      if (match && match[1] === "workerd" && Number(match[2]) === process.pid) return Number(entry);
    } catch {
      // the process ended while listing
    }
  }
  throw new Error("workerd process not found");
}

function rssMb(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return line ? Math.round(Number(line[1]) / 1024) : Number.NaN;
}

const call = (id: number, name: string, args: Record<string, unknown>, profile = PROFILE_URL) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: { meta: { "ucp-agent": { profile } }, ...args } },
  });

const hex = (i: number, width: number) => i.toString(16).padStart(width, "0");

/** Request i: every cache key differs from every other request's (under --mix same, all are ordinary). */
function request(i: number, mix: Mix): { body: string; headers: Record<string, string> } {
  switch (mix === "varied" ? i % 4 : MIXES[mix]) {
    case 0: // a new profile URL each time: fetched (404), failure cached per URL
      return {
        body: call(i, "search_catalog", { catalog: { query: "shirt" } }, `https://agent.bench/p-${i}.json`),
        headers: {},
      };
    case 1: // a new well-formed API key each time: one KV read, miss cached per key
      return {
        body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "ping" }),
        headers: { authorization: `Bearer ucpk_${hex(i, 43)}` },
      };
    case 2: // an id the store never issued
      return { body: call(i, "get_cart", { id: `cart_${hex(i, 32)}` }), headers: {} };
    default: // ordinary traffic
      return { body: call(i, "search_catalog", { catalog: { query: "jacket" } }), headers: {} };
  }
}

const MIXES = { varied: -1, profiles: 0, keys: 1, ids: 2, same: 3 } as const;
type Mix = keyof typeof MIXES;

async function drive(origin: string, total: number, clients: number, mix: Mix): Promise<Record<number, number>> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const statuses: Record<number, number> = {};
  let next = 0;
  const one = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const { body, headers } = request(i, mix);
      const req = http.request(
        `${origin}/ucp/mcp`,
        {
          method: "POST",
          agent,
          headers: { "content-type": "application/json", accept: "application/json", ...headers },
          timeout: 30_000,
        },
        (res) => {
          res.resume();
          res.on("end", () => {
            statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.on("timeout", () => req.destroy(new Error("request timed out")));
      req.on("error", reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total) await one(next++);
    }),
  );
  agent.destroy();
  return statuses;
}

async function main(): Promise<void> {
  const root = path.resolve(option("root", process.cwd()));
  const total = count("requests", 30_000, 1_000_000);
  const clients = count("clients", 8, 64);
  const mix = option("mix", "varied") as Mix;
  if (!Object.hasOwn(MIXES, mix)) throw new CliError(`--mix must be one of ${Object.keys(MIXES).join(", ")}`);
  const outdir = mkdtempSync(path.join(tmpdir(), "ucp-memory-"));
  let servers: Awaited<ReturnType<typeof startServers>> | undefined;
  try {
    const bundle = buildBundle(root, outdir);
    const heap = process.argv.includes("--heap");
    const inspectorPort = heap ? 9300 + Math.floor(Math.random() * 600) : undefined;
    servers = await startServers(bundle.file, 0, inspectorPort);
    const pid = workerdPid();
    const probe = inspectorPort ? await openHeapProbe(inspectorPort, "ucp-worker") : undefined;
    await drive(servers.origin, 400, clients, mix); // warm: code compiled, first isolates up
    const before = rssMb(pid);
    const heapWarm = await probe?.usage();
    const started = Date.now();
    const statuses = await drive(servers.origin, total, clients, mix);
    const after = rssMb(pid);
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const idle = rssMb(pid);
    let heapReport:
      | { warm?: HeapUsage; after_load: HeapUsage; after_gc: HeapUsage; rss_after_gc_mb: number }
      | undefined;
    if (probe) {
      const afterLoad = await probe.usage();
      // workerd runs inspector commands on the isolate's thread when it next wakes: a few
      // requests alongside make sure it does.
      await Promise.all([probe.collectGarbage(), drive(servers.origin, 20, 1, mix)]);
      heapReport = {
        warm: heapWarm,
        after_load: afterLoad,
        after_gc: await probe.usage(),
        rss_after_gc_mb: rssMb(pid),
      };
      probe.close();
    }
    console.log(
      JSON.stringify({
        root,
        mix,
        requests: total,
        seconds: Math.round((Date.now() - started) / 1000),
        statuses,
        profile_fetches: servers.outbound.profileFetches,
        rss_mb: { warm: before, after_load: after, after_10s_idle: idle },
        ...(heapReport ? { heap_mb: heapReport } : {}),
      }),
    );
  } finally {
    await servers?.mf.dispose().catch(() => undefined);
    rmSync(outdir, { recursive: true, force: true });
  }
}

await main().catch((e: unknown) => {
  if (e instanceof CliError) throw e;
  console.error("memory bench failed:", e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
