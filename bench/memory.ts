/**
 * Memory under hostile variety (issue 10, finding 11): RSS of the workerd process after a
 * bounded run of requests whose cache keys all differ (profile URLs, API keys, cart ids),
 * the way a caller that wants to grow per-isolate caches would send them.
 *
 *   node scripts/run.mjs bench/memory.ts [--root <checkout>] [--requests 30000] [--clients 8]
 *     [--mix varied|same|profiles|keys|ids|baseline|bare|carts|one-cart] [--port 9301] [--idle 10]
 *   node --experimental-websocket scripts/run.mjs bench/memory.ts --heap [...]
 *
 * --heap also reads the Worker isolate's JS heap through the V8 inspector (bench/heap-probe.ts,
 * on --port + 1) after the load, then forces a full collection and reads heap and RSS again:
 * live heap after a collection is what the Worker retains; the rest of the RSS is memory the
 * runtime keeps. It also counts live Durable Object instances in a heap snapshot right after
 * the load and after --idle seconds.
 *
 * --mix same sends only the ordinary request (one profile, one query): the control that shows
 * how much of the growth is the runtime's own and how much comes from varied keys; profiles,
 * keys and ids send only that one kind of varied request. baseline sends the same bytes to the
 * bench's trivial Worker (no code of ours) in the same Miniflare; bare serves that trivial
 * Worker with plain `workerd serve` (no Miniflare at all). carts creates a new cart (a new
 * Durable Object and SQLite database) per request; one-cart reads one cart over and over.
 * Answers other than 200 are counted and the first few printed (`failures`).
 *
 * --root builds and measures another checkout of this repository (e.g. the commit before a
 * change, unpacked with `git archive`), served by this checkout's bench harness.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { CliError } from "../scripts/lib/cli-error";
import { buildBundle } from "./bundle";
import { type HeapUsage, openHeapProbe } from "./heap-probe";
import { cartCall, cartLines } from "./scenarios";
import { BASELINE_PATH, BASELINE_SCRIPT, PROFILE_URL, seedCatalog, startServers } from "./server";
import { makeCarts } from "./verify";

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

/** Anonymous (heaps, malloc) vs file-backed (the binary, mapped SQLite/KV files) resident memory. */
function smapsMb(pid: number): { anon: number; file: number } {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? Number.NaN);
  const rss = kb("Rss");
  const anon = kb("Anonymous");
  return { anon: Math.round(anon / 1024), file: Math.round((rss - anon) / 1024) };
}

const call = (id: number, name: string, args: Record<string, unknown>, profile = PROFILE_URL) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: { meta: { "ucp-agent": { profile } }, ...args } },
  });

const hex = (i: number, width: number) => i.toString(16).padStart(width, "0");

/** What the cart mixes need: products to put in carts, one cart made before the load. */
interface Fixtures {
  readonly productIds: readonly string[];
  readonly cartId?: string;
}

/** Request i: every cache key differs from every other request's (under --mix same, all are ordinary). */
function request(i: number, mix: Mix, fixtures: Fixtures): { body: string; headers: Record<string, string> } {
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
    case 4: // a new cart each time: a new Durable Object and SQLite database per request
      return {
        body: cartCall(i, "create_cart", { cart: { line_items: cartLines(fixtures.productIds, i) } }),
        headers: {},
      };
    case 5: // one cart read over and over: one Durable Object, many requests
      return { body: cartCall(i, "get_cart", { id: fixtures.cartId }), headers: {} };
    default: // ordinary traffic
      return { body: call(i, "search_catalog", { catalog: { query: "jacket" } }), headers: {} };
  }
}

/**
 * `baseline` sends the ordinary request's bytes to the bench's trivial Worker in the same
 * workerd (it drains the body and answers a constant): what the runtime keeps per request
 * when none of this project's code runs.
 */
const MIXES = {
  varied: -1,
  profiles: 0,
  keys: 1,
  ids: 2,
  same: 3,
  baseline: 3,
  bare: 3,
  carts: 4,
  "one-cart": 5,
} as const;
type Mix = keyof typeof MIXES;

interface Driven {
  statuses: Record<number, number>;
  /** The first few answers that were not 200, to tell where they came from. */
  failures: string[];
}

async function drive(origin: string, total: number, clients: number, mix: Mix, fixtures: Fixtures): Promise<Driven> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const statuses: Record<number, number> = {};
  const failures: string[] = [];
  const target = `${origin}${mix === "baseline" ? BASELINE_PATH : "/ucp/mcp"}`;
  let next = 0;
  const one = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const { body, headers } = request(i, mix, fixtures);
      const req = http.request(
        target,
        {
          method: "POST",
          agent,
          headers: { "content-type": "application/json", accept: "application/json", ...headers },
          timeout: 30_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => {
            if (res.statusCode !== 200) chunks.push(chunk);
          });
          res.on("end", () => {
            statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
            if (res.statusCode !== 200 && failures.length < 10) {
              failures.push(`request ${i}: HTTP ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 300)}`);
            }
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
  return { statuses, failures };
}

/**
 * `--mix bare`: the same trivial Worker under `workerd serve` with a two-line config, no
 * Miniflare (no entry worker, loopback, KV or rate-limit simulators): whether the growth is
 * workerd's own or the local dev stack's.
 */
async function startBareWorkerd(
  root: string,
  outdir: string,
  port: number,
  inspectorPort: number | undefined,
  v8Flags: readonly string[],
): Promise<{ child: ChildProcess; origin: string }> {
  writeFileSync(path.join(outdir, "baseline.js"), BASELINE_SCRIPT);
  writeFileSync(
    path.join(outdir, "bare.capnp"),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "baseline.js", esModule = embed "baseline.js")],
  compatibilityDate = "2026-04-01",
);
`.replace("services = [", `v8Flags = ${JSON.stringify(v8Flags)},\n  services = [`),
  );
  const binary = path.join(root, "node_modules", "@cloudflare", "workerd-linux-64", "bin", "workerd");
  const inspect = inspectorPort ? [`--inspector-addr=127.0.0.1:${inspectorPort}`] : [];
  const child = spawn(binary, ["serve", path.join(outdir, "bare.capnp"), ...inspect], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let tries = 0; tries < 100; tries++) {
    try {
      await fetch(`${origin}${BASELINE_PATH}`, { method: "POST", body: "{}" });
      return { child, origin };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  child.kill();
  throw new Error("workerd serve did not start");
}

async function main(): Promise<void> {
  const root = path.resolve(option("root", process.cwd()));
  const total = count("requests", 30_000, 1_000_000);
  const clients = count("clients", 8, 64);
  const mix = option("mix", "varied") as Mix;
  if (!Object.hasOwn(MIXES, mix)) throw new CliError(`--mix must be one of ${Object.keys(MIXES).join(", ")}`);
  const outdir = mkdtempSync(path.join(tmpdir(), "ucp-memory-"));
  let servers: Awaited<ReturnType<typeof startServers>> | undefined;
  let bare: ChildProcess | undefined;
  try {
    const heap = process.argv.includes("--heap");
    const port = count("port", 9301, 65_535);
    const inspectorPort = heap ? port + 1 : undefined;
    if (mix === "bare") {
      // e.g. --v8-flags "--max-old-space-size=16": does a small heap (a deployed isolate has 128 MB) change the growth?
      const v8Flags = option("v8-flags", "").split(" ").filter(Boolean);
      const started = await startBareWorkerd(root, outdir, port, inspectorPort, v8Flags);
      bare = started.child;
      servers = {
        origin: started.origin,
        outbound: { profileFetches: 0, unexpected: [] },
      } as unknown as typeof servers;
    } else {
      servers = await startServers(buildBundle(root, outdir).file, port, inspectorPort);
    }
    if (!servers) throw new Error("no server");
    const pid = workerdPid();
    const probe = inspectorPort
      ? await openHeapProbe(inspectorPort, mix === "bare" ? "main" : "ucp-worker")
      : undefined;
    let fixtures: Fixtures = { productIds: [] };
    if (mix === "carts" || mix === "one-cart") {
      const seeded = await seedCatalog(servers.mf, 200, 1);
      const productIds = seeded.products
        .filter((p) => p.variants?.[0]?.availability?.available !== false)
        .map((p) => p.id);
      fixtures = { productIds, cartId: (await makeCarts(servers.origin, productIds, 1))[0] };
    }
    await drive(servers.origin, 400, clients, mix, fixtures); // warm: code compiled, first isolates up
    const before = rssMb(pid);
    const smapsWarm = smapsMb(pid);
    const heapWarm = await probe?.usage();
    const started = Date.now();
    const { statuses, failures } = await drive(servers.origin, total, clients, mix, fixtures);
    const after = rssMb(pid);
    const smapsAfter = smapsMb(pid);
    // The Durable Objects run in the Worker's isolate: how many instances are alive (one native
    // DurableObjectState each) tells whether workerd, or this code, keeps objects past their use.
    const objectNodes = ["workerd / DurableObjectState"];
    // workerd runs inspector commands on the isolate's thread when it next wakes: a few
    // ordinary requests alongside make sure it does (never ones that create objects).
    const origin = servers.origin;
    const nudge = () => drive(origin, 20, 1, mix === "carts" || mix === "one-cart" ? "same" : mix, fixtures);
    const liveAfterLoad =
      probe && mix !== "bare" ? (await Promise.all([probe.countNodes(objectNodes), nudge()]))[0] : undefined;
    const idleSeconds = count("idle", 10, 3600);
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const idle = rssMb(pid);
    let heapReport:
      | {
          warm?: HeapUsage;
          after_load: HeapUsage;
          after_gc: HeapUsage;
          rss_after_gc_mb: number;
          live_durable_objects?: { after_load: number; after_idle: number };
        }
      | undefined;
    if (probe) {
      const afterLoad = await probe.usage();
      await Promise.all([probe.collectGarbage(), nudge()]);
      heapReport = {
        warm: heapWarm,
        after_load: afterLoad,
        after_gc: await probe.usage(),
        rss_after_gc_mb: rssMb(pid),
      };
      if (liveAfterLoad) {
        const afterIdle = (await Promise.all([probe.countNodes(objectNodes), nudge()]))[0];
        const live = (counts: Record<string, number>) => counts["workerd / DurableObjectState"] ?? Number.NaN;
        heapReport.live_durable_objects = { after_load: live(liveAfterLoad), after_idle: live(afterIdle) };
      }
      probe.close();
    }
    console.log(
      JSON.stringify({
        root,
        mix,
        requests: total,
        seconds: Math.round((Date.now() - started) / 1000),
        statuses,
        ...(failures.length > 0 ? { failures } : {}),
        profile_fetches: servers.outbound.profileFetches,
        rss_mb: { warm: before, after_load: after, [`after_${idleSeconds}s_idle`]: idle },
        smaps_mb: { warm: smapsWarm, after_load: smapsAfter },
        ...(heapReport ? { heap_mb: heapReport } : {}),
      }),
    );
  } finally {
    bare?.kill();
    await servers?.mf?.dispose().catch(() => undefined);
    rmSync(outdir, { recursive: true, force: true });
  }
}

await main().catch((e: unknown) => {
  if (e instanceof CliError) throw e;
  console.error("memory bench failed:", e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
