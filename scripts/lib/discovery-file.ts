/**
 * Writes one store's profiles (/.well-known/ucp and each older version's leaf) into that
 * store's own assets folder, from its checked vars and its own signing-keys.json (see
 * wrangler-config.ts for where those live), so building store B's discovery never touches
 * what store A serves.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildConfig, type MerchantConfig, type MerchantVars } from "../../src/config";
import { varsForDiscovery } from "../../src/config/stripe";
import { discoveryFiles, discoveryProfile } from "../../src/ucp/discovery";
import { unboundEntries } from "../../src/ucp/discovery-authority";
import { assetsDirectory, signingKeysFile, type WranglerConfig } from "./wrangler-config";

/**
 * Returns the files written, the endpoint they advertise, and the root profile's entries a
 * conforming 2026-08-25 platform would drop for failing authority binding.
 */
export function writeDiscovery(
  config: WranglerConfig,
  root: string,
): { files: string[]; endpoint: string; unbound: string[] } {
  const dir = assetsDirectory(config) as string;
  const keys = JSON.parse(readFileSync(signingKeysFile(config) as string, "utf8")) as JsonWebKey[];
  // The Stripe secret key is never in [vars]; its public settings decide the handlers (src/config/stripe.ts).
  const merchant = buildConfig(varsForDiscovery(config.vars as MerchantVars));
  const files = writeProfiles(dir, merchant, keys);
  ensureHeaders(path.join(dir, "_headers"), path.join(root, "public", "_headers"));
  return { files, endpoint: merchant.mcpEndpoint, unbound: unboundEntries(discoveryProfile(merchant, keys).ucp) };
}

/** Every profile into `dir`; `npm start` writes its dev copy with this too. */
export function writeProfiles(dir: string, merchant: MerchantConfig, keys: readonly JsonWebKey[]): string[] {
  return discoveryFiles(merchant, keys).map(({ file, body }) => {
    const target = path.join(dir, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, body);
    return target;
  });
}

/**
 * A store's folder needs the rules that serve its profiles as public, cacheable JSON: a new
 * folder gets the template, and a folder made before a profile existed gets the rules it lacks
 * appended (its own rules stay as they are).
 */
function ensureHeaders(headers: string, template: string): void {
  if (!existsSync(template) || headers === template) return;
  const rules = readFileSync(template, "utf8").split(/\n(?=\S)/);
  const have = existsSync(headers) ? readFileSync(headers, "utf8") : "";
  const paths = new Set(have.split("\n").filter((line) => /^\S/.test(line)));
  const missing = rules.filter((rule) => !paths.has(rule.split("\n")[0] as string));
  if (missing.length === 0) return;
  const joined = missing.map((rule) => rule.replace(/\n*$/, "\n")).join("");
  writeFileSync(headers, have === "" || have.endsWith("\n") ? have + joined : `${have}\n${joined}`);
}
