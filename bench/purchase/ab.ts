/**
 * Two or more built bundles, the purchase with its webhook, rounds alternated (ABBA…) on fresh
 * state on tmpfs, or on disk with AB29_STATE_DIR (issue 29): CPU ms per journey (/proc, the
 * server's group) and journeys/s, so a change is compared with its parent under the same
 * load. (Instructions retired would be steadier, but this machine's VM exposes no hardware
 * counters to perf.)
 *
 *   node --experimental-websocket scripts/run.mjs bench/purchase/ab.ts <bundle dir> <bundle dir> ...
 *
 * Env: AB29_SECONDS (10), AB29_ROUNDS (4), AB29_CONCURRENCY (16: under wrangler.toml's
 * per-platform limit, and below the open-object count at which local SQLite runs out),
 * AB29_STATE_DIR (/dev/shm; a folder on disk, e.g. the OS temp dir, for the disk's figures).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { bundleFile } from "../bundle";
import { drive, type Target } from "./drive";
import { startPlatform } from "./platform";
import { groupCpuSeconds, loadAverage } from "./proc";
import { freePort, freshCopy, ourTarget, prepareState, removeState, startBundle } from "./stores";

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const seconds = env("AB29_SECONDS", 10);
const rounds = env("AB29_ROUNDS", 4);
const concurrency = env("AB29_CONCURRENCY", 16);
const stateDir = process.env.AB29_STATE_DIR ?? "/dev/shm";
const bundles = process.argv.slice(2);
if (bundles.length < 2) throw new Error("usage: bench/purchase/ab.ts <bundle dir> <bundle dir> ...");

for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));
const temp = mkdtempSync(path.join(tmpdir(), "ucp-ab29-"));
const platform = await startPlatform();
const results = new Map<string, number[]>(bundles.map((b) => [b, []]));
const rates = new Map<string, number[]>(bundles.map((b) => [b, []]));
const leftOnDisk: string[] = [];
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
      const dir = freshCopy(state, stateDir);
      const run = await startBundle(bundleFile(b), dir, await freePort());
      try {
        await drive(target(run.origin), concurrency, 3);
        const cpu0 = groupCpuSeconds(run.group);
        const tally = await drive(target(run.origin), concurrency, seconds);
        const cpu = groupCpuSeconds(run.group) - cpu0;
        const n = tally.journeys.length;
        results.get(b)?.push((cpu * 1000) / n);
        rates.get(b)?.push(n / seconds);
        console.log(
          `round ${round} ${b}: ${n} journeys (${(n / seconds).toFixed(1)}/s), ${((cpu * 1000) / n).toFixed(2)} CPU ms each, ${tally.failed} failed, load ${loadAverage()}`,
        );
      } finally {
        await run.stop();
        // On disk, kept until the end, as bench/purchase/run.ts does: a deletion of thousands
        // of files would slow the next run's file creation (ext4 without a journal).
        if (stateDir === "/dev/shm") removeState(dir);
        else leftOnDisk.push(dir);
      }
    }
  }
  rmSync(template, { recursive: true, force: true });
} finally {
  await platform.close();
  for (const dir of leftOnDisk) removeState(dir);
  rmSync(temp, { recursive: true, force: true });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] as number;
const cell = (xs: number[], digits: number) =>
  `${median(xs).toFixed(digits)} (${xs.map((x) => x.toFixed(digits)).join(", ")})`;
console.log(
  `\n| bundle (state in ${stateDir}, c = ${concurrency}) | CPU ms per journey (median; rounds) | journeys/s (median; rounds) |`,
);
console.log("| --- | ---: | ---: |");
for (const [b, xs] of results) console.log(`| ${b} | ${cell(xs, 2)} | ${cell(rates.get(b) ?? [], 1)} |`);
process.exit(0);
