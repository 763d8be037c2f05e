/**
 * Our store for the purchase journeys, as two servers on one prepared state: `npm start`
 * (the user's path: node → wrangler dev → workerd, its front worker included) and the
 * deployed bundle on Miniflare (serve-bundle.ts). The state is made once (the demo catalog
 * with room for every journey, one API key per client platform) and copied afresh for each
 * run, so every run starts from the same store.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, cpSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { Miniflare } from "miniflare";
import { validateCatalogFile, withStores, writeCatalog } from "../../scripts/lib/load";
import { readWranglerConfig } from "../../scripts/lib/wrangler-config";
import { type AuthKv, createApiKey } from "../../src/auth/api-keys";
import { QUIET_ENV } from "../bundle";
import { OURS, type Target } from "./drive";
import type { Platform } from "./platform";
import { projectRoot } from "./root";

const root = projectRoot();

/** Units per variant: no journey run may buy one out (the store's right answer would then be out_of_stock). */
const UNITS = 1_000_000;

export interface OurState {
  readonly dir: string;
  /** Client n's API key, bound to its own platform profile. */
  readonly apiKeys: readonly string[];
  /** Products whose default variant can be bought. */
  readonly productIds: readonly string[];
}

/** The demo catalog, every tracked variant stocked with UNITS. */
function roomyCatalog(scratch: string): { file: string; productIds: string[] } {
  type Variant = { stock?: number; availability?: { available?: boolean } };
  const catalog = JSON.parse(readFileSync(path.join(root, "data", "demo-catalog.json"), "utf8")) as {
    products: Array<{ id: string; variants: Variant[] }>;
  };
  for (const p of catalog.products) for (const v of p.variants) if (v.stock !== undefined) v.stock = UNITS;
  const file = path.join(scratch, "catalog.json");
  writeFileSync(file, JSON.stringify(catalog));
  const productIds = catalog.products.filter((p) => p.variants[0]?.availability?.available !== false).map((p) => p.id);
  return { file, productIds };
}

/** Writes the catalog and the API keys into `dir` (a `--persist-to` folder). */
export async function prepareState(dir: string, scratch: string, profileUrls: readonly string[]): Promise<OurState> {
  const { file, productIds } = roomyCatalog(scratch);
  const catalog = await validateCatalogFile(file, "USD", () => {});
  if (catalog.problems.length > 0) throw new Error(`bench catalog is invalid: ${catalog.problems[0]?.message}`);
  await withStores(root, { remote: false, persistTo: dir }, (store, search) =>
    writeCatalog(catalog, store, search, "USD", () => {}),
  );
  const config = readWranglerConfig(path.join(root, "wrangler.toml"));
  const auth = config.kv_namespaces.find((ns) => ns.binding === "AUTH")?.id;
  if (!auth) throw new Error("wrangler.toml has no AUTH KV namespace");
  const mf = new Miniflare({
    modules: true,
    script: "export default { fetch() { return new Response(null, { status: 404 }); } }",
    defaultPersistRoot: path.join(dir, "v3"),
    kvNamespaces: { AUTH: auth },
  });
  try {
    const kv = (await mf.getKVNamespace("AUTH")) as unknown as AuthKv;
    const apiKeys: string[] = [];
    for (const [n, profile] of profileUrls.entries())
      apiKeys.push((await createApiKey(kv, { profile, label: `bench client ${n}` }, Date.now())).key);
    return { dir, apiKeys, productIds };
  } finally {
    await mf.dispose();
  }
}

/** Deletes a run's state and the server's log beside it (spawnGroup's log file, `<state>.log`). */
export function removeState(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  rmSync(`${dir}.log`, { force: true });
}

/** A fresh copy of the prepared state under `parent` (tmpfs or disk). */
export function freshCopy(state: OurState, parent: string): string {
  const dir = mkdtempSync(path.join(parent, "ucp-bench29-state-"));
  cpSync(state.dir, dir, { recursive: true });
  return dir;
}

export interface Running {
  readonly origin: string;
  /** The server's process group (CPU and memory are read over all of it). */
  readonly group: number;
  stop(): Promise<void>;
}

const live = new Set<number>();
let exitHooked = false;

function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch {
    // Already gone.
  }
}

/**
 * A server in its own process group, its output to a file beside its state: a pipe would
 * have this process (the client) read every request's log line.
 */
export function spawnGroup(
  args: string[],
  env: Record<string, string>,
  logFile: string,
  cwd = root,
): { child: ChildProcess; log: () => string } {
  const fd = openSync(logFile, "w");
  const child = spawn(process.execPath, args, {
    cwd,
    detached: true,
    stdio: ["ignore", fd, fd],
    env: { ...process.env, ...QUIET_ENV, ...env },
  });
  closeSync(fd);
  // Detached servers outlive a Ctrl-C'd or crashed bench unless the exit takes them along.
  const group = child.pid as number;
  if (!exitHooked) {
    exitHooked = true;
    process.once("exit", () => {
      for (const g of live) signalGroup(g, "SIGKILL");
    });
  }
  live.add(group);
  child.once("exit", () => live.delete(group));
  const log = () => {
    try {
      return readFileSync(logFile, "utf8").slice(-20_000);
    } catch {
      return "";
    }
  };
  return { child, log };
}

/** Stops the group: SIGTERM, then SIGKILL after 5 s. */
export async function stopGroup(child: ChildProcess): Promise<void> {
  const group = child.pid as number;
  const alive = () => {
    try {
      process.kill(-group, 0);
      return true;
    } catch {
      return false;
    }
  };
  signalGroup(group, "SIGTERM");
  const deadline = Date.now() + 5000;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (alive()) signalGroup(group, "SIGKILL");
  live.delete(group);
}

/** Polls `url` until it answers 200 (or the child exits, or `timeoutMs` passes). */
export async function waitReady(child: ChildProcess, url: string, timeoutMs: number, log: () => string) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stopGroup(child);
      throw new Error(`server at ${url} did not start:\n${log().slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * `npm start` on `state`, as a user runs it (PORT, --ip, --persist-to). An inspector port
 * asks for DevTools, which a user's plain `npm start` does not open (scripts/lib/dev-launch.ts).
 */
export async function startNpmStart(state: string, port: number, inspectorPort?: number): Promise<Running> {
  const { child, log } = spawnGroup(
    [
      "scripts/run.mjs",
      "scripts/start.ts",
      "--ip",
      "127.0.0.1",
      "--persist-to",
      state,
      ...(inspectorPort ? ["--inspector-port", String(inspectorPort)] : []),
    ],
    { PORT: String(port) },
    `${state}.log`,
  );
  const origin = `http://127.0.0.1:${port}`;
  await waitReady(child, `${origin}/.well-known/ucp`, 120_000, log);
  return { origin, group: child.pid as number, stop: () => stopGroup(child) };
}

/** The built bundle on Miniflare (serve-bundle.ts) on `state`. */
export async function startBundle(
  bundle: string,
  state: string,
  port: number,
  inspectorPort?: number,
): Promise<Running> {
  const { child, log } = spawnGroup(
    [
      "scripts/run.mjs",
      "bench/purchase/serve-bundle.ts",
      bundle,
      state,
      String(port),
      ...(inspectorPort ? [String(inspectorPort)] : []),
    ],
    {},
    `${state}.log`,
  );
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (!log().includes("ready ")) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stopGroup(child);
      throw new Error(`bundle server did not start:\n${log().slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { origin, group: child.pid as number, stop: () => stopGroup(child) };
}

/** The purchase driver's target for our store at `origin`: client n is platform n, with its own API key. */
export function ourTarget(state: OurState, platform: Platform, origin: string): Target {
  return {
    origin,
    dialect: OURS,
    productIds: state.productIds,
    headers: (n) => ({
      authorization: `Bearer ${state.apiKeys[n]}`,
      "ucp-agent": `profile="${platform.profileUrl(n)}"`,
    }),
  };
}

/** A port free on 127.0.0.1 at the moment of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
