/**
 * The arguments check:config, discovery and deploy share (`--env <name>`, `--config <path>`)
 * and the step they all start with: read the store's config the way wrangler does and refuse
 * to go on if any setting is wrong, printing one line per problem.
 */
import path from "node:path";
import { CliError } from "./cli-error";
import { checkStoreConfig } from "./config-check";
import { readWranglerConfig, type WranglerConfig } from "./wrangler-config";

export interface StoreArgs {
  readonly env: string | undefined;
  readonly configPath: string;
  /** Everything else, passed on (deploy hands it to `wrangler deploy`). */
  readonly rest: readonly string[];
  /** A `--` was given and dropped (see storeArgs). */
  readonly strayDashes: boolean;
}

export function storeArgs(argv: readonly string[], root: string): StoreArgs {
  let env: string | undefined;
  let configPath = path.join(root, "wrangler.toml");
  const rest: string[] = [];
  let strayDashes = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    // npm already took the first `--` of `npm run deploy -- …`; a second one
    // (`npm run deploy -- --env b -- --dry-run`) reaches us. Passed on, wrangler would read
    // every flag after it as a file name, so `--dry-run` would deploy for real. Everything
    // after it is read like everything before it.
    if (arg === "--") {
      strayDashes = true;
      continue;
    }
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? arg.split(/=(.*)/s) : [arg, undefined];
    if (flag !== "--env" && flag !== "-e" && flag !== "--config" && flag !== "-c") {
      rest.push(arg);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined || value.startsWith("-")) throw new CliError(`${flag} needs a value`);
    if (flag === "--env" || flag === "-e") env = value === "" ? undefined : value;
    else configPath = path.resolve(value);
  }
  return { env, configPath, rest, strayDashes };
}

/** The store's config and every problem in its settings (an unreadable file is a CliError). */
export async function storeProblems(
  args: StoreArgs,
  deploying: boolean,
): Promise<{ config: WranglerConfig; problems: string[] }> {
  const config = readWranglerConfig(args.configPath, args.env);
  const topLevel = args.env ? readWranglerConfig(args.configPath) : undefined;
  return { config, problems: await checkStoreConfig(config, { env: args.env, topLevel, deploying }) };
}

export function storeName(args: StoreArgs): string {
  return `${path.basename(args.configPath)}${args.env ? ` [env.${args.env}]` : ""}`;
}

/** Each problem on its own line, then one CliError counting them; nothing when there are none. */
export function refuseProblems(problems: readonly string[], args: StoreArgs, refused: string): void {
  if (problems.length === 0) return;
  for (const p of problems) console.error(`error: ${p}`);
  const count = `${problems.length} problem${problems.length === 1 ? "" : "s"}`;
  throw new CliError(`${count} in ${storeName(args)}; ${refused}`);
}

/** The store's config once every setting passes; otherwise each problem on its own line, then a CliError. */
export async function checkedStore(args: StoreArgs, deploying: boolean, refused: string): Promise<WranglerConfig> {
  if (args.strayDashes) console.log("note: ignored a stray `--` (npm passes what follows it on already)");
  const { config, problems } = await storeProblems(args, deploying);
  refuseProblems(problems, args, refused);
  return config;
}
