/**
 * `npm start`'s preparation, in a process of its own (scripts/start.ts runs it, then wrangler
 * dev): seeds the demo catalog when due, builds the dev discovery for the origin served, says
 * what it serves, and hands start.ts the `wrangler dev` command line on file descriptor 3 as
 * one JSON object ({ command, args, env }).
 */
import { writeSync } from "node:fs";
import path from "node:path";
import { portAndRest, prepareDevLaunch, servedOrigin } from "./lib/dev-launch";
import { wranglerBin } from "./lib/kv-writer";
import { seedDemoCatalog } from "./lib/seed-demo";

export interface StartCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

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
const command: StartCommand = {
  command: wranglerBin(root),
  args: ["dev", "--port", port, ...launch.args, ...args],
  env: launch.env,
};
writeSync(3, JSON.stringify(command));
