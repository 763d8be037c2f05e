/**
 * Builds the Worker exactly as `wrangler deploy` would upload it (`--dry-run --outdir`), so
 * the benchmark runs the deployed artefact, not the TypeScript sources through another bundler.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export interface BundleInfo {
  /** The emitted ES module (the Worker's main module). */
  readonly file: string;
  readonly rawBytes: number;
  readonly gzipBytes: number;
}

/** Environment for every child process: no telemetry, no Cloudflare network calls. */
export const QUIET_ENV = { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" } as const;

/** `outdir` is created and removed by the caller, so it is cleaned up even when this throws. */
export function buildBundle(root: string, outdir: string): BundleInfo {
  const wrangler = path.join(root, "node_modules", ".bin", "wrangler");
  const run = spawnSync(wrangler, ["deploy", "--dry-run", "--outdir", outdir], {
    cwd: root,
    env: { ...process.env, ...QUIET_ENV },
    encoding: "utf8",
    // Bounded: a wedged build must not hang the benchmark.
    timeout: 180_000,
  });
  if (run.status !== 0) {
    const output = `${run.stdout ?? ""}\n${run.stderr ?? ""}`.trim().split("\n").slice(-20).join("\n");
    throw new Error(`wrangler deploy --dry-run failed (status ${run.status ?? run.signal})\n${output}`);
  }
  return bundleInfo(bundleFile(outdir));
}

/** A built module's sizes (this build's, or one BENCH_BUNDLE names). */
export function bundleInfo(file: string): BundleInfo {
  const bytes = readFileSync(file);
  return { file, rawBytes: bytes.byteLength, gzipBytes: gzipSync(bytes).byteLength };
}

/**
 * The Worker's module in a bundle directory (this build's, or one a bench tool is given).
 * wrangler names it after `main` (index.js); accept any single .js to stay robust to that.
 */
export function bundleFile(dir: string): string {
  const js = readdirSync(dir).filter((name) => name.endsWith(".js"));
  if (js.length === 0) throw new Error(`wrangler emitted no .js file in ${dir}`);
  const chosen = js.includes("index.js") ? "index.js" : js[0];
  if (js.length > 1) console.warn(`note: wrangler emitted ${js.join(", ")}; benchmarking ${chosen}`);
  return path.join(dir, chosen as string);
}
