/**
 * `npm start`'s preparation, in a process of its own (scripts/start.ts runs it, then serves):
 * reads the flags, seeds the demo catalog when due, builds the dev discovery for the origin
 * served and the Worker as `wrangler deploy` builds it, says what it serves, and hands
 * start.ts Miniflare's options on file descriptor 3 as one JSON object (ServerOptions).
 * Loaded in start.ts, wrangler and the seeding would stay in that process for as long as the
 * server runs (~230 MB of RSS, docs/benchmarks.md "Memory after journeys").
 */
import { writeSync } from "node:fs";
import path from "node:path";
import { CliError } from "./lib/cli-error";
import { portAndRest, prepareDevLaunch, servedOrigin } from "./lib/dev-launch";
import { seedDemoCatalog } from "./lib/seed-demo";
import { isPort, startFlags } from "./lib/start-flags";
import { buildWorker, serverOptions } from "./lib/start-server";

const root = path.resolve(import.meta.dirname, "..");
const argv = process.argv.slice(2);
const flags = startFlags(argv); // refuses an unknown flag before anything is written
const envPort = process.env.PORT ?? "8787";
if (flags.port === undefined && !isPort(envPort))
  throw new CliError(`PORT must be a port number (1-65535), got "${envPort}"`);
// The demo catalog is seeded only into an empty store, or with --demo.
const { port, rest: args } = portAndRest(await seedDemoCatalog(root, argv), envPort);

// Discovery and every URL name the origin actually served, not wrangler.toml's MERCHANT_ORIGIN,
// unless the user names the public origin of an https terminator in front (README "Behind https").
const launch = prepareDevLaunch(root, args, port);
const served = servedOrigin(args, port);
const built = buildWorker(root, launch.bundleDir, launch.assets);
const options = serverOptions(root, flags, port, launch, built);
console.log(
  launch.origin === served
    ? `Serving ${served} (discovery: ${served}/.well-known/ucp)`
    : `Serving ${served} as ${launch.origin} (discovery: ${launch.origin}/.well-known/ucp); ${launch.origin} must forward to ${served}`,
);
console.log(launch.email);
writeSync(3, JSON.stringify(options));
