/**
 * Stock shards under load (issue 14 item 3): checkouts completed at C = 32, closed loop,
 * (a) every client buying one hot SKU, (b) client i buying SKU i of 32. With stock in 64
 * groups (src/catalog/stock-shards.ts) (a) funnels every reservation through one object and (b)
 * spreads them over the shards the 32 SKUs hash to (about 25); before, both went through the
 * one store-wide object.
 *
 *   TMPDIR=/dev/shm node scripts/run.mjs bench/hot-sku.ts [bundle-dir]
 *
 * Each client loops create_checkout → update_checkout (select shipping) → complete_checkout
 * on its own keep-alive socket; a completion counts when it answers `completed`. Reported per
 * run: completions/s, p50/p99 of the complete step and of the whole loop, workerd CPU per
 * completion and the cores each side used. Runs a, b, a, b (HOT_ROUNDS pairs) on one Miniflare.
 *
 * Env: HOT_SECONDS (10), HOT_WARMUP (2), HOT_CONCURRENCY (32), HOT_ROUNDS (2), HOT_PORT
 * (10300), HOT_PRODUCTS (2,000), HOT_QUIET (30: seconds to wait before a run for other
 * processes to use under 0.3 cores; each run reports what they used).
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildBundle, bundleFile } from "./bundle";
import { type CompletionRun, formatRun, measureCompletions, unlimitedSkus } from "./completions";
import { waitForQuiet } from "./cpu";
import { createBenchApiKey, seedCatalog, startServers } from "./server";

const root = path.resolve(import.meta.dirname, "..");
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const seconds = num("HOT_SECONDS", 10);
const warmup = num("HOT_WARMUP", 2);
const concurrency = num("HOT_CONCURRENCY", 32);
const rounds = num("HOT_ROUNDS", 2);
const port = num("HOT_PORT", 10300);
const productCount = num("HOT_PRODUCTS", 2000);

const temp = mkdtempSync(path.join(tmpdir(), "ucp-hot-sku-"));
const dir = process.argv[2];
try {
  const file = dir ? bundleFile(dir) : buildBundle(root, path.join(temp, "tree")).file;
  const servers = await startServers(file, port);
  try {
    const seeded = await seedCatalog(servers.mf, productCount, 1);
    const apiKey = await createBenchApiKey(servers.mf);
    // 32 in-stock SKUs, every one with stock that cannot run out.
    const skus = await unlimitedSkus(servers.mf, seeded.products, concurrency);
    const hot = skus[0] as string;
    console.log(
      `C=${concurrency}, ${warmup} s warm-up + ${seconds} s per run, ${rounds} rounds of (a) one hot SKU, (b) 32 SKUs`,
    );
    const runs: CompletionRun[] = [];
    for (let round = 1; round <= rounds; round++) {
      for (const [label, skuFor] of [
        ["a: one SKU", () => hot],
        ["b: 32 SKUs", (c: number) => skus[c % skus.length] as string],
      ] as const) {
        // Other processes share these 2 cores: wait (up to HOT_QUIET s) until they are mostly idle.
        await waitForQuiet(num("HOT_QUIET", 30), 0.3, (o) =>
          console.log(`  waiting: others use ${o.toFixed(2)} cores`),
        );
        const r = await measureCompletions(label, servers.origin, apiKey, skuFor, {
          concurrency,
          seconds,
          warmupSeconds: warmup,
        });
        runs.push(r);
        console.log(`round ${round} ${formatRun(r)}`);
        if (r.firstFailure) console.log(`  first failure: ${r.firstFailure}`);
      }
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? Number.NaN;
    const rate = (prefix: string) => runs.filter((r) => r.label.startsWith(prefix)).map((r) => r.perSecond);
    const [a, b] = [rate("a"), rate("b")];
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    console.log(
      `a: ${a.map((x) => x.toFixed(1)).join(", ")}/s; b: ${b.map((x) => x.toFixed(1)).join(", ")}/s; b/a = ${(mean(b) / mean(a)).toFixed(2)} (means; medians ${median(a).toFixed(1)} vs ${median(b).toFixed(1)})`,
    );
  } finally {
    await servers.mf.dispose();
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
