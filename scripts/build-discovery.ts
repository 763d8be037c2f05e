/**
 * npm run discovery [-- --env NAME]: writes public/.well-known/ucp from wrangler.toml's
 * merchant settings, the code's capability registry and signing-keys.json. Run it after
 * changing any of them.
 */
import { readFileSync, writeFileSync } from "node:fs";
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
// The demo key's private half is in this repository's .dev.vars: never publish it for a real store.
const signingKeys = JSON.parse(readFileSync(path.join(root, "signing-keys.json"), "utf8")) as Array<
  JsonWebKey & { kid: string }
>;
if (config.origin.startsWith("https://") && signingKeys.some((k) => k.kid === "demo-dev-only")) {
  throw new Error(
    "signing-keys.json still holds the demo key: run `npm run keys:signing -- --kid <kid>` and `--retire demo-dev-only`",
  );
}
const out = path.join(root, "public", ".well-known", "ucp");
writeFileSync(out, discoveryDocument(config, signingKeys));
console.log(`wrote ${path.relative(root, out)} (endpoint ${config.mcpEndpoint})`);
