/**
 * Where the purchase journey's CPU goes (issue 14 item 2), one bundle at a time:
 *
 *   node --experimental-websocket scripts/run.mjs bench/profile.ts [--cdp] [bundle-dir ...]
 *
 * Without bundle dirs it builds the tree as deployed (wrangler --dry-run). Each round starts
 * each bundle in turn on a fresh Miniflare (a small catalog), runs the MCP journey at C = 1 (or PROFILE_CONCURRENCY)
 * and reports workerd CPU ms per journey from /proc: the figure another process's load
 * distorts least, so before/after bundles are compared alternately, round by round. With
 * --cdp it also takes a V8 CPU profile of the Worker's isolate over the inspector and prints
 * self time per function and the time under each pipeline stage.
 *
 * Env: PROFILE_SECONDS (15), PROFILE_ROUNDS (3), PROFILE_CONCURRENCY (1: least distorted by queueing), PROFILE_PORT (10020; the inspector takes
 * the next port), PROFILE_PRODUCTS (2,000), PROFILE_OUT (a file for the last round's raw V8 profile).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildBundle, bundleFile } from "./bundle";
import { journeyProductIds, runJourneys } from "./journey";
import { type CpuProfile, inclusiveTimes, openProfiler, selfTimes, selfTimesByModule } from "./profile-cdp";
import { createBenchApiKey, seedCatalog, startServers } from "./server";

const root = path.resolve(import.meta.dirname, "..");
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const seconds = env("PROFILE_SECONDS", 15);
const rounds = env("PROFILE_ROUNDS", 3);
const port = env("PROFILE_PORT", 10020);
const products = env("PROFILE_PRODUCTS", 2000);
const concurrency = env("PROFILE_CONCURRENCY", 1);
const cdp = process.argv.includes("--cdp");
const dirs = process.argv.slice(2).filter((a) => !a.startsWith("--"));

/** Functions whose inclusive time the --cdp summary lists (the pipeline's stages). */
const STAGES = (process.env.PROFILE_STAGES ?? "").split(",").filter(Boolean);

async function measure(file: string): Promise<{ cpuMs: number; jps: number; failed: number; profile?: CpuProfile }> {
  const servers = await startServers(file, port, port + 1);
  try {
    const seeded = await seedCatalog(servers.mf, products, 1);
    const apiKey = await createBenchApiKey(servers.mf);
    const inputs = { origin: servers.direct.ucp, apiKey, productIds: journeyProductIds(seeded) };
    const options = { seconds, warmupSeconds: 3, concurrency, maxRequests: 1e9, timeoutMs: 30_000 };
    const profiler = cdp ? await openProfiler(port + 1, "ucp-worker") : undefined;
    await profiler?.start();
    const row = await runJourneys("mcp", inputs, options, 1);
    const profile = await profiler?.stop();
    profiler?.close();
    // For DevTools or a caller analysis: the raw V8 profile of the last round.
    if (profile && process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
    if (row.firstFailure) console.error(`  first failure: ${row.firstFailure}`);
    return { cpuMs: row.workerdCpuMsPerJourney, jps: row.journeysPerSecond, failed: row.failed, profile };
  } finally {
    await servers.mf.dispose();
  }
}

function printProfile(label: string, file: string, profile: CpuProfile, jps: number) {
  // The profile spans the warm-up too: journeys = rate × the profile's own duration.
  const journeys = Math.max(1, (jps * (profile.endTime - profile.startTime)) / 1e6);
  console.log(`\n${label}: self time per module (ms per journey, share of samples)`);
  for (const t of selfTimesByModule(profile, readFileSync(file, "utf8")).slice(0, 30))
    console.log(`  ${(t.ms / journeys).toFixed(3).padStart(8)}  ${(t.share * 100).toFixed(1).padStart(5)}%  ${t.name}`);
  const top = selfTimes(profile).slice(0, 40);
  console.log(`\n${label}: self time per function (ms per journey, share of samples)`);
  for (const t of top)
    console.log(`  ${(t.ms / journeys).toFixed(3).padStart(8)}  ${(t.share * 100).toFixed(1).padStart(5)}%  ${t.name}`);
  if (STAGES.length) {
    console.log(`${label}: inclusive time (ms per journey)`);
    for (const [name, ms] of inclusiveTimes(profile, STAGES))
      console.log(`  ${(ms / journeys).toFixed(3).padStart(8)}  ${name}`);
  }
}

const temp = mkdtempSync(path.join(tmpdir(), "ucp-profile-"));
try {
  const bundles = dirs.length
    ? dirs.map((d) => ({ label: d, file: bundleFile(d) }))
    : [{ label: "tree", file: buildBundle(root, path.join(temp, "tree")).file }];
  // Keep a copy of a freshly built bundle so a later run can compare against it.
  if (!dirs.length && process.env.PROFILE_SAVE)
    cpSync(path.dirname(bundles[0]?.file as string), process.env.PROFILE_SAVE, { recursive: true });
  const results = new Map(bundles.map((b) => [b.label, [] as number[]]));
  for (let round = 0; round < rounds; round++) {
    for (const b of bundles) {
      const r = await measure(b.file);
      results.get(b.label)?.push(r.cpuMs);
      console.log(
        `round ${round + 1} ${b.label}: ${r.cpuMs.toFixed(2)} ms CPU/journey, ${r.jps.toFixed(1)} journeys/s, ${r.failed} failed`,
      );
      if (r.profile) printProfile(b.label, b.file, r.profile, r.jps);
    }
  }
  for (const [label, cpu] of results) {
    const sorted = [...cpu].sort((a, b) => a - b);
    console.log(
      `${label}: median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(2)} ms CPU/journey (${sorted.map((c) => c.toFixed(1)).join(", ")})`,
    );
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
