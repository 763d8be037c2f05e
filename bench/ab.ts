/**
 * Two bundles, paired: is B's purchase journey cheaper than A's? On this shared machine the
 * CPU a journey costs drifts by ±10 % from one minute to the next, more than most single
 * changes save, so back-to-back profile runs cannot tell them apart. Here both bundles serve
 * at once (one Miniflare, one workerd each, same seeded catalog) and short journey rounds
 * alternate between them, A B A B …; each adjacent pair gives one ratio of CPU per journey,
 * read from that bundle's own workerd, so a drift hits both sides of a pair alike.
 *
 *   node --experimental-websocket scripts/run.mjs bench/ab.ts <bundle-dir A> <bundle-dir B>
 *
 * Env: AB_PAIRS (8), AB_SECONDS (3 per round), AB_CONCURRENCY (1), AB_PRODUCTS (4,000),
 * AB_PORT (10030; B takes AB_PORT + 10).
 */
import { bundleFile } from "./bundle";
import { processTicks, workerdPids } from "./cpu";
import { journeyProductIds, runJourneys } from "./journey";
import { median } from "./paired";
import { createBenchApiKey, type Servers, seedCatalog, startServers } from "./server";

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const pairs = env("AB_PAIRS", 8);
const seconds = env("AB_SECONDS", 3);
const concurrency = env("AB_CONCURRENCY", 1);
const products = env("AB_PRODUCTS", 4000);
const port = env("AB_PORT", 10030);
const TICKS_PER_SECOND = 100;

const [dirA, dirB] = process.argv.slice(2);
if (!dirA || !dirB) {
  console.error("usage: bench/ab.ts <bundle-dir A> <bundle-dir B>");
  process.exit(2);
}

interface Side {
  readonly label: string;
  readonly servers: Servers;
  readonly pid: number;
  readonly inputs: Parameters<typeof runJourneys>[1];
}

async function start(label: string, dir: string, at: number): Promise<Side> {
  const before = new Set(workerdPids());
  const servers = await startServers(bundleFile(dir), at);
  const pid = workerdPids().find((p) => !before.has(p));
  if (pid === undefined) throw new Error(`no workerd process found for ${label}`);
  const seeded = await seedCatalog(servers.mf, products, 1);
  const apiKey = await createBenchApiKey(servers.mf);
  return { label, servers, pid, inputs: { origin: servers.direct.ucp, apiKey, productIds: journeyProductIds(seeded) } };
}

/** One round on one side: CPU ms per journey from that side's workerd alone. */
async function round(side: Side): Promise<{ cpuMs: number; jps: number; failed: number }> {
  const options = { seconds, warmupSeconds: 0.5, concurrency, maxRequests: 1e9, timeoutMs: 30_000 };
  const ticks = processTicks(side.pid);
  const row = await runJourneys("mcp", side.inputs, options, concurrency);
  // The warm-up's journeys ran too: CPU over warm-up and round, journeys over both.
  const cpuMs = ((processTicks(side.pid) - ticks) * 1000) / TICKS_PER_SECOND;
  const journeys = row.journeysPerSecond * (seconds + options.warmupSeconds);
  if (row.firstFailure) console.error(`  ${side.label} first failure: ${row.firstFailure}`);
  return { cpuMs: cpuMs / Math.max(1, journeys), jps: row.journeysPerSecond, failed: row.failed };
}

const a = await start("A", dirA, port);
const b = await start("B", dirB, port + 10);
try {
  const ratios: number[] = [];
  const cpu = { A: [] as number[], B: [] as number[] };
  for (let i = 0; i < pairs; i++) {
    // Strictly A B A B: every round follows one round of the other side (a side idle for two
    // rounds paid more in its next one, whichever bundle it was).
    const order = [a, b];
    const results = new Map<string, Awaited<ReturnType<typeof round>>>();
    for (const side of order) results.set(side.label, await round(side));
    const ra = results.get("A") as Awaited<ReturnType<typeof round>>;
    const rb = results.get("B") as Awaited<ReturnType<typeof round>>;
    cpu.A.push(ra.cpuMs);
    cpu.B.push(rb.cpuMs);
    ratios.push(rb.cpuMs / ra.cpuMs);
    console.log(
      `pair ${i + 1}: A ${ra.cpuMs.toFixed(2)} ms/journey (${ra.jps.toFixed(1)}/s, ${ra.failed} failed), ` +
        `B ${rb.cpuMs.toFixed(2)} (${rb.jps.toFixed(1)}/s, ${rb.failed} failed), B/A ${(rb.cpuMs / ra.cpuMs).toFixed(3)}`,
    );
  }
  const sorted = [...ratios].sort((x, y) => x - y);
  console.log(
    `A ${dirA}: median ${median(cpu.A).toFixed(2)} ms CPU/journey\nB ${dirB}: median ${median(cpu.B).toFixed(2)} ms CPU/journey\n` +
      `B/A per pair: median ${median(ratios).toFixed(3)} (min ${sorted[0]?.toFixed(3)}, max ${sorted.at(-1)?.toFixed(3)}), C = ${concurrency}`,
  );
} finally {
  await a.servers.mf.dispose();
  await b.servers.mf.dispose();
}
