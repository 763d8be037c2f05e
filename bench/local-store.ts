/**
 * `npm start` on a fresh state directory, in its own process group (node → wrangler →
 * workerd), ready once discovery answers: the page-weight benches' store. (test/e2e/server.ts
 * does the same for the tests; it finds the project from its own folder, which
 * scripts/run.mjs's bundling moves.)
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

export async function startLocalStore(port: number, statePrefix: string) {
  const state = mkdtempSync(path.join(tmpdir(), statePrefix));
  const child = spawn(
    process.execPath,
    ["scripts/run.mjs", "scripts/start.ts", "--ip", "127.0.0.1", "--persist-to", state],
    {
      cwd: root,
      detached: true,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, PORT: String(port), WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    },
  );
  const group = child.pid as number;
  const stop = async () => {
    try {
      process.kill(-group, "SIGTERM");
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 1000));
    rmSync(state, { recursive: true, force: true });
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    const ok = await fetch(`${baseUrl}/.well-known/ucp`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error("the local store did not start");
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { baseUrl, stop };
}
