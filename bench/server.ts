/**
 * One Miniflare (one workerd process) serving the deployed bundle and the baselines on a
 * loopback port, plus KV seeding. Baselines share the runtime so their latency contains
 * exactly the transport and runtime overhead the real Worker also pays.
 */
import { mkdtempSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Request as MfRequest, Response as MfResponse, Miniflare, type WorkerOptions } from "miniflare";
import { kvEntries, validateCatalog } from "../scripts/lib/catalog-file";
import { type AuthKv, createApiKey } from "../src/auth/api-keys";
import { KV_KEYS } from "../src/catalog/kv-layout";
import { generateCatalog } from "./generate-catalog";

export const PROFILE_URL = "https://agent.bench/profile.json";
export const BASELINE_PATH = "/baseline";
export const DO_BASELINE_PATH = "/do-baseline";

/**
 * Host names (sent as the Host header; the socket still goes to 127.0.0.1) that route to
 * extra copies of the Worker for the rate-limit figures. `.localhost` is reserved for loopback.
 */
export const RATE_LIMITED_HOST = "ratelimited.localhost";
export const UNLIMITED_HOST = "unlimited.localhost";
/** A second copy without the limiter: an A/A control for the copy-to-copy difference. */
export const UNLIMITED_TWIN_HOST = "unlimited-twin.localhost";
export const BURST_HOST = "burst.localhost";
/** The burst copy's anonymous budget per 60 s, small enough to exceed in a fraction of a second. */
export const BURST_LIMIT = 100;
/** Far above what loopback can send in 60 s (~2,000 req/s at best): never reached. */
const UNREACHABLE_LIMIT = 10_000_000;

/** A platform profile as the platform profile schema wants it: services, handlers, spec and schema. */
const CAPABILITIES = ["catalog.search", "catalog.lookup", "cart", "checkout", "order", "fulfillment", "discount"];
const PROFILE_BODY = JSON.stringify({
  ucp: {
    version: "2026-04-08",
    services: {},
    capabilities: Object.fromEntries(
      CAPABILITIES.map((c) => [
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
});

/**
 * The trivial JSON-RPC answer: what a Worker costs when it does no work at all. It drains
 * the body (as the real Worker does): workerd closes a keep-alive connection whose request
 * body was left unread, which would make every next request on it fail.
 */
export const BASELINE_SCRIPT = `export default {
  async fetch(request) {
    await request.arrayBuffer();
    return new Response(JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }), {
      headers: { "content-type": "application/json" },
    });
  },
};`;

/**
 * The bare Durable Object round trip: drain the body, one RPC to a SQLite-backed object
 * (spread over 256 names, like carts), a small JSON answer. What any cart call costs at least.
 */
const DO_BASELINE_SCRIPT = `import { DurableObject } from "cloudflare:workers";
export class Echo extends DurableObject {
  async ping() { return { ok: true }; }
}
let next = 0;
export default {
  async fetch(request, env) {
    await request.arrayBuffer();
    const reply = await env.ECHO.getByName(String(next++ % 256)).ping();
    return new Response(JSON.stringify({ jsonrpc: "2.0", id: 1, result: reply }), {
      headers: { "content-type": "application/json" },
    });
  },
};`;

export interface OutboundStats {
  profileFetches: number;
  /** Outbound requests to anything but the profile URL (should stay 0). */
  unexpected: string[];
}

export interface Servers {
  readonly mf: Miniflare;
  /** http://127.0.0.1:<port>: Miniflare's entry worker, which routes to every worker below. */
  readonly origin: string;
  /**
   * The UCP Worker and the bare-DO worker on sockets of their own (Miniflare's direct
   * sockets): the same workerd, bindings and storage, without the entry worker in front.
   * That worker is dev tooling (cf blob, routing, header rewrites, a second Request and
   * Response per request) with no counterpart on Cloudflare, and cost ~0.28 ms of workerd CPU
   * per request, about a tenth of a purchase journey (docs/benchmarks.md).
   */
  readonly direct: { readonly ucp: string; readonly doBaseline: string };
  readonly outbound: OutboundStats;
}

/** Both `[[ratelimits]]` bindings of wrangler.toml, with the anonymous limit given. */
function rateLimits(anonymous: number): NonNullable<WorkerOptions["ratelimits"]> {
  return {
    RATE_LIMIT_ANONYMOUS: { simple: { limit: anonymous, period: 60 } },
    RATE_LIMIT_AUTHENTICATED: { simple: { limit: UNREACHABLE_LIMIT, period: 60 } },
  };
}

/**
 * One copy of the deployed Worker. Every copy binds the same `CATALOG` namespace id, so they
 * share the seeded catalog (Miniflare keys KV storage by namespace id, not by worker).
 */
function ucpWorker(name: string, scriptPath: string, outbound: OutboundStats, extra: WorkerOptions): WorkerOptions {
  return {
    name,
    modules: true,
    scriptPath,
    // Module names are relative to this root; the bundle lives in a temp dir outside the repo.
    modulesRoot: path.dirname(scriptPath),
    compatibilityDate: "2026-04-01",
    compatibilityFlags: ["nodejs_compat"],
    kvNamespaces: ["CATALOG"],
    bindings: {
      MERCHANT_NAME: "Bench Store",
      MERCHANT_ORIGIN: "https://bench.example",
      MERCHANT_CURRENCY: "USD",
      PROFILE_FALLBACK: "strict",
      CART_TTL_HOURS: "72",
      ID_SIGNING_KEY: "bench-signing-key",
      // The journeys pay with the built-in test handler; a store not in test mode places no order.
      PAYMENT_TEST_MODE: "true",
    },
    outboundService: (request: MfRequest) => answerOutbound(request.url, outbound),
    ...extra,
  };
}

/** Linux's tmpfs magic number (statfs f_type). */
const TMPFS_MAGIC = 0x01021994;

/**
 * Where Miniflare keeps its temporary (never persisted) Durable Object and KV storage:
 * BENCH_STORAGE_DIR if set, else /dev/shm when it is a tmpfs, else the OS temp dir. On this
 * machine's ext4 every new SQLite-backed object cost ~3 ms of kernel CPU in inode allocation
 * (perf: ext4 `recently_deleted` under SQLite's unixOpen), about a fifth of a journey: a
 * property of the disk, not of the Worker (docs/benchmarks.md, "Where a new object's time goes").
 */
export function benchStorageDir(): string | undefined {
  const chosen = process.env.BENCH_STORAGE_DIR;
  if (chosen) return chosen;
  try {
    return statfsSync("/dev/shm").type === TMPFS_MAGIC ? "/dev/shm" : undefined;
  } catch {
    return undefined;
  }
}

const ownDirs = new Set<string>();

/**
 * Miniflare picks its temporary directory from os.tmpdir() (TMPDIR) in its constructor, and
 * leaves it behind when disposed: on tmpfs every run kept its storage in memory (7.2 GB after
 * a day of runs, and later runs slower). So each Miniflare gets a directory of this process's,
 * removed when the process exits.
 */
export function withTempDir<T>(dir: string | undefined, make: () => T): T {
  const own = mkdtempSync(path.join(dir ?? tmpdir(), "ucp-bench-storage-"));
  if (ownDirs.size === 0)
    process.once("exit", () => {
      for (const d of ownDirs) rmSync(d, { recursive: true, force: true });
    });
  ownDirs.add(own);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = own;
  try {
    return make();
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
}
/**
 * A Miniflare serving one probe script (bench/new-object.ts, bench/open-objects.ts): its
 * SQLite-backed `Probe` class bound as PROBE, its temporary storage under `dir`.
 */
export function probeMiniflare(dir: string | undefined, port: number, script: string): Miniflare {
  return withTempDir(
    dir,
    () =>
      new Miniflare({
        host: "127.0.0.1",
        port,
        modules: true,
        script,
        compatibilityDate: "2026-04-01",
        durableObjects: { PROBE: { className: "Probe", useSQLite: true } },
      }),
  );
}

export async function startServers(scriptPath: string, port: number, inspectorPort?: number): Promise<Servers> {
  const outbound: OutboundStats = { profileFetches: 0, unexpected: [] };
  const mf = withTempDir(
    benchStorageDir(),
    () =>
      new Miniflare({
        host: "127.0.0.1",
        port,
        // bench/memory.ts --heap reads the isolate's heap through the V8 inspector.
        ...(inspectorPort ? { inspectorPort } : {}),
        // Miniflare's per-request log line is dev tooling, not part of the Worker being measured.
        logRequests: false,
        workers: [
          // First worker = fallback for every URL no route claims (i.e. 127.0.0.1/ucp/mcp). As
          // deployed: both rate limits bound, at a limit the bench never reaches.
          ucpWorker("ucp-worker", scriptPath, outbound, {
            durableObjects: {
              CART: { className: "CartObject", useSQLite: true },
              CHECKOUT: { className: "CheckoutObject", useSQLite: true },
              ORDER: { className: "OrderObject", useSQLite: true },
              INVENTORY: { className: "InventoryObject", useSQLite: true },
              ORDER_INDEX: { className: "OrderIndexObject", useSQLite: true },
            },
            kvNamespaces: ["CATALOG", "AUTH"],
            ratelimits: rateLimits(UNREACHABLE_LIMIT),
            unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
          }),
          // Two copies for "under the limit is not slowed", identical but for the limiter bindings
          // and neither the main entry, so neither inherits caches warmed by other scenarios. No
          // Durable Objects: ping and get_product use none.
          ucpWorker("ucp-ratelimited", scriptPath, outbound, {
            ratelimits: rateLimits(UNREACHABLE_LIMIT),
            routes: [`${RATE_LIMITED_HOST}/*`],
          }),
          ucpWorker("ucp-unlimited", scriptPath, outbound, { routes: [`${UNLIMITED_HOST}/*`] }),
          ucpWorker("ucp-unlimited-twin", scriptPath, outbound, { routes: [`${UNLIMITED_TWIN_HOST}/*`] }),
          // Its own limiter state, so the burst cannot spend the budget of the copies above.
          ucpWorker("ucp-burst", scriptPath, outbound, {
            ratelimits: rateLimits(BURST_LIMIT),
            routes: [`${BURST_HOST}/*`],
          }),
          {
            name: "baseline",
            modules: true,
            script: BASELINE_SCRIPT,
            compatibilityDate: "2026-04-01",
            routes: [`127.0.0.1${BASELINE_PATH}*`],
          },
          {
            name: "do-baseline",
            modules: true,
            script: DO_BASELINE_SCRIPT,
            compatibilityDate: "2026-04-01",
            durableObjects: { ECHO: { className: "Echo", useSQLite: true } },
            routes: [`127.0.0.1${DO_BASELINE_PATH}*`],
            unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
          },
        ],
      }),
  );
  const url = await mf.ready;
  const direct = async (name: string) => (await mf.unsafeGetDirectURL(name)).origin;
  return {
    mf,
    origin: `http://127.0.0.1:${url.port}`,
    direct: { ucp: await direct("ucp-worker"), doBaseline: await direct("do-baseline") },
    outbound,
  };
}

function answerOutbound(url: string, stats: OutboundStats): MfResponse {
  if (url === PROFILE_URL) {
    stats.profileFetches++;
    return new MfResponse(PROFILE_BODY, {
      headers: { "content-type": "application/json", "cache-control": "public, max-age=3600" },
    });
  }
  if (stats.unexpected.length < 20) stats.unexpected.push(url);
  return new MfResponse("not found", { status: 404 });
}

/** An API key bound to the bench's platform profile, stored as the Worker looks it up (AUTH KV). */
export async function createBenchApiKey(mf: Miniflare): Promise<string> {
  // Miniflare's Node-side KV types differ from workers-types only in list()'s metadata type;
  // createApiKey only puts.
  const kv = (await mf.getKVNamespace("AUTH")) as unknown as AuthKv;
  const { key } = await createApiKey(kv, { profile: PROFILE_URL, label: "bench" }, Date.now());
  return key;
}

export interface SeedInfo {
  /** The generated catalog (validated), for building realistic queries and ids. */
  readonly products: ReadonlyArray<{
    id: string;
    title: string;
    tags?: readonly string[];
    variants?: ReadonlyArray<{ id?: string; availability?: { available?: boolean } }>;
  }>;
  /** Units on hand per variant id, as loaded into catalog:stock (untracked variants absent). */
  readonly stock: Readonly<Record<string, number>>;
  readonly pairs: number;
  readonly indexBytes: number;
  readonly totalBytes: number;
  readonly generateMs: number;
  readonly seedMs: number;
}

const CHUNK = 200;

/** generateCatalog → validateCatalog → kvEntries → KV, manifest last (as the real loader does). */
export async function seedCatalog(mf: Miniflare, count: number, seed: number): Promise<SeedInfo> {
  const started = performance.now();
  const { catalog, problems } = validateCatalog(generateCatalog(count, seed), "USD");
  if (!catalog) {
    const shown = problems.slice(0, 5).map((p) => `${p.where}: ${p.message}`);
    throw new Error(`generated catalog is invalid (${problems.length} problems)\n${shown.join("\n")}`);
  }
  const { data, manifest } = kvEntries(catalog, `bench-${count}-${seed}`, new Date());
  const generateMs = performance.now() - started;

  const kv = await mf.getKVNamespace("CATALOG");
  const seedStart = performance.now();
  for (let i = 0; i < data.length; i += CHUNK) {
    await Promise.all(data.slice(i, i + CHUNK).map((pair) => kv.put(pair.key, pair.value)));
  }
  await kv.put(manifest.key, manifest.value);
  const seedMs = performance.now() - seedStart;

  const index = data.find((pair) => pair.key === KV_KEYS.index);
  const bytes = (s: string) => Buffer.byteLength(s, "utf8");
  return {
    products: catalog.products,
    stock: catalog.stock,
    pairs: data.length + 1,
    indexBytes: index ? bytes(index.value) : 0,
    totalBytes: data.reduce((sum, pair) => sum + bytes(pair.value), bytes(manifest.value)),
    generateMs,
    seedMs,
  };
}
