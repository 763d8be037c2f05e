/**
 * What `npm start` costs beside the deployed bundle (issue 29 item 3), and what the local
 * runtime holds after the journeys (item 4):
 *
 *   node scripts/run.mjs bench/start-cost.ts bundle start "start --inspector-port 9339" ...
 *
 * Each argument is one variant: `bundle` (the deployed bundle on Miniflare,
 * bench/purchase/serve-bundle.ts) or `start` followed by extra flags for `npm start` (its own,
 * scripts/lib/start-flags.ts; `env:NAME=value` words set an environment variable instead). Each runs on
 * a fresh copy of one prepared state on tmpfs: warm-up, then the four-step journey with its
 * webhook (bench/purchase/drive.ts) at START29_CONCURRENCY (32) for START29_SECONDS (10).
 * Printed per variant: CPU ms per journey over the whole process group and per process
 * (/proc), journeys/s, failures, RSS per process every START29_SAMPLE_SECONDS (5) and the
 * load average beside each figure (the machine is shared).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildBundle, bundleFile } from "./bundle";
import { drive, type Target } from "./purchase/drive";
import { startPlatform } from "./purchase/platform";
import { groupProcesses, loadAverage } from "./purchase/proc";
import { projectRoot } from "./purchase/root";
import {
  freePort,
  freshCopy,
  ourTarget,
  prepareState,
  type Running,
  spawnGroup,
  startBundle,
  stopGroup,
  waitReady,
} from "./purchase/stores";

const root = projectRoot();
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const seconds = env("START29_SECONDS", 10);
const warmup = env("START29_WARMUP_SECONDS", 3);
const concurrency = env("START29_CONCURRENCY", 32);
const sampleSeconds = env("START29_SAMPLE_SECONDS", 5);

/** `npm start` with `extra` flags (and env:NAME=value settings), as bench/purchase/stores.ts runs it. */
async function startVariant(state: string, port: number, extra: readonly string[]): Promise<Running> {
  const flags = extra.filter((w) => !w.startsWith("env:"));
  const vars = Object.fromEntries(
    extra.filter((w) => w.startsWith("env:")).map((w) => w.slice(4).split("=", 2) as [string, string]),
  );
  const { child, log } = spawnGroup(
    ["scripts/run.mjs", "scripts/start.ts", "--ip", "127.0.0.1", "--persist-to", state, ...flags],
    { PORT: String(port), ...vars },
    `${state}.log`,
  );
  const origin = `http://127.0.0.1:${port}`;
  await waitReady(child, `${origin}/.well-known/ucp`, 120_000, log);
  return { origin, group: child.pid as number, stop: () => stopGroup(child) };
}

/** A process's short name (comm) and its first arguments, to tell node, wrangler and each workerd apart. */
function label(pid: number): string {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    const exe = path.basename(argv[0] ?? "?");
    const script = argv.slice(1).find((a) => /\.(m?[jt]s)$/.test(a) || a === "serve");
    return script ? `${exe} ${path.basename(script)}` : exe;
  } catch {
    return `pid ${pid}`;
  }
}

const ticks = (group: number) => new Map(groupProcesses(group).map((p) => [p.pid, p]));
const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;

const temp = mkdtempSync(path.join(tmpdir(), "ucp-start29-"));
const platform = await startPlatform();
const variants = process.argv.slice(2);
if (variants.length === 0) variants.push("bundle", "start");
try {
  const template = mkdtempSync(path.join("/dev/shm", "ucp-start29-template-"));
  const state = await prepareState(
    template,
    temp,
    Array.from({ length: concurrency }, (_, n) => platform.profileUrl(n)),
  );
  const bundle = variants.includes("bundle")
    ? process.env.BENCH_BUNDLE
      ? bundleFile(process.env.BENCH_BUNDLE)
      : buildBundle(root, path.join(temp, "bundle")).file
    : "";
  const target = (origin: string): Target => ourTarget(state, platform, origin);
  for (const variant of variants) {
    const [kind, ...extra] = variant.split(" ").filter(Boolean);
    const dir = freshCopy(state, "/dev/shm");
    const port = await freePort();
    const run = kind === "bundle" ? await startBundle(bundle, dir, port) : await startVariant(dir, port, extra);
    try {
      if (warmup > 0) await drive(target(run.origin), concurrency, warmup);
      const before = ticks(run.group);
      const t0 = performance.now();
      const samples: string[] = [];
      const sampler = setInterval(() => {
        const at = ((performance.now() - t0) / 1000).toFixed(0);
        const rss = groupProcesses(run.group)
          .filter((p) => p.rssBytes > 20e6)
          .map((p) => `${label(p.pid)} ${mb(p.rssBytes)}`);
        samples.push(`    t=${at}s ${rss.join(", ")} (load ${loadAverage()})`);
      }, sampleSeconds * 1000);
      const tally = await drive(target(run.origin), concurrency, seconds);
      clearInterval(sampler);
      const wall = (performance.now() - t0) / 1000;
      const after = ticks(run.group);
      const n = tally.journeys.length;
      let total = 0;
      const parts: string[] = [];
      for (const [pid, p] of after) {
        const used = (p.ticks - (before.get(pid)?.ticks ?? 0)) * 10; // ms (USER_HZ 100)
        total += used;
        if (used > 0) parts.push(`${label(pid)} ${(used / n).toFixed(2)}`);
      }
      console.log(
        `${variant}: ${(total / n).toFixed(2)} CPU ms/journey, ${(n / wall).toFixed(1)} journeys/s, ${tally.failed} failed, load ${loadAverage()}`,
      );
      console.log(`  per process (ms/journey): ${parts.join("; ")}`);
      for (const s of samples) console.log(s);
      const rss = [...after.values()].map((p) => `${label(p.pid)} ${mb(p.rssBytes)}`);
      console.log(`  after: ${rss.join(", ")}`);
      if (tally.firstFailure) console.log(`  first failure: ${tally.firstFailure}`);
      const log = readFileSync(`${dir}.log`, "utf8");
      console.log(
        `  its output: ${log.split("\n").length} lines, last: ${JSON.stringify(log.trim().split("\n").slice(-2))}`,
      );
    } finally {
      await run.stop();
      rmSync(dir, { recursive: true, force: true });
      rmSync(`${dir}.log`, { force: true });
    }
  }
  rmSync(template, { recursive: true, force: true });
} finally {
  await platform.close();
  rmSync(temp, { recursive: true, force: true });
}
process.exit(0);
