/**
 * npm run discovery [-- --env NAME] [--config PATH]: checks the store's settings, then writes
 * its profiles (into that store's assets folder): /.well-known/ucp for the current UCP version
 * and /.well-known/ucp-profiles/<version> for each older one, from its vars, the code's
 * capability registry and its signing-keys.json. Run it after changing any of them.
 */
import path from "node:path";
import { writeDiscovery } from "./lib/discovery-file";
import { checkedStore, storeArgs } from "./lib/store-args";

const root = path.resolve(import.meta.dirname, "..");
const args = storeArgs(process.argv.slice(2), root);
const config = await checkedStore(args, false, "discovery not written");
const { files, endpoint, unbound } = writeDiscovery(config, root);
if (!endpoint.startsWith("https://")) console.warn(`note: ${endpoint} is for local use; a deployed store needs https.`);
for (const problem of unbound) console.warn(`note: 2026-08-25 platforms will ignore ${problem}`);
for (const file of files) console.log(`wrote ${path.relative(process.cwd(), file)} (endpoint ${endpoint})`);
