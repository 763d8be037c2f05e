/**
 * Starts the real local server the way a user does (`npm start`, i.e.
 * `node scripts/run.mjs scripts/start.ts`) on a free port, and stops it again.
 *
 * State: a temporary `--persist-to` directory, so the suite neither sees nor disturbs a
 * developer's .wrangler/state; start.ts loads the demo catalog into it first.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");

export interface LocalServer {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly baseUrl: string;
  /** Everything the server printed so far (stdout and stderr, interleaved). */
  log(): string;
  /** Stops the whole process group (node → workerd) and waits until it is gone. */
  stop(): Promise<void>;
  /** A crash: SIGKILL to the whole group at once (no graceful stop), then waits until it is gone. */
  kill(): Promise<void>;
  /** The server's process group (node → workerd). */
  readonly group: number;
}

export interface StartOptions {
  /** How long to wait for GET /.well-known/ucp to answer 200 (default 60 s). */
  readonly readyTimeoutMs?: number;
  /** Extra vars, as `--var NAME:VALUE` flags to `npm start` (bound over .dev.vars). */
  readonly vars?: Readonly<Record<string, string>>;
  /** Serve on this port instead of a free one (callers that keep to a range of their own). */
  readonly port?: number;
  /** Name the port as a user's `npm start -- --port N` would, over a PORT that says otherwise. */
  readonly portFlag?: boolean;
  /** Extra environment for `npm start`, e.g. NODE_EXTRA_CA_CERTS (Miniflare hands it to workerd). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Serve from this `--persist-to` directory instead of a fresh temporary one, and keep it
   * after stop/kill (the caller removes it): a restart on the same state.
   */
  readonly stateDir?: string;
  /**
   * Ask for DevTools as a developer would (`--inspector-port`, a free one). Without it the
   * server runs as plain `npm start` does: no inspector (scripts/lib/start-server.ts).
   */
  readonly devtools?: boolean;
}

const MAX_LOG_CHARS = 200_000;

/**
 * `node -e WATCHDOG <parent pid> <server group>`: exits once the group is gone; when the
 * parent dies first, stops the group (SIGTERM, then SIGKILL after 10 s).
 */
const WATCHDOG = `
const [parent, group] = process.argv.slice(1).map(Number);
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch (e) { return e.code === "EPERM"; } };
const signal = (sig) => { try { process.kill(-group, sig); } catch {} };
let deadline = 0;
setInterval(() => {
  if (!alive(-group)) process.exit(0);
  if (deadline === 0 && !alive(parent)) { signal("SIGTERM"); deadline = Date.now() + 10000; }
  if (deadline !== 0 && Date.now() > deadline) signal("SIGKILL");
}, 500);
`;

export async function startServer(options: StartOptions = {}): Promise<LocalServer> {
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const port = options.port ?? (await freePort());
  const ownsState = options.stateDir === undefined;
  const stateDir = options.stateDir ?? mkdtempSync(path.join(tmpdir(), "ucp-e2e-state-"));
  const baseUrl = `http://127.0.0.1:${port}`;
  // A free port, not the usual 9229: a server still shutting down from the previous file (or
  // any other local dev server) holding it would make the server exit at start.
  const inspector = options.devtools ? ["--inspector-port", String(await freePort())] : [];

  const child = spawn(
    process.execPath,
    [
      "scripts/run.mjs",
      "scripts/start.ts",
      "--ip",
      "127.0.0.1",
      "--persist-to",
      stateDir,
      ...inspector,
      ...Object.entries(options.vars ?? {}).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
      ...(options.portFlag ? ["--port", String(port)] : []),
    ],
    {
      cwd: ROOT,
      // Own process group: stop() signals node and workerd together.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      // With portFlag, PORT names another port: the flag has to win.
      env: { ...serverEnv(options.portFlag ? port + 1 : port), ...options.env },
    },
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error("could not spawn the local server");

  let output = "";
  const append = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    if (output.length > MAX_LOG_CHARS) output = output.slice(-MAX_LOG_CHARS);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  // If the test process goes away without calling stop() (killed worker, Ctrl-C, a hook
  // timeout), the server must not outlive it: a normal exit kills the group right away, and
  // a small detached watchdog covers the rest.
  const killOnExit = () => signalGroup(pid, "SIGKILL");
  process.once("exit", killOnExit);
  spawn(process.execPath, ["-e", WATCHDOG, String(process.pid), String(pid)], {
    detached: true,
    stdio: "ignore",
  }).unref();

  let stopped: Promise<void> | undefined;
  const end = (how: typeof stopGroup) => {
    stopped ??= how(child, pid, exited).finally(() => {
      process.off("exit", killOnExit);
      if (ownsState) rmSync(stateDir, { recursive: true, force: true });
    });
    return stopped;
  };
  const server: LocalServer = {
    baseUrl,
    log: () => output,
    stop: () => end(stopGroup),
    kill: () => end(killGroup),
    group: pid,
  };

  try {
    await waitUntilReady(baseUrl, child, readyTimeoutMs);
  } catch (e) {
    await server.stop();
    throw new Error(`${(e as Error).message}\n--- server log (port ${port}) ---\n${output || "(no output)"}`);
  }
  return server;
}

/** The environment a user's shell would give `npm start`, minus the test runner's markers. */
function serverEnv(port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith("VITEST") || key === "NODE_ENV" || key === "TEST") continue;
    env[key] = value;
  }
  return {
    ...env,
    PORT: String(port),
    WRANGLER_SEND_METRICS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    NO_COLOR: "1",
  };
}

/**
 * A port that was free a moment ago, below the kernel's ephemeral range (32768-60999 on
 * Linux). A port the kernel handed out (listen on 0) is in that range, and in the moment
 * between closing the probe and workerd binding it, any outgoing connection may be given
 * it as its local port: a clean clone's run once failed that way ("Address already in
 * use" for the inspector port). Below the range only a listener can take it.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
  throw new Error("no free port in 20000-31999 after 50 tries");
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.unref();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

async function waitUntilReady(baseUrl: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `the local server exited before it was ready (code ${child.exitCode}, signal ${child.signalCode})`,
      );
    }
    try {
      const res = await fetch(`${baseUrl}/.well-known/ucp`, { signal: AbortSignal.timeout(5_000) });
      await res.body?.cancel();
      if (res.status === 200) return;
      last = `HTTP ${res.status}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await sleep(250);
  }
  throw new Error(
    `the local server did not answer GET /.well-known/ucp with 200 within ${timeoutMs} ms (last: ${last})`,
  );
}

async function stopGroup(child: ChildProcess, pid: number, exited: Promise<void>): Promise<void> {
  if (groupAlive(pid)) {
    signalGroup(pid, "SIGTERM");
    // Wait for every member: the group leader (node start.ts) exits once Miniflare has
    // stopped workerd, which may briefly outlive it.
    if (!(await waitFor(() => !groupAlive(pid), 15_000))) {
      signalGroup(pid, "SIGKILL");
      await waitFor(() => !groupAlive(pid), 5_000);
    }
  }
  await Promise.race([exited, sleep(5_000)]);
  child.stdout?.destroy();
  child.stderr?.destroy();
}

async function killGroup(child: ChildProcess, pid: number, exited: Promise<void>): Promise<void> {
  signalGroup(pid, "SIGKILL");
  await waitFor(() => !groupAlive(pid), 5_000);
  await Promise.race([exited, sleep(5_000)]);
  child.stdout?.destroy();
  child.stderr?.destroy();
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function waitFor(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() >= deadline) return false;
    await sleep(100);
  }
  return true;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
