/**
 * npm run discovery [-- --env NAME] [--config PATH]: checks the store's settings, then writes
 * its /.well-known/ucp (into that store's assets folder) from its vars, the code's capability
 * registry and its signing-keys.json. Run it after changing any of them.
 */
import path from "node:path";
import { writeDiscovery } from "./lib/discovery-file";
import { checkedStore, storeArgs } from "./lib/store-args";

const root = path.resolve(import.meta.dirname, "..");
const args = storeArgs(process.argv.slice(2), root);
const config = await checkedStore(args, false, "discovery not written");
const { file, endpoint } = writeDiscovery(config, root);
if (!endpoint.startsWith("https://")) console.warn(`note: ${endpoint} is for local use; a deployed store needs https.`);
console.log(`wrote ${path.relative(process.cwd(), file)} (endpoint ${endpoint})`);
