/**
 * wrangler.toml read by wrangler's own reader, so scripts see exactly what `wrangler deploy`
 * deploys: `[env.x]` resolved with wrangler's inheritance rules (vars, bindings and
 * ratelimits are not inherited), every TOML form (single quotes, inline tables) understood.
 */
import path from "node:path";
import { type Unstable_Config, unstable_readConfig } from "wrangler";
import { CliError } from "./cli-error";

export type WranglerConfig = Unstable_Config;

/** Vars as the Worker receives them: strings, or objects/arrays for TOML tables. */
export interface WranglerVars {
  readonly [name: string]: unknown;
  readonly MERCHANT_NAME?: string;
  readonly MERCHANT_ORIGIN?: string;
  readonly MERCHANT_CURRENCY?: string;
}

/** The configuration `wrangler deploy [--env env] --config tomlPath` would use. */
export function readWranglerConfig(tomlPath: string, env?: string): WranglerConfig {
  try {
    // hideWarnings: the check reports what matters itself, each with where it is.
    return unstable_readConfig({ config: tomlPath, env }, { hideWarnings: true });
  } catch (e) {
    // Missing file, invalid TOML, unknown environment: all the merchant's to fix.
    throw new CliError(`${path.basename(tomlPath)}: ${oneLine(e instanceof Error ? e.message : String(e))}`);
  }
}

/** The folder a store's assets (and so its /.well-known/ucp) are served from. */
export function assetsDirectory(config: WranglerConfig): string | undefined {
  const dir = config.assets?.directory;
  return dir === undefined ? undefined : path.resolve(path.dirname(config.configPath ?? "."), dir);
}

/**
 * The store's public signing keys: signing-keys.json beside its assets folder
 * (./signing-keys.json for ./public, stores/b/signing-keys.json for stores/b/public), so each
 * environment publishes its own keys.
 */
export function signingKeysFile(config: WranglerConfig): string | undefined {
  const dir = assetsDirectory(config);
  return dir === undefined ? undefined : path.join(path.dirname(dir), "signing-keys.json");
}

/** The vars of the top-level store, or of `[env.<env>]` alone (wrangler does not inherit vars). */
export function readVars(tomlPath: string, env?: string): WranglerVars {
  return readWranglerConfig(tomlPath, env).vars as WranglerVars;
}

/** wrangler's messages span lines (a header, bullets, advice); a CliError is one line. */
function oneLine(message: string): string {
  return message
    .split("\n")
    .map((l) => l.trim().replace(/^- /, ""))
    .filter((l) => l !== "" && !/^Processing .* configuration:$/.test(l))
    .slice(0, 3)
    .join(" ");
}
