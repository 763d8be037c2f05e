/**
 * Runs one `ucp` command on Node 22 the way an agent does, and gives back its JSON answer.
 * Asynchronous on purpose: the TLS terminator and the profile host live in this process and
 * must keep answering while the CLI waits on them.
 */
import { spawn } from "node:child_process";
import type { InstalledCli } from "./install";

// biome-ignore lint/suspicious/noExplicitAny: -- CLI answers are inspected structurally
export type Json = any;

export interface CliSetup {
  readonly cli: InstalledCli;
  /** UCP_HOME: the CLI's profiles and caches, never the developer's ~/.ucp. */
  readonly home: string;
  /** NODE_EXTRA_CA_CERTS for the test CA. */
  readonly caFile: string;
}

const TIMEOUT_MS = 60_000;

function cliEnv(setup: CliSetup, extra: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // The user's UCP_PROFILE, UCP_BUSINESS, ... would change what the CLI sends; NODE_OPTIONS
    // meant for Node 20 may not suit Node 22.
    if (key.startsWith("UCP_") || key === "NODE_OPTIONS") continue;
    env[key] = value;
  }
  const noProxy = [env.NO_PROXY ?? env.no_proxy, "localhost", "127.0.0.1"].filter(Boolean).join(",");
  return {
    ...env,
    UCP_HOME: setup.home,
    NODE_EXTRA_CA_CERTS: setup.caFile,
    // Its trace lines on stderr go into every failure message.
    UCP_VERBOSE: "1",
    NO_COLOR: "1",
    NO_PROXY: noProxy,
    no_proxy: noProxy,
    ...extra,
  };
}

/**
 * `ucp <args> --format json`; resolves to the parsed answer when the CLI exits 0, and fails
 * naming `step`, the command, its exit and everything it printed otherwise.
 */
export function ucp(
  setup: CliSetup,
  step: string,
  args: readonly string[],
  extraEnv: Readonly<Record<string, string>> = {},
): Promise<Json> {
  const argv = [...args, "--format", "json"];
  return new Promise((resolve, reject) => {
    const child = spawn(setup.cli.node, [setup.cli.bin, ...argv], {
      env: cliEnv(setup, extraEnv),
      stdio: ["ignore", "pipe", "pipe"],
      timeout: TIMEOUT_MS,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.once("error", reject);
    child.once("close", (code, signal) => {
      const fail = (why: string) =>
        reject(
          new Error(
            `ucp-cli, ${step}: ${why}\n$ ucp ${argv.map(shellQuote).join(" ")}\n--- stdout ---\n${stdout || "(none)"}\n--- stderr ---\n${stderr || "(none)"}`,
          ),
        );
      if (code !== 0) return fail(signal ? `killed by ${signal} (timeout ${TIMEOUT_MS} ms?)` : `exit ${code}`);
      try {
        resolve(JSON.parse(stdout));
      } catch {
        fail("printed no JSON");
      }
    });
  });
}

function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}
