/**
 * What `npm start` adds to the deployed bundle's bindings so the store names the origin it
 * really serves (PORT, --port, --ip; or the user's own `--var MERCHANT_ORIGIN:…` when an https
 * terminator stands in front): MERCHANT_ORIGIN as a var (continue_url, permalinks, webhook
 * UCP-Agent), and a discovery document built for that origin and for the local vars
 * (wrangler.toml [vars] with .dev.vars over them, as `wrangler dev` merges them, so test mode
 * shows), served from a dev copy of the assets under .wrangler/ (or the --persist-to
 * directory) in place of the configured folder. The committed public/.well-known/ucp stays
 * the deployed store's.
 */
import { cpSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { unstable_getVarsForDev } from "wrangler";
import { buildConfig, type MerchantVars } from "../../src/config";
import { EMAIL_NOT_CONFIGURED, type EmailSetup } from "../../src/config/email";
import { CliError } from "./cli-error";
import { writeProfiles } from "./discovery-file";
import { assetsDirectory, readVars, readWranglerConfig, signingKeysFile } from "./wrangler-config";

export interface DevLaunch {
  /** The origin the store names: the user's `--var MERCHANT_ORIGIN:…`, else the one served. */
  readonly origin: string;
  /** The user's `--var`s with MERCHANT_ORIGIN set to `origin`, bound over the files' vars. */
  readonly vars: Readonly<Record<string, string>>;
  /** The dev copy of the [assets] folder, discovery built for `origin`. */
  readonly assets: string;
  /** Where this origin's build of the Worker goes (beside `assets`). */
  readonly bundleDir: string;
  /** One line on how order confirmations leave this store (docs/email.md). */
  readonly email: string;
}

/** `--name value` or `--name=value`, the last one winning as in wrangler's own parser. */
export function flagValue(args: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  args.forEach((arg, i) => {
    if (arg === name) value = args[i + 1];
    else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1);
  });
  return value;
}

/**
 * The user's flags with their own `--port` (either form) taken out, and the one port to pass:
 * theirs, else PORT. wrangler refuses a flag given twice, so `npm start -- --port 9001` has
 * to replace PORT's default, not add to it.
 */
export function portAndRest(args: readonly string[], port: string): { port: string; rest: string[] } {
  const chosen = flagValue(args, "--port") ?? port;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--port") i++;
    else if (!arg.startsWith("--port=")) rest.push(arg);
  }
  return { port: chosen, rest };
}

/** The origin a browser or agent reaches `npm start` at, from its --ip and --port. */
export function servedOrigin(args: readonly string[], port: string): string {
  const chosenPort = flagValue(args, "--port") ?? port;
  if (!/^\d{1,5}$/.test(chosenPort) || Number(chosenPort) > 65535) {
    throw new CliError(`PORT must be a port number (1-65535), got "${chosenPort}"`);
  }
  const ip = flagValue(args, "--ip");
  // Listening on every interface (or by default): localhost reaches it.
  const host = !ip || ip === "0.0.0.0" || ip === "::" || ip === "*" ? "localhost" : ip.includes(":") ? `[${ip}]` : ip;
  return `http://${host}:${chosenPort}`;
}

/**
 * The origin the store names. Behind an https terminator (README "Behind https") the user
 * gives it as `--var MERCHANT_ORIGIN:https://…`: discovery is built for it too, so discovery
 * and the URLs the Worker writes agree. Otherwise the origin npm start really serves.
 */
export function publicOrigin(userArgs: readonly string[], port: string): string {
  const served = servedOrigin(userArgs, port);
  const given = cliVars(userArgs).MERCHANT_ORIGIN;
  if (given === undefined) return served;
  const url = URL.canParse(given) ? new URL(given) : undefined;
  const bare = url?.pathname === "/" && !url.search && !url.hash && !url.username && !url.password;
  if (!url || !bare || !["https:", "http:"].includes(url.protocol)) {
    throw new CliError(`MERCHANT_ORIGIN must be an origin such as https://localhost:9443, got "${given}"`);
  }
  return url.origin;
}

export function prepareDevLaunch(root: string, userArgs: readonly string[], port: string): DevLaunch {
  const origin = publicOrigin(userArgs, port);
  const toml = path.join(root, "wrangler.toml");
  const config = readWranglerConfig(toml);
  const source = assetsDirectory(config);
  const keysFile = signingKeysFile(config);
  if (!source || !keysFile) throw new CliError(`${path.basename(toml)}: [assets] directory is not set`);
  const vars = { ...devVars(toml), ...cliVars(userArgs), MERCHANT_ORIGIN: origin } as MerchantVars;
  const store = buildConfig(vars);
  const keys = JSON.parse(readFileSync(keysFile, "utf8")) as JsonWebKey[];

  // One folder per origin, beside the local state (--persist-to moves both, and the e2e
  // tests' temporary state takes its discovery with it): two dev servers never share one.
  const state = flagValue(userArgs, "--persist-to");
  const base = state ? path.resolve(state) : path.join(root, ".wrangler");
  const host = new URL(origin).host.replace(/[^a-z0-9.-]/gi, "_");
  const dir = path.join(base, "dev-assets", host);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(source, dir, { recursive: true });
  writeProfiles(dir, store, keys);
  return {
    origin,
    vars: { ...cliVars(userArgs), MERCHANT_ORIGIN: origin },
    assets: dir,
    bundleDir: path.join(base, "dev-bundle", host),
    email: emailNotice(store.email),
  };
}

/** What `npm start` says about email: a store without it works, and says so once at start. */
export function emailNotice(email: EmailSetup): string {
  if (email.kind === "off") return EMAIL_NOT_CONFIGURED;
  if (email.kind === "invalid")
    return `email: misconfigured — confirmations are held and retried, not sent: ${email.problems.join("; ")} (docs/email.md)`;
  return `email: confirmations sent through Mailgun (${email.settings.apiBase}, domain ${email.settings.domain}) from ${email.settings.from}`;
}

/** The user's own `--var NAME:VALUE` flags, bound over the files' vars. */
function cliVars(args: readonly string[]): Record<string, string> {
  const vars: Record<string, string> = {};
  args.forEach((arg, i) => {
    const value = arg === "--var" ? args[i + 1] : arg.startsWith("--var=") ? arg.slice("--var=".length) : undefined;
    const colon = value?.indexOf(":") ?? -1;
    if (value !== undefined && colon > 0) vars[value.slice(0, colon)] = value.slice(colon + 1);
  });
  return vars;
}

/** wrangler.toml [vars] with .dev.vars over them, exactly as `wrangler dev` binds them. */
export function devVars(toml: string, env?: string): Record<string, unknown> {
  const vars = readVars(toml, env) as Record<string, string>;
  const bindings = unstable_getVarsForDev(toml, undefined, vars, env, true);
  return Object.fromEntries(Object.entries(bindings).map(([name, binding]) => [name, bindingValue(binding)]));
}

function bindingValue(binding: unknown): unknown {
  return typeof binding === "object" && binding !== null && "value" in binding ? binding.value : binding;
}
