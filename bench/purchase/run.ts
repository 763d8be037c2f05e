/**
 * The purchase benchmark of issue 29 (`BENCH_ONLY=journey29 npm run bench`): the four-step
 * REST journey with its order webhook received, against this Worker through the user's path
 * (`npm start`) and as the bundle on Miniflare, and against the UCP Node reference server,
 * with state on tmpfs and on disk, at each concurrency, in interleaved rounds on fresh state.
 *
 * Env: BENCH29_SECONDS (20), BENCH29_WARMUP_SECONDS (3), BENCH29_ROUNDS (2),
 * BENCH29_CONCURRENCY (32,64), BENCH29_SERVERS (reference,bundle,npm-start),
 * BENCH29_STATES (tmpfs,disk), BENCH29_TMPFS_DIR (/dev/shm), BENCH29_DISK_DIR (the OS temp
 * dir when it is not a tmpfs), UCP_SAMPLES_DIR (the samples checkout; without it the
 * reference's row says how to get it), BENCH_BUNDLE (a built bundle directory).
 */
import { mkdtempSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildBundle, bundleFile } from "../bundle";
import { drive, latencies, REFERENCE, type Target } from "./drive";
import { startPlatform } from "./platform";
import { groupCpuSeconds, groupRssBytes, loadAverage } from "./proc";
import { prepareReference, type Reference, startReference } from "./reference";
import { markdownTable, type RoundResult, SERVER_LABEL, type ServerKind, type StateKind } from "./report";
import { projectRoot } from "./root";
import {
  freePort,
  freshCopy,
  type OurState,
  ourTarget,
  prepareState,
  type Running,
  removeState,
  startBundle,
  startNpmStart,
} from "./stores";

const root = projectRoot();
const TMPFS_MAGIC = 0x01021994;

export interface PurchaseOptions {
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly rounds: number;
  readonly concurrency: readonly number[];
  readonly servers: readonly ServerKind[];
  readonly states: readonly StateKind[];
  /** How long to wait after a run for its webhooks (s). */
  readonly webhookWaitSeconds: number;
}

export interface PurchaseReport {
  readonly results: RoundResult[];
  readonly missing: string[];
  readonly table: string;
  readonly dirs: Readonly<Record<StateKind, string>>;
}

const list = (name: string, fallback: string) => (process.env[name] ?? fallback).split(",").filter(Boolean);
/** A list of names, each one of `allowed`: a wrong one is named before anything starts. */
const names = <T extends string>(name: string, allowed: readonly T[]): T[] => {
  const given = list(name, allowed.join(","));
  const wrong = given.filter((v) => !(allowed as readonly string[]).includes(v));
  if (wrong.length > 0 || given.length === 0)
    throw new Error(`${name}: ${wrong.join(", ") || "empty"} is not one of ${allowed.join(", ")}`);
  return given as T[];
};
const num = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(v) || v < 0) throw new Error(`${name} must be a non-negative number`);
  return v;
};

export function optionsFromEnv(): PurchaseOptions {
  return {
    seconds: num("BENCH29_SECONDS", 20),
    warmupSeconds: num("BENCH29_WARMUP_SECONDS", 3),
    rounds: Math.max(1, Math.floor(num("BENCH29_ROUNDS", 2))),
    concurrency: list("BENCH29_CONCURRENCY", "32,64").map((c) => {
      const n = Number(c);
      if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH29_CONCURRENCY: ${c} is not a positive whole number`);
      return n;
    }),
    servers: names<ServerKind>("BENCH29_SERVERS", ["reference", "bundle", "npm-start"]),
    states: names<StateKind>("BENCH29_STATES", ["tmpfs", "disk"]),
    webhookWaitSeconds: num("BENCH29_WEBHOOK_WAIT_SECONDS", 15),
  };
}

const isTmpfs = (dir: string) => {
  try {
    return statfsSync(dir).type === TMPFS_MAGIC;
  } catch {
    return false;
  }
};

/** Where each state kind lives; refuses a "disk" that is a tmpfs or a "tmpfs" that is not. */
function stateDirs(): Record<StateKind, string> {
  const tmpfs = process.env.BENCH29_TMPFS_DIR ?? "/dev/shm";
  const disk = process.env.BENCH29_DISK_DIR ?? (isTmpfs(tmpdir()) ? path.join(root, ".bench") : tmpdir());
  if (!isTmpfs(tmpfs)) throw new Error(`${tmpfs} is not a tmpfs (BENCH29_TMPFS_DIR)`);
  if (isTmpfs(disk)) throw new Error(`${disk} is a tmpfs, not a disk (BENCH29_DISK_DIR)`);
  return { tmpfs, disk };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function benchPurchase(
  options: PurchaseOptions,
  step: (message: string) => void = (m) => console.log(`• ${m}`),
): Promise<PurchaseReport> {
  const dirs = stateDirs();
  const scratch = mkdtempSync(path.join(tmpdir(), "ucp-bench29-"));
  const platform = await startPlatform();
  const results: RoundResult[] = [];
  const missing: string[] = [];
  // The prepared state lives on tmpfs, i.e. in memory: it goes with the run.
  let template: string | undefined;
  const leftOnDisk: string[] = [];
  try {
    const clients = Math.max(...options.concurrency);
    let ours: OurState | undefined;
    let bundle: string | undefined;
    if (options.servers.some((s) => s !== "reference")) {
      template = mkdtempSync(path.join(dirs.tmpfs, "ucp-bench29-template-"));
      step(`preparing our store's state (demo catalog, ${clients} platforms' API keys)`);
      ours = await prepareState(
        template,
        scratch,
        Array.from({ length: clients }, (_, n) => platform.profileUrl(n)),
      );
    }
    if (options.servers.includes("bundle")) {
      const prebuilt = process.env.BENCH_BUNDLE;
      bundle = prebuilt ? bundleFile(prebuilt) : buildBundle(root, path.join(scratch, "bundle")).file;
      step(`bundle ${bundle}`);
    }
    let reference: Reference | undefined;
    if (options.servers.includes("reference")) {
      const prepared = prepareReference(step);
      if (typeof prepared === "string") {
        missing.push(`${SERVER_LABEL.reference}: ${prepared}`);
        step(`reference row missing: ${prepared}`);
      } else {
        reference = prepared;
        step(`reference server from samples ${prepared.commit.slice(0, 7)} in ${prepared.dir}`);
      }
    }
    const start = async (
      server: ServerKind,
      state: StateKind,
    ): Promise<{ run: Running; target: Target; cleanup: () => void }> => {
      const port = await freePort();
      if (server === "reference") {
        const run = await startReference(reference as Reference, dirs[state], port);
        const profile = `profile="${platform.referenceProfile}"`;
        return {
          run,
          target: {
            origin: run.origin,
            dialect: REFERENCE,
            productIds: REFERENCE_PRODUCTS,
            headers: () => ({ "ucp-agent": profile }),
          },
          cleanup: () => {},
        };
      }
      const state0 = ours as OurState;
      const dir = freshCopy(state0, dirs[state]);
      const run = server === "bundle" ? await startBundle(bundle as string, dir, port) : await startNpmStart(dir, port);
      return {
        run,
        target: ourTarget(state0, platform, run.origin),
        // On disk, removed after the last round, not before the next run: this disk (ext4
        // without a journal) passes over every inode freed in the last half minute to make a
        // file, so a run started right after thousands of files were deleted paid for them.
        cleanup: () => (state === "disk" ? leftOnDisk.push(dir) : removeState(dir)),
      };
    };
    const servers = options.servers.filter((s) => s !== "reference" || reference);
    for (let round = 1; round <= options.rounds; round++) {
      for (const concurrency of options.concurrency) {
        for (const state of options.states) {
          for (const server of servers) {
            step(`round ${round}: ${server}, state on ${state}, c=${concurrency} (load average ${loadAverage()})`);
            let started: Awaited<ReturnType<typeof start>>;
            try {
              started = await start(server, state);
            } catch (e) {
              // A server that does not start is a row of its own (0 journeys), not the end of the run.
              const why = e instanceof Error ? (e.message.split("\n")[0] ?? "") : String(e);
              console.error(`  did not start: ${e instanceof Error ? e.message.slice(-1500) : e}`);
              results.push(notStarted(server, state, concurrency, why));
              continue;
            }
            const { run, target, cleanup } = started;
            try {
              results.push(await measure(server, state, concurrency, run, target, options, platform.delivered));
              const r = results[results.length - 1] as RoundResult;
              step(
                `  ${(r.delivered / r.seconds).toFixed(1)} journeys/s, ${r.cpuMsPerJourney.toFixed(1)} CPU ms/journey, p50 ${r.p50.toFixed(0)} p99 ${r.p99.toFixed(0)} ms, ${r.failedRequests} failed, webhooks ${r.delivered}/${r.journeys}, ${(r.rssBytes / 1e9).toFixed(2)} GB, load ${r.loadAverage}`,
              );
              if (r.firstFailure) console.error(`  first failure: ${r.firstFailure}`);
            } finally {
              await run.stop();
              cleanup();
            }
          }
        }
      }
    }
  } finally {
    await platform.close();
    for (const dir of leftOnDisk) removeState(dir);
    rmSync(scratch, { recursive: true, force: true });
    if (template) rmSync(template, { recursive: true, force: true });
  }
  return { results, missing, table: markdownTable(results, missing), dirs };
}

function notStarted(server: ServerKind, state: StateKind, concurrency: number, why: string): RoundResult {
  const nan = Number.NaN;
  return {
    server,
    state,
    concurrency,
    seconds: 1,
    journeys: 0,
    delivered: 0,
    failedRequests: 0,
    firstFailure: `did not start: ${why}`,
    cpuMsPerJourney: nan,
    p50: nan,
    p99: nan,
    rssBytes: nan,
    loadAverage: loadAverage(),
  };
}

/** The reference's own catalog (its products.db). */
const REFERENCE_PRODUCTS = [
  "bouquet_roses",
  "pot_ceramic",
  "bouquet_sunflowers",
  "bouquet_tulips",
  "orchid_white",
  "gardenias",
];

async function measure(
  server: ServerKind,
  state: StateKind,
  concurrency: number,
  run: Running,
  target: Target,
  options: PurchaseOptions,
  delivered: ReadonlySet<string>,
): Promise<RoundResult> {
  if (options.warmupSeconds > 0) await drive(target, concurrency, options.warmupSeconds);
  const cpu0 = groupCpuSeconds(run.group);
  const t0 = performance.now();
  const tally = await drive(target, concurrency, options.seconds);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = groupCpuSeconds(run.group) - cpu0;
  // Webhooks go out after the answer (ours) or before it (the reference): wait for the stragglers.
  const until = performance.now() + options.webhookWaitSeconds * 1000;
  const arrived = () => tally.orders.filter((id) => delivered.has(id)).length;
  while (arrived() < tally.orders.length && performance.now() < until) await sleep(100);
  const { p50, p99 } = latencies(tally.journeys);
  return {
    server,
    state,
    concurrency,
    seconds,
    journeys: tally.journeys.length,
    delivered: arrived(),
    failedRequests: tally.failed,
    ...(tally.firstFailure ? { firstFailure: tally.firstFailure } : {}),
    cpuMsPerJourney: (cpu * 1000) / tally.journeys.length,
    p50,
    p99,
    rssBytes: groupRssBytes(run.group),
    loadAverage: loadAverage(),
  };
}
