/**
 * Turns measurements into the Markdown table (stdout + .bench/results.md) and
 * .bench/results.json. Targets are data, so new scenarios can add their own.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LoadResult } from "./load";

export interface ScenarioRow extends LoadResult {
  /** p50 minus its baseline's p50: the client-observed cost attributable to the Worker. */
  readonly serverMs?: number;
  readonly baseline?: string;
}

export interface Target {
  readonly label: string;
  readonly value: number;
  readonly limit: number;
  readonly unit: string;
  readonly pass: boolean;
}

export interface BenchReport {
  readonly date: string;
  readonly command: string;
  readonly machine: { cpus: number; model: string; node: string; platform: string };
  readonly options: { seconds: number; warmupSeconds: number; concurrency: number };
  readonly bundle: { rawBytes: number; gzipBytes: number };
  readonly catalog: Record<string, number | string>;
  readonly scenarios: readonly ScenarioRow[];
  readonly targets: readonly Target[];
}

export function machine(): BenchReport["machine"] {
  const cpus = os.cpus();
  return { cpus: cpus.length, model: cpus[0]?.model ?? "unknown", node: process.version, platform: `${os.platform()} ${os.arch()}` };
}

/** Each scenario's server time against the baseline it names (baselines themselves get none). */
export function withServerTime(results: readonly LoadResult[], baselineOf: (name: string) => string | undefined): ScenarioRow[] {
  const byName = new Map(results.map((r) => [r.name, r]));
  return results.map((r) => {
    const baseline = baselineOf(r.name);
    const base = baseline ? byName.get(baseline) : undefined;
    return base ? { ...r, baseline, serverMs: r.p50 - base.p50 } : r;
  });
}

export function target(label: string, value: number, limit: number, unit: string): Target {
  return { label, value, limit, unit, pass: Number.isFinite(value) && value < limit };
}

const ms = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? "–" : n.toFixed(2));
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

export function markdown(report: BenchReport): string {
  const { machine: m, options: o } = report;
  const lines = [
    `# ucp-worker benchmark (${report.date})`,
    "",
    `Machine: ${m.cpus} cores (${m.model}), Node ${m.node}, ${m.platform}. Command: \`${report.command}\`.`,
    `Load: closed loop, concurrency ${o.concurrency}, ${o.seconds} s per scenario after ${o.warmupSeconds} s warm-up, loopback HTTP keep-alive.`,
    `Bundle (wrangler deploy --dry-run): ${kib(report.bundle.rawBytes)} raw, ${kib(report.bundle.gzipBytes)} gzip.`,
    `Catalog: ${Object.entries(report.catalog)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}.`,
    "",
    "| scenario | requests | req/s | p50 ms | p90 ms | p99 ms | max ms | errors | server time ≈ p50 − baseline p50 (ms) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...report.scenarios.map(
      (r) =>
        `| ${r.name} | ${r.requests} | ${r.rps.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p90)} | ${ms(r.p99)} | ${ms(r.max)} | ${r.errors} | ${r.serverMs === undefined ? "(baseline)" : ms(r.serverMs)} |`,
    ),
    "",
    ...report.targets.map((t) => `- ${t.pass ? "PASS" : "FAIL"}: ${t.label} = ${t.value.toFixed(2)} ${t.unit} (target < ${t.limit} ${t.unit})`),
    "",
  ];
  return lines.join("\n");
}

export function writeReport(root: string, report: BenchReport): string {
  const dir = path.join(root, ".bench");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "results.md"), markdown(report));
  writeFileSync(path.join(dir, "results.json"), `${JSON.stringify(report, null, 2)}\n`);
  return dir;
}

export { kib };
