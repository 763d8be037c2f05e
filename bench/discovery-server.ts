/**
 * Discovery as deployed: /.well-known/ucp is a static asset (wrangler.toml `[assets]`,
 * public/) that the asset layer answers before the Worker runs. Miniflare puts that layer
 * only in front of its first (fallback) worker, and the first worker of bench/server.ts is the
 * Worker every other scenario times; so discovery gets a Miniflare (one more workerd) of its own,
 * the deployed bundle behind the same public/ directory and _headers rules.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Miniflare } from "miniflare";

export const DISCOVERY_PATH = "/.well-known/ucp";
export const PUBLIC_DIR = path.resolve(import.meta.dirname, "../public");

export interface DiscoveryServer {
  readonly mf: Miniflare;
  /** http://127.0.0.1:<port> */
  readonly origin: string;
}

export async function startDiscoveryServer(scriptPath: string, port: number): Promise<DiscoveryServer> {
  const mf = new Miniflare({
    host: "127.0.0.1",
    port,
    logRequests: false,
    workers: [
      {
        name: "ucp-assets",
        modules: true,
        scriptPath,
        modulesRoot: path.dirname(scriptPath),
        compatibilityDate: "2026-04-01",
        compatibilityFlags: ["nodejs_compat"],
        assets: {
          directory: PUBLIC_DIR,
          routerConfig: { has_user_worker: true },
          assetConfig: { headers: assetHeaders(path.join(PUBLIC_DIR, "_headers")) },
        },
      },
    ],
  });
  const url = await mf.ready;
  return { mf, origin: `http://127.0.0.1:${url.port}` };
}

/**
 * public/_headers (`/path` then indented `Name: value` lines) in the form Miniflare's asset
 * worker takes; wrangler parses the same file on deploy. Exact paths only: the file has no others.
 */
function assetHeaders(file: string) {
  const rules: Record<string, { set: Record<string, string> }> = {};
  let current: Record<string, string> | undefined;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (/^\S/.test(line)) {
      current = {};
      rules[line.trim()] = { set: current };
    } else if (current && line.includes(":")) {
      const at = line.indexOf(":");
      current[line.slice(0, at).trim()] = line.slice(at + 1).trim();
    }
  }
  return { version: 2 as const, rules };
}
