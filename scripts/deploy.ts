/**
 * npm run deploy [-- --env NAME] [--config PATH] [wrangler deploy flags]: checks the store's
 * settings as a deployed store needs them, writes its discovery, then runs `wrangler deploy`
 * for that store. Nothing is deployed while any setting is wrong.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { CliError } from "./lib/cli-error";
import { writeDiscovery } from "./lib/discovery-file";
import { wranglerBin } from "./lib/kv-writer";
import { checkedStore, storeArgs } from "./lib/store-args";

const root = path.resolve(import.meta.dirname, "..");
const args = storeArgs(process.argv.slice(2), root);
const config = await checkedStore(args, true, "nothing deployed");
const { file, endpoint } = writeDiscovery(config, root);
console.log(`wrote ${path.relative(process.cwd(), file)} (endpoint ${endpoint})`);

// `--env ""` names the top-level store explicitly, as wrangler asks when environments exist.
const deployArgs = ["deploy", "--config", args.configPath, "--env", args.env ?? "", ...args.rest];
console.log(`running: wrangler ${deployArgs.join(" ")}`);
const run = spawnSync(wranglerBin(root), deployArgs, { stdio: "inherit", cwd: root });
if (run.status !== 0) throw new CliError(`wrangler deploy failed (exit ${run.status ?? run.signal})`, run.status ?? 1);
