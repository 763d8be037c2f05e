/** The purchase journey's rows as Markdown (bench/journey.ts), with the issue's targets. */
import { freshConnections, JOURNEY_STEPS, type JourneyReport, type JourneyRow } from "./journey";
import { benchStorageDir } from "./server";

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : "–");
const causes = (row: JourneyRow) =>
  Object.entries(row.causes)
    .map(([cause, n]) => `${cause} × ${n}`)
    .join(", ") || "–";

/** The issue's bar: 100 journeys/s at C=32, 0 failed at 32 and 64, p99 < 1 s at 32 (MCP). */
export function journeyTargets(report: JourneyReport): string[] {
  const mcp = (c: number) => report.rows.find((r) => r.binding === "mcp" && r.via === "direct" && r.concurrency === c);
  const at32 = mcp(32);
  const at64 = mcp(64);
  const line = (pass: boolean, text: string) => `- ${pass ? "PASS" : "FAIL"}: ${text}`;
  const out: string[] = [];
  if (at32) {
    out.push(
      line(
        at32.journeysPerSecond >= 100,
        `MCP journeys/s at C=32 = ${at32.journeysPerSecond.toFixed(1)} (target ≥ 100)`,
      ),
    );
    out.push(line(at32.journeyP99 < 1000, `MCP journey p99 at C=32 = ${ms(at32.journeyP99)} ms (target < 1000)`));
  }
  for (const row of [at32, at64]) {
    if (row)
      out.push(
        line(
          row.failed === 0,
          `MCP failed requests at C=${row.concurrency} = ${row.failed} of ${row.requests} (target 0)`,
        ),
      );
  }
  return out;
}

export function journeyMarkdown(report: JourneyReport): string[] {
  const stepHeads = JOURNEY_STEPS.map((s) => `${s} p50 / p99 ms`);
  return [
    `## Purchase journey: create → update (select shipping) → complete → get_order`,
    "",
    `Authenticated platform (API key), closed loop, ${freshConnections() ? "a new connection per request (BENCH_JOURNEY_FRESH_CONNECTIONS=1: the control, not the issue's driver)" : "C keep-alive sockets shared by the C clients (one agent, maxSockets = C)"}, ${report.warmupSeconds} s warm-up + ${report.seconds} s per round. Miniflare's temporary storage: ${benchStorageDir() ?? "the OS temp dir"}. tools/list: ${report.toolsListBytes} bytes.`,
    "",
    "Rows reach the Worker on its own socket; the `mcp (entry)` row (one round) goes through Miniflare's entry worker (dev tooling, bench/server.ts `direct`). With several rounds, a row is the median round by journeys/s (every round's rate in brackets), and its failed / requests count all rounds.",
    "",
    `| binding | C | journeys/s | journey p50 / p99 ms | ${stepHeads.join(" | ")} | failed / requests | failures by cause | workerd CPU ms/journey | cores: client / workerd / others |`,
    `|---|---:|---:|---:|${JOURNEY_STEPS.map(() => "---:").join("|")}|---:|---|---:|---:|`,
    ...report.rows.map(
      (r) =>
        `| ${r.binding}${r.via === "entry" ? " (entry)" : ""} | ${r.concurrency} | ${r.journeysPerSecond.toFixed(1)}${r.roundRates ? ` (${r.roundRates.map((x) => x.toFixed(1)).join(", ")})` : ""} | ${ms(r.journeyP50)} / ${ms(r.journeyP99)} | ` +
        `${JOURNEY_STEPS.map((s) => `${ms(r.steps[s].p50)} / ${ms(r.steps[s].p99)}`).join(" | ")} | ` +
        `${r.failed} / ${r.requests} | ${causes(r)} | ${ms(r.workerdCpuMsPerJourney)} | ` +
        `${r.cores.client.toFixed(2)} / ${r.cores.workerd.toFixed(2)} / ${r.cores.others.toFixed(2)} |`,
    ),
    "",
    "Bare Durable Object round trip (its worker's own socket), same run:",
    "",
    "| C | req/s | p50 ms | p99 ms | errors |",
    "|---:|---:|---:|---:|---:|",
    ...report.doRoundtrip.map(
      (d) => `| ${d.concurrency} | ${d.rps.toFixed(0)} | ${d.p50.toFixed(2)} | ${d.p99.toFixed(2)} | ${d.errors} |`,
    ),
    "",
    ...journeyTargets(report),
    "",
  ];
}
