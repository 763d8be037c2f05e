/**
 * npm start [-- --demo --port N --ip A --persist-to DIR --var NAME:VALUE --inspector-port N]:
 * loads the demo catalog into local KV when it holds no catalog yet (or with --demo, which
 * replaces what is there), then serves the store as Cloudflare runs it: the Worker built as
 * `wrangler deploy` builds it, on Miniflare (scripts/lib/start-server.ts), on
 * http://localhost:8787 (PORT, or --port, overrides). `--persist-to <dir>` moves all local
 * state, catalog included, out of .wrangler/state (the e2e tests use a temporary one).
 * `npm run dev` is `wrangler dev`, with live reload.
 *
 * The preparation (scripts/start-prepare.ts: flags, seeding, the build, wrangler's config
 * reader) runs in a child that exits first; this process, which runs as long as the server
 * does, holds only Miniflare (docs/benchmarks.md "Memory after journeys").
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { Log, LogLevel, Miniflare } from "miniflare";
import { useLocalWorkerd } from "./lib/local-workerd";
import { printRuntimeOutput } from "./lib/serve-log";
import type { ServerOptions } from "./lib/start-server";

const root = path.resolve(import.meta.dirname, "..");
const prepared = spawnSync(
  process.execPath,
  [path.join(root, "scripts", "run.mjs"), path.join(root, "scripts", "start-prepare.ts"), ...process.argv.slice(2)],
  { cwd: root, stdio: ["inherit", "inherit", "inherit", "pipe"] },
);
if (prepared.status !== 0) process.exit(prepared.status ?? 1);
const options = JSON.parse(String(prepared.output[3])) as ServerOptions;

// SQLite's larger heap: thousands of objects share this one workerd (scripts/lib/local-workerd.ts).
useLocalWorkerd(root);
const mf = new Miniflare({
  ...options,
  // A placeholder Request.cf, as wrangler dev gave `npm start` (CLOUDFLARE_CF_FETCH_ENABLED=false):
  // no fetch of Cloudflare's at each start, and no stack trace when offline.
  cf: false,
  log: new Log(LogLevel.WARN),
  handleRuntimeStdio: printRuntimeOutput,
} as ConstructorParameters<typeof Miniflare>[0]);
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void mf.dispose().finally(() => process.exit(0));
  });
}
try {
  const served = await mf.unsafeGetDirectURL((options.workers as { name: string }[])[0]?.name);
  console.log(`Ready on ${served.origin} (the deployed build on Miniflare; \`npm run dev\` for live reload)`);
  if (options.inspectorPort !== undefined) {
    const inspector = `${options.inspectorHost ?? "127.0.0.1"}:${options.inspectorPort}`;
    console.log(
      `DevTools: http://${inspector}/json lists the Worker (Chrome: chrome://inspect, Configure…, ${inspector})`,
    );
  }
} catch (e) {
  console.error(`error: the server did not start: ${(e as Error).message}`);
  await mf.dispose().catch(() => {});
  process.exit(1);
}
