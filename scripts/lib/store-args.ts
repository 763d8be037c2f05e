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
}

export function storeArgs(argv: readonly string[], root: string): StoreArgs {
  let env: string | undefined;
  let configPath = path.join(root, "wrangler.toml");
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
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
  return { env, configPath, rest };
}

/** The store's config once every setting passes; otherwise each problem on its own line, then a CliError. */
export async function checkedStore(args: StoreArgs, deploying: boolean, refused: string): Promise<WranglerConfig> {
  const config = readWranglerConfig(args.configPath, args.env);
  const topLevel = args.env ? readWranglerConfig(args.configPath) : undefined;
  const problems = await checkStoreConfig(config, { env: args.env, topLevel, deploying });
  const store = `${path.basename(args.configPath)}${args.env ? ` [env.${args.env}]` : ""}`;
  if (problems.length === 0) return config;
  for (const p of problems) console.error(`error: ${p}`);
  throw new CliError(`${problems.length} problem${problems.length === 1 ? "" : "s"} in ${store}; ${refused}`);
}
