/** Writes key/value pairs to the CATALOG namespace through `wrangler kv bulk put`. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { KvPair } from "./catalog-file";

export interface KvTarget {
  readonly remote: boolean;
  readonly env?: string;
  readonly persistTo?: string;
}

const BATCH = 5_000;

export function wranglerBin(root: string): string {
  return path.join(root, "node_modules", ".bin", "wrangler");
}

export function bulkPut(root: string, pairs: readonly KvPair[], target: KvTarget): void {
  const dir = mkdtempSync(path.join(tmpdir(), "ucp-kv-"));
  try {
    for (let start = 0; start < pairs.length; start += BATCH) {
      const file = path.join(dir, `batch-${start}.json`);
      writeFileSync(file, JSON.stringify(pairs.slice(start, start + BATCH)));
      const args = ["kv", "bulk", "put", file, "--binding", "CATALOG", target.remote ? "--remote" : "--local"];
      if (target.env) args.push("--env", target.env);
      if (target.persistTo) args.push("--persist-to", target.persistTo);
      const run = spawnSync(wranglerBin(root), args, {
        cwd: root,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
        encoding: "utf8",
      });
      if (run.status !== 0) throw new Error(`wrangler kv bulk put failed:\n${run.stderr || run.stdout}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
