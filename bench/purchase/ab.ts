/**
 * Two or more built bundles, the purchase with its webhook, rounds alternated (ABBA…) on fresh
 * state on tmpfs (issue 29): CPU ms per journey (/proc, the server's group), so a change is
 * compared with its parent under the same load. (Instructions retired would be steadier, but
 * this machine's VM exposes no hardware counters to perf.)
 *
 *   node --experimental-websocket scripts/run.mjs bench/purchase/ab.ts <bundle dir> <bundle dir> ...
 *
 * Env: AB29_SECONDS (10), AB29_ROUNDS (4), AB29_CONCURRENCY (16: under wrangler.toml's
 * per-platform limit, and below the open-object count at which local SQLite runs out).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { bundleFile } from "../bundle";
import { drive, type Target } from "./drive";
import { startPlatform } from "./platform";
import { groupCpuSeconds, loadAverage } from "./proc";
import { freePort, freshCopy, ourTarget, prepareState, startBundle } from "./stores";

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const seconds = env("AB29_SECONDS", 10);
const rounds = env("AB29_ROUNDS", 4);
const concurrency = env("AB29_CONCURRENCY", 16);
const bundles = process.argv.slice(2);
if (bundles.length < 2) throw new Error("usage: bench/purchase/ab.ts <bundle dir> <bundle dir> ...");

for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));
const temp = mkdtempSync(path.join(tmpdir(), "ucp-ab29-"));
const platform = await startPlatform();
const results = new Map<string, number[]>(bundles.map((b) => [b, []]));
try {
  const template = mkdtempSync(path.join("/dev/shm", "ucp-ab29-template-"));
  const state = await prepareState(
    template,
    temp,
    Array.from({ length: concurrency }, (_, n) => platform.profileUrl(n)),
  );
  const target = (origin: string): Target => ourTarget(state, platform, origin);
  for (let round = 1; round <= rounds; round++) {
    for (const b of round % 2 === 1 ? bundles : [...bundles].reverse()) {
      const dir = freshCopy(state, "/dev/shm");
      const run = await startBundle(bundleFile(b), dir, await freePort());
      try {
        await drive(target(run.origin), concurrency, 3);
        const cpu0 = groupCpuSeconds(run.group);
        const tally = await drive(target(run.origin), concurrency, seconds);
        const cpu = groupCpuSeconds(run.group) - cpu0;
        const n = tally.journeys.length;
        results.get(b)?.push((cpu * 1000) / n);
        console.log(
          `round ${round} ${b}: ${n} journeys, ${((cpu * 1000) / n).toFixed(2)} CPU ms each, ${tally.failed} failed, load ${loadAverage()}`,
        );
      } finally {
        await run.stop();
        rmSync(dir, { recursive: true, force: true });
        // The server's log beside its state (stores.ts startBundle): tmpfs is memory.
        rmSync(`${dir}.log`, { force: true });
      }
    }
  }
  rmSync(template, { recursive: true, force: true });
} finally {
  await platform.close();
  rmSync(temp, { recursive: true, force: true });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] as number;
console.log("\n| bundle | CPU ms per journey (median; rounds) |");
console.log("| --- | ---: |");
for (const [b, xs] of results) {
  console.log(`| ${b} | ${median(xs).toFixed(2)} (${xs.map((x) => x.toFixed(2)).join(", ")}) |`);
}
process.exit(0);
