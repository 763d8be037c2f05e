/**
 * npm run deploy [-- --env NAME] [--config PATH] [wrangler deploy flags]: checks the store's
 * settings as a deployed store needs them, writes its discovery (every version's profile),
 * applies the catalog search migrations to its D1 database (`wrangler d1 migrations apply
 * CATALOG_DB --remote`), then runs `wrangler deploy` for that store. Nothing is deployed while any setting is wrong
 * or a required secret (ID_SIGNING_KEY) is not set; `--dry-run` skips the secret check, with
 * a note. A stray `--` (`npm run deploy -- --env b -- --dry-run`) is dropped and what follows it
 * read as usual, so wrangler never sees `--dry-run` as a file name (store-args.ts).
 * UCP_WRANGLER_BIN names another wrangler binary (the tests use a stand-in).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { CliError } from "./lib/cli-error";
import { requiredSecrets, requireSecrets } from "./lib/deploy-secrets";
import { writeDiscovery } from "./lib/discovery-file";
import { wranglerBin } from "./lib/kv-writer";
import { checkedStore, storeArgs } from "./lib/store-args";

const root = path.resolve(import.meta.dirname, "..");
const args = storeArgs(process.argv.slice(2), root);
const config = await checkedStore(args, true, "nothing deployed");
const wrangler = process.env.UCP_WRANGLER_BIN || wranglerBin(root);
if (args.rest.includes("--dry-run")) {
  console.log("note: --dry-run, so the store's secrets (ID_SIGNING_KEY) were not checked");
} else {
  requireSecrets(wrangler, root, args.configPath, args.env, requiredSecrets(config.vars ?? {}));
}
const { files, endpoint, unbound } = writeDiscovery(config, root);
for (const problem of unbound) console.warn(`note: 2026-08-25 platforms will ignore ${problem}`);
for (const file of files) console.log(`wrote ${path.relative(process.cwd(), file)} (endpoint ${endpoint})`);

// The catalog search schema (migrations/catalog) before the code that reads it; a dry run
// changes nothing remote, so it applies nothing.
if (!args.rest.includes("--dry-run")) {
  const migrate = [
    "d1",
    "migrations",
    "apply",
    "CATALOG_DB",
    "--remote",
    "--config",
    args.configPath,
    "--env",
    args.env ?? "",
  ];
  console.log(`running: wrangler ${migrate.join(" ")}`);
  const applied = spawnSync(wrangler, migrate, { stdio: "inherit", cwd: root });
  if (applied.status !== 0)
    throw new CliError(
      `wrangler d1 migrations apply failed (exit ${applied.status ?? applied.signal}); nothing deployed`,
      applied.status ?? 1,
    );
}

// `--env ""` names the top-level store explicitly, as wrangler asks when environments exist.
const deployArgs = ["deploy", "--config", args.configPath, "--env", args.env ?? "", ...args.rest];
console.log(`running: wrangler ${deployArgs.join(" ")}`);
const run = spawnSync(wrangler, deployArgs, { stdio: "inherit", cwd: root });
if (run.status !== 0) throw new CliError(`wrangler deploy failed (exit ${run.status ?? run.signal})`, run.status ?? 1);
