/**
 * Where a D1 search's time goes (issue 28): each judged query (bench/relevance-set.ts) run by
 * the Worker's own searchD1 inside workerd against a built bench state's D1 (bench/search-scale.ts
 * keeps it under --state), every statement timed there, with EXPLAIN QUERY PLAN on request.
 *
 *   node scripts/run.mjs bench/search-profile.ts [--state /dev/shm/ucp-search-scale/d1-1000000] [--plans]
 *     [--rounds 5] [--impl path/to/another/search-d1.ts]
 *
 * Besides each query's wall time (which follows whatever else the machine runs), it reports the
 * CPU time workerd spent per search over the rounds: the figure to compare two versions by on a
 * shared machine.
 */
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { RELEVANCE_SET } from "./relevance-set";

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? fallback : (process.argv[at + 1] ?? fallback);
}
const dir = path.resolve(option("state", "/dev/shm/ucp-search-scale/d1-1000000"));
const plans = process.argv.includes("--plans");
const rounds = Number(option("rounds", "5"));
const impl = option("impl", "");
const outfile = path.join(
  path.resolve(import.meta.dirname, ".."),
  "node_modules/.cache/ucp-scripts/search-profile-worker.mjs",
);
await build({
  entryPoints: [path.join(import.meta.dirname, "profile/search-worker.ts")],
  outfile,
  bundle: true,
  format: "esm",
  platform: "neutral",
  logLevel: "warning",
  plugins: impl
    ? [
        {
          name: "impl",
          setup(b) {
            b.onResolve({ filter: /search-d1$/ }, () => ({ path: path.resolve(impl) }));
          },
        },
      ]
    : [],
});

const mf = new Miniflare({
  modules: true,
  scriptPath: outfile,
  compatibilityDate: "2026-04-01",
  d1Databases: { DB: "bench-catalog-db" },
  d1Persist: path.join(dir, "d1"),
});
const db = await mf.getD1Database("DB");
const table = await db
  .prepare("SELECT name FROM sqlite_master WHERE name LIKE 's\\_%\\_doc' ESCAPE '\\'")
  .first<{ name: string }>();
const key = table?.name.slice(2, -4) ?? "";
const short = (sql: string) => sql.replace(/\s+/g, " ").replaceAll(`s_${key}_`, "").slice(0, 140);

type Answer = { ms: number; hits: number; steps: Array<{ ms: number; statement: string; plan?: string }> };
const ask = async (query: string) =>
  (await (
    await mf.dispatchFetch("http://profile/", { method: "POST", body: JSON.stringify({ key, query, plans }) })
  ).json()) as Answer;

/** CPU seconds (user + system) of this process's workerd children so far. */
function workerdCpu(): number {
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === process.pid && stat.includes("(workerd)"))
        ticks += Number(fields[11]) + Number(fields[12]);
    } catch {}
  }
  return ticks / 100;
}

for (const q of RELEVANCE_SET) await ask(q.query);
// What a request costs workerd without D1 (a query of stop words only asks nothing).
const idleBefore = workerdCpu();
for (let i = 0; i < 300; i++) await ask("the");
const idlePerRequest = ((workerdCpu() - idleBefore) * 1000) / 300;
const cpuBefore = workerdCpu();
const wallBefore = performance.now();
for (let round = 1; round < rounds; round++) for (const q of RELEVANCE_SET) await ask(q.query);
const cpuPerSearch = ((workerdCpu() - cpuBefore) * 1000) / ((rounds - 1) * RELEVANCE_SET.length);
const wallPerSearch = (performance.now() - wallBefore) / ((rounds - 1) * RELEVANCE_SET.length);
if (process.argv.includes("--cpu-per-query")) {
  // Each query ten times: workerd's CPU per search, the costliest first.
  const costs: Array<[number, string]> = [];
  for (const q of RELEVANCE_SET) {
    const before = workerdCpu();
    for (let i = 0; i < 10; i++) await ask(q.query);
    costs.push([((workerdCpu() - before) * 1000) / 10, q.query]);
  }
  costs.sort((a, b) => b[0] - a[0]);
  for (const [ms, query] of costs) console.log(`  cpu ${ms.toFixed(1).padStart(5)} ms  ${query}`);
}
const totals: Array<[number, string]> = [];
{
  for (const q of RELEVANCE_SET) {
    const answer = await ask(q.query);
    totals.push([answer.ms, q.query]);
    console.log(
      `${answer.ms.toFixed(1).padStart(7)} ms  ${q.query}  (${answer.hits} hits, ${answer.steps.length} D1 calls)`,
    );
    for (const s of answer.steps) {
      console.log(`    ${s.ms.toFixed(1).padStart(6)} ms  ${short(s.statement)}`);
      if (s.plan) console.log(`              plan: ${s.plan.replaceAll(`s_${key}_`, "")}`);
    }
  }
}
totals.sort((a, b) => a[0] - b[0]);
const at = (p: number) => totals[Math.min(totals.length - 1, Math.floor(p * totals.length))]?.[0].toFixed(1);
const calls = totals.length;
console.log(
  `\nsearchD1 alone in workerd: p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${at(0.999)} ms (${calls} queries)`,
);
console.log(
  `workerd CPU per search ${cpuPerSearch.toFixed(2)} ms (a request asking D1 nothing: ${idlePerRequest.toFixed(2)} ms), wall ${wallPerSearch.toFixed(2)} ms, over ${rounds - 1} rounds (load average ${loadavg()[0]?.toFixed(1)})`,
);
await mf.dispose();
