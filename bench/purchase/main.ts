/**
 * `BENCH_ONLY=journey29 npm run bench` (and part of a full `npm run bench`): runs the
 * purchase benchmark, prints its table and writes it to .bench/purchase.{md,json}. Exit 1
 * when any request failed or any answered journey's webhook never arrived.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { machine } from "../report";
import { projectRoot } from "./root";
import { benchPurchase, optionsFromEnv } from "./run";

const root = projectRoot();

function command(): string {
  const set = Object.keys(process.env)
    .filter((name) => name.startsWith("BENCH29_") || name === "UCP_SAMPLES_DIR" || name === "BENCH_BUNDLE")
    .sort()
    .map((name) => `${name}=${process.env[name]}`);
  return [...set, "BENCH_ONLY=journey29", "npm run bench"].join(" ");
}

export async function runJourney29(): Promise<number> {
  const options = optionsFromEnv();
  const report = await benchPurchase(options);
  const m = machine();
  const text = [
    `Purchase journey with its order webhook (issue 29), ${new Date().toISOString().slice(0, 16)}Z, ${m.cpus} × ${m.model}, Node ${m.node}.`,
    `${options.rounds} interleaved round(s) of ${options.seconds} s after ${options.warmupSeconds} s warm-up, fresh state per run; state on tmpfs = ${report.dirs.tmpfs}, on disk = ${report.dirs.disk}.`,
    `Command: \`${command()}\``,
    "",
    report.table,
    "",
  ].join("\n");
  console.log(`\n${text}`);
  const dir = path.join(root, ".bench");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "purchase.md"), text);
  writeFileSync(path.join(dir, "purchase.json"), `${JSON.stringify({ options, ...report }, null, 2)}\n`);
  const bad = report.results.some((r) => r.failedRequests > 0 || r.delivered < r.journeys || r.journeys === 0);
  return bad ? 1 : 0;
}
