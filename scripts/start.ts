/**
 * npm start [-- --demo] [-- wrangler dev flags]: loads the demo catalog into local KV when
 * it holds no catalog yet (or with --demo, which replaces what is there), then serves the
 * Worker with `wrangler dev` on http://localhost:8787 (PORT, or the user's own --port, overrides). `--persist-to <dir>`
 * moves all local state, catalog included, out of .wrangler/state (the e2e tests use a
 * temporary one).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { portAndRest, prepareDevLaunch, servedOrigin } from "./lib/dev-launch";
import { wranglerBin } from "./lib/kv-writer";
import { seedDemoCatalog } from "./lib/seed-demo";

const root = path.resolve(import.meta.dirname, "..");
// The demo catalog is seeded only into an empty store, or with --demo (never passed to wrangler).
const { port, rest: args } = portAndRest(
  await seedDemoCatalog(root, process.argv.slice(2)),
  process.env.PORT ?? "8787",
);

// Discovery and every URL name the origin actually served, not wrangler.toml's MERCHANT_ORIGIN,
// unless the user names the public origin of an https terminator in front (README "Behind https").
const launch = prepareDevLaunch(root, args, port);
const served = servedOrigin(args, port);
console.log(
  launch.origin === served
    ? `Serving ${served} (discovery: ${served}/.well-known/ucp)`
    : `Serving ${served} as ${launch.origin} (discovery: ${launch.origin}/.well-known/ucp); ${launch.origin} must forward to ${served}`,
);
console.log(launch.email);
const child = spawn(wranglerBin(root), ["dev", "--port", port, ...launch.args, ...args], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, ...launch.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
