/**
 * npm start [-- --demo] [-- wrangler dev flags]: loads the demo catalog into local KV when
 * it holds no catalog yet (or with --demo, which replaces what is there), then serves the
 * Worker with `wrangler dev` on http://localhost:8787 (PORT, or the user's own --port, overrides). `--persist-to <dir>`
 * moves all local state, catalog included, out of .wrangler/state (the e2e tests use a
 * temporary one).
 *
 * The preparation (scripts/start-prepare.ts: seeding through Miniflare, wrangler's config
 * reader) runs in a child that exits before wrangler starts: loaded here, it stayed in this
 * process, which only waits on wrangler, for as long as the server ran (~230 MB of RSS,
 * docs/benchmarks.md "Memory after journeys").
 */
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import type { StartCommand } from "./start-prepare";

const root = path.resolve(import.meta.dirname, "..");
const prepared = spawnSync(
  process.execPath,
  [path.join(root, "scripts", "run.mjs"), path.join(root, "scripts", "start-prepare.ts"), ...process.argv.slice(2)],
  { cwd: root, stdio: ["inherit", "inherit", "inherit", "pipe"] },
);
if (prepared.status !== 0) process.exit(prepared.status ?? 1);
const start = JSON.parse(String(prepared.output[3])) as StartCommand;
const child = spawn(start.command, start.args, {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, ...start.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
