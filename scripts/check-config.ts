/**
 * npm run check:config [-- --env NAME] [--config PATH] [--deploy]: checks every merchant
 * setting of one store with the parsers the Worker runs, naming each mistake with where it
 * is; exits 1 on any. `--deploy` adds what a deployed store needs (https origin, real KV ids);
 * `npm run deploy` always applies it.
 */
import path from "node:path";
import { checkedStore, storeArgs } from "./lib/store-args";

const root = path.resolve(import.meta.dirname, "..");
const args = storeArgs(process.argv.slice(2), root);
const deploying = args.rest.includes("--deploy");
const config = await checkedStore(args, deploying, "fix them and run again");
const origin = config.vars.MERCHANT_ORIGIN;
console.log(
  `${path.basename(args.configPath)}${args.env ? ` [env.${args.env}]` : ""}: configuration OK (${String(origin ?? "no origin")}${deploying ? ", ready to deploy" : ""})`,
);
