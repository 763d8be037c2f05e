/**
 * `npm start`'s server as Cloudflare runs the store: the Worker built the way `wrangler
 * deploy` builds it (`--dry-run --outdir`), on Miniflare with wrangler.toml's bindings
 * (Durable Objects and their alarms, KV, D1, R2, rate limits), .dev.vars over [vars], the
 * [assets] files (discovery is one) served by Miniflare's assets layer, and state where
 * `wrangler dev --persist-to` keeps it (`<dir>/v3`, default .wrangler/state). Requests come in
 * on the Worker's own socket through the edge module (scripts/lib/start-edge.ts): no wrangler
 * proxy workerd and no Miniflare entry worker, which deployed stores do not have
 * (docs/benchmarks.md "npm start on Miniflare").
 *
 * Built here, in the preparation child (it needs wrangler); start.ts, which runs for as long
 * as the server does, gets plain JSON and needs only Miniflare.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { CliError } from "./cli-error";
import type { DevLaunch } from "./dev-launch";
import { wranglerBin } from "./kv-writer";
import { ASSETS_BINDING, assetPaths, edgeModule } from "./start-edge";
import type { StartFlags } from "./start-flags";

/** Miniflare's constructor options, as JSON (start.ts adds the log handlers). */
export type ServerOptions = Record<string, unknown>;

export const WORKER_NAME = "ucp-worker";
const ASSETS_WORKER = "ucp-worker-assets";

interface AssetsOptions {
  readonly directory: string;
  readonly routerConfig?: Record<string, unknown>;
  readonly assetConfig?: Record<string, unknown>;
}

/** The built module and the edge module in front of it (scripts/lib/start-edge.ts). */
export interface BuiltWorker {
  readonly dir: string;
  readonly main: string;
  readonly edge: string;
}

/** `wrangler deploy --dry-run --outdir <dir>`: the module `wrangler deploy` would upload. */
export function buildWorker(root: string, outdir: string, assets: string): BuiltWorker {
  rmSync(outdir, { recursive: true, force: true });
  const run = spawnSync(wranglerBin(root), ["deploy", "--dry-run", "--outdir", outdir], {
    cwd: root,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    encoding: "utf8",
    timeout: 180_000,
  });
  if (run.status !== 0) {
    const output = `${run.stdout ?? ""}\n${run.stderr ?? ""}`.trim().split("\n").slice(-30).join("\n");
    console.error(output);
    throw new CliError(`the Worker did not build (wrangler deploy --dry-run, status ${run.status ?? run.signal})`);
  }
  const js = readdirSync(outdir).filter((name) => name.endsWith(".js"));
  const main = js.includes("index.js") ? "index.js" : js[0];
  if (!main) throw new CliError(`wrangler deploy --dry-run wrote no .js file into ${outdir}`);
  const edge = "npm-start-edge.mjs";
  writeFileSync(path.join(outdir, edge), edgeModule(main, assetPaths(assets)));
  return { dir: outdir, main, edge };
}

export function serverOptions(
  root: string,
  flags: StartFlags,
  port: string,
  launch: DevLaunch,
  built: BuiltWorker,
): ServerOptions {
  const toml = path.join(root, "wrangler.toml");
  // wrangler.toml's bindings, .dev.vars' secrets and vars over [vars], as wrangler dev binds them.
  const { workerOptions } = unstable_getMiniflareWorkerOptions(toml);
  const { assets, ...options } = workerOptions as typeof workerOptions & { assets?: AssetsOptions };
  const state = flags.persistTo ? path.resolve(flags.persistTo) : path.join(root, ".wrangler", "state");
  const inspector = flags.inspectorPort !== undefined || flags.inspectorIp !== undefined;
  const worker = {
    ...options,
    name: WORKER_NAME,
    modules: [
      { type: "ESModule", path: path.join(built.dir, built.edge) },
      { type: "ESModule", path: path.join(built.dir, built.main) },
    ],
    modulesRoot: built.dir,
    bindings: { ...options.bindings, ...launch.vars },
    serviceBindings: { ...options.serviceBindings, [ASSETS_BINDING]: ASSETS_WORKER },
    unsafeDirectSockets: [{ host: flags.ip ?? "localhost", port: Number(port) }],
    ...(inspector ? { unsafeInspectorProxy: true } : {}),
  };
  // The assets layer on its own: Miniflare's router and asset server, no Worker behind them.
  const assetsWorker = {
    name: ASSETS_WORKER,
    compatibilityDate: options.compatibilityDate,
    modules: true,
    script: "export default { fetch() { return new Response(null, { status: 404 }); } }",
    assets: {
      ...assets,
      directory: launch.assets,
      routerConfig: { ...assets?.routerConfig, has_user_worker: false },
    },
  };
  return {
    workers: [worker, assetsWorker],
    defaultPersistRoot: path.join(state, "v3"),
    // The Worker logs each request itself (src/lib/log.ts); start.ts prints it readably.
    logRequests: false,
    // DevTools only when asked for: an attached inspector costs every log line and subrequest.
    ...(inspector
      ? {
          inspectorPort: Number(flags.inspectorPort ?? 9229),
          ...(flags.inspectorIp ? { inspectorHost: flags.inspectorIp } : {}),
        }
      : {}),
  };
}
