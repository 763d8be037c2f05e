/**
 * Turns measurements into the Markdown table (stdout + .bench/results.md) and
 * .bench/results.json. Targets are data, so new scenarios can add their own.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type CompletionRun, formatRun } from "./completions";
import type { JourneyReport } from "./journey";
import { journeyMarkdown } from "./journey-report";
import type { LoadResult } from "./load";
import { DISTURBED_OTHERS, type PairedResult, type Spread } from "./paired";
import { type BurstResult, burstMarkdown } from "./ratelimit";

export interface ScenarioRow extends LoadResult {
  /** p50 minus its baseline's p50 at the same concurrency: client-observed cost attributable to the Worker. */
  readonly serverMs?: number;
  readonly baseline?: string;
  /** workerd CPU per request (cores × 1000 / req/s): server cost without client or queueing. */
  readonly workerdCpuMs: number;
}

export interface Target {
  readonly label: string;
  readonly value: number;
  readonly limit: number;
  readonly unit: string;
  readonly pass: boolean;
  /** The value must be at least the limit (a ratio), instead of below it. */
  readonly atLeast?: boolean;
  /** Shown for context; the exit code and the issue's verdict do not depend on it. */
  readonly informational?: boolean;
}

export interface BenchReport {
  readonly date: string;
  readonly command: string;
  readonly machine: { cpus: number; model: string; node: string; platform: string };
  /** `concurrency` lists every pass: the configured level, then 1 (no queueing) unless it is 1. */
  readonly options: {
    seconds: number;
    warmupSeconds: number;
    concurrency: readonly number[];
    pairRounds: number;
    pairSeconds: number;
  };
  readonly bundle: { rawBytes: number; gzipBytes: number };
  readonly catalog: Record<string, number | string>;
  readonly scenarios: readonly ScenarioRow[];
  /** Alternating A/B rounds (bench/paired.ts), when any pair group ran. */
  readonly paired: readonly PairedResult[];
  readonly burst?: BurstResult;
  /** The purchase journey rows (bench/journey.ts), when `journey` ran. */
  readonly journey?: JourneyReport;
  /** Checkout completions at C and at 1 (bench/completions.ts), when `completions` ran. */
  readonly completions?: readonly CompletionRun[];
  readonly targets: readonly Target[];
}

export function machine(): BenchReport["machine"] {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    model: cpus[0]?.model ?? "unknown",
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
  };
}

/** Each scenario's server time against the baseline it names, at the same concurrency. */
export function withServerTime(
  results: readonly LoadResult[],
  baselineOf: (name: string) => string | undefined,
): ScenarioRow[] {
  const key = (name: string, concurrency: number) => `${name}@${concurrency}`;
  const byKey = new Map(results.map((r) => [key(r.name, r.concurrency), r]));
  return results.map((r) => {
    const workerdCpuMs = (r.cpu.workerd * 1000) / r.rps;
    const baseline = baselineOf(r.name);
    const base = baseline ? byKey.get(key(baseline, r.concurrency)) : undefined;
    return base ? { ...r, workerdCpuMs, baseline, serverMs: r.p50 - base.p50 } : { ...r, workerdCpuMs };
  });
}

export function target(label: string, value: number, limit: number, unit: string, informational = false): Target {
  return {
    label,
    value,
    limit,
    unit,
    pass: Number.isFinite(value) && value < limit,
    ...(informational ? { informational } : {}),
  };
}

const ms = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? "–" : n.toFixed(2));
const cores = ({ cpu }: LoadResult) =>
  [cpu.client, cpu.workerd, cpu.others].map((n) => (Number.isFinite(n) ? n.toFixed(2) : "?")).join(" / ");
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

export function markdown(report: BenchReport): string {
  const { machine: m, options: o } = report;
  const lines = [
    `# ucp-worker benchmark (${report.date})`,
    "",
    `Machine: ${m.cpus} cores (${m.model}), Node ${m.node}, ${m.platform}. Command: \`${report.command}\`.`,
    // The scenario tables' load; the journey section states its own levels and rounds.
    report.scenarios.length > 0
      ? `Load (scenario tables): closed loop at concurrency C = ${o.concurrency.join(" and ")}, ${o.seconds} s per scenario after ${o.warmupSeconds} s warm-up, loopback HTTP keep-alive.`
      : `Load: no per-scenario tables in this run (BENCH_ONLY); ${o.seconds} s per measurement after ${o.warmupSeconds} s warm-up.`,
    `Bundle (wrangler deploy --dry-run): ${kib(report.bundle.rawBytes)} raw, ${kib(report.bundle.gzipBytes)} gzip.`,
    `Catalog: ${Object.entries(report.catalog)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}.`,
    "",
    ...scenarioTable(report.scenarios),
    ...staticRatios(report.scenarios),
    ...pairedMarkdown(report.paired),
    ...(report.burst ? burstMarkdown(report.burst) : []),
    ...(report.journey ? journeyMarkdown(report.journey) : []),
    ...(report.completions
      ? [
          "",
          "Completions (create, update, complete over MCP; 32 SKUs):",
          "",
          ...report.completions.map((r) => `- ${formatRun(r)}`),
          "",
        ]
      : []),
    ...contention(report.scenarios),
    ...report.targets.map(
      (t) =>
        `- ${t.pass ? "PASS" : "FAIL"}${t.informational ? " (informational)" : ""}: ${t.label} = ${t.value.toFixed(2)} ${t.unit} (target ${t.atLeast ? "≥" : "<"} ${t.limit} ${t.unit})`,
    ),
    "",
  ];
  return lines.join("\n");
}

function scenarioTable(rows: readonly ScenarioRow[]): string[] {
  if (rows.length === 0) return [];
  return [
    "| scenario | C | requests | req/s | p50 ms | p90 ms | p99 ms | errors | server time ≈ p50 − baseline p50 (ms) | workerd CPU ms/req | cores: client / workerd / others |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.concurrency} | ${r.requests} | ${r.rps.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p90)} | ${ms(r.p99)} | ${r.errors} | ${r.serverMs === undefined ? "(baseline)" : ms(r.serverMs)} | ${ms(r.workerdCpuMs)} | ${cores(r)} |`,
    ),
    "",
  ];
}

/** The answers that need no work (issue 14 item 6), as shares of the trivial Worker at the same C. */
const STATIC = ["discovery", "ping", "tools_list"];

function staticRatios(rows: readonly ScenarioRow[]): string[] {
  const base = (c: number) => rows.find((r) => r.name === "baseline" && r.concurrency === c);
  const lines = rows.flatMap((r) => {
    const b = base(r.concurrency);
    if (!STATIC.includes(r.name) || !b) return [];
    const cpu = b.workerdCpuMs / r.workerdCpuMs;
    return [`| ${r.name} | ${r.concurrency} | ${(r.rps / b.rps).toFixed(2)} | ${cpu.toFixed(2)} |`];
  });
  if (lines.length === 0) return [];
  return [
    "Against the trivial Worker (`baseline`) at the same C: req/s ÷ baseline req/s, and baseline's workerd CPU per request ÷ this one's (the rate ratio a CPU-bound server would reach).",
    "",
    "| scenario | C | req/s ÷ baseline | CPU ratio |",
    "|---|---:|---:|---:|",
    ...lines,
    "",
  ];
}

const ratio = (s: Spread) => `${s.median.toFixed(2)} (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;

/** The summary per group and pass, then every pair, so the spread behind a median is visible. */
function pairedMarkdown(results: readonly PairedResult[]): string[] {
  if (results.length === 0) return [];
  const r0 = results[0] as PairedResult;
  return [
    `Paired rounds: A and B alternate (A B, B A, ...) in ${r0.roundSeconds} s rounds after one warm-up each; one ratio per adjacent pair. ` +
      `A pair is disturbed when others used > ${DISTURBED_OTHERS} cores in either round; disturbed pairs are left out when at least 3 clean ones remain. ` +
      "Figures are medians over the pairs used; CPU ratio = B's workerd CPU per request ÷ A's (the rate ratio a CPU-bound server would reach).",
    "",
    "| group | C | A | B | pairs used (clean / all) | A ÷ B req/s, median (min–max) | CPU ratio, median (min–max) | A req/s | B req/s | A p50 / p99 ms | B p50 / p99 ms | A / B workerd CPU ms/req | errors A / B | others max (steal max) |",
    "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...results.map(
      (r) =>
        `| ${r.name} | ${r.concurrency} | ${r.a.name} | ${r.b.name} | ${r.used} (${r.clean} / ${r.pairs.length}) | ${ratio(r.rpsRatio)} | ${ratio(r.cpuRatio)} | ` +
        `${r.a.rps.toFixed(0)} | ${r.b.rps.toFixed(0)} | ${ms(r.a.p50)} / ${ms(r.a.p99)} | ${ms(r.b.p50)} / ${ms(r.b.p99)} | ` +
        `${ms(r.a.workerdCpuMs)} / ${ms(r.b.workerdCpuMs)} | ${r.a.errors} / ${r.b.errors} | ${r.maxOthers.toFixed(2)} (${r.maxSteal.toFixed(2)}) |`,
    ),
    "",
    "<details><summary>every pair</summary>",
    "",
    "| group | C | pair | order | A req/s | B req/s | A ÷ B | A / B CPU ms/req | CPU ratio | others A / B (of which steal) | |",
    "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---|",
    ...results.flatMap((r) =>
      r.pairs.map(
        (p, i) =>
          `| ${r.name} | ${r.concurrency} | ${i + 1} | ${p.first === "a" ? "A B" : "B A"} | ${p.a.rps.toFixed(0)} | ${p.b.rps.toFixed(0)} | ${p.rpsRatio.toFixed(2)} | ` +
          `${ms(p.a.workerdCpuMs)} / ${ms(p.b.workerdCpuMs)} | ${p.cpuRatio.toFixed(2)} | ${p.a.others.toFixed(2)} / ${p.b.others.toFixed(2)} (${p.a.steal.toFixed(2)} / ${p.b.steal.toFixed(2)}) | ${p.disturbed ? "disturbed" : ""} |`,
      ),
    ),
    "",
    "</details>",
    "",
  ];
}

/** Other processes busy during a measurement inflate its latencies: say so next to the table. */
function contention(rows: readonly ScenarioRow[]): string[] {
  const worst = Math.max(...rows.map((r) => r.cpu.others).filter(Number.isFinite));
  if (!(worst > 0.25)) return [];
  return [
    `WARNING: other processes used up to ${worst.toFixed(2)} cores during measurement; latencies are inflated. Re-run on an idle machine.`,
    "",
  ];
}

export function writeReport(root: string, report: BenchReport): string {
  const dir = path.join(root, ".bench");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "results.md"), markdown(report));
  writeFileSync(path.join(dir, "results.json"), `${JSON.stringify(report, null, 2)}\n`);
  return dir;
}

export { kib };
