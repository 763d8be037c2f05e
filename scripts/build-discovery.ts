/**
 * npm run discovery [-- --env NAME]: writes public/.well-known/ucp from wrangler.toml's
 * merchant settings and the code's capability registry. Run it after changing either.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { buildConfig } from "../src/config";
import { discoveryDocument } from "../src/ucp/discovery";
import { readVars } from "./lib/wrangler-config";

const root = path.resolve(import.meta.dirname, "..");
const i = process.argv.indexOf("--env");
const env = i >= 0 ? process.argv[i + 1] : undefined;
const toml = path.join(root, "wrangler.toml");
const config = buildConfig({ ...readVars(toml), ...(env ? readVars(toml, env) : {}) });
if (!config.origin.startsWith("https://") && !/^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(config.origin)) {
  throw new Error(`MERCHANT_ORIGIN must be https (got ${config.origin})`);
}
if (!config.origin.startsWith("https://")) {
  console.warn(`note: ${config.origin} is for local use; UCP requires https for a deployed profile.`);
}
const out = path.join(root, "public", ".well-known", "ucp");
writeFileSync(out, discoveryDocument(config));
console.log(`wrote ${path.relative(root, out)} (endpoint ${config.mcpEndpoint})`);
