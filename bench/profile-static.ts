/**
 * Where ping's and tools/list's CPU goes in the Worker's isolate (issue 14 item 6), next to
 * what workerd spends per request in all:
 *
 *   node --experimental-websocket scripts/run.mjs bench/profile-static.ts
 *
 * Env: PROFILE_SECONDS (10 per scenario, at C = 1), PROFILE_PORT (10510; the inspector takes
 * the next port). The V8 profile covers JavaScript in the Worker's isolate only: "(program)"
 * and "(idle)" are workerd's own C++ and waiting.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildBundle } from "./bundle";
import { runScenario } from "./load";
import { inclusiveTimes, openProfiler, selfTimes, selfTimesByModule } from "./profile-cdp";
import { staticScenarios } from "./scenarios";
import { startServers } from "./server";

const root = path.resolve(import.meta.dirname, "..");
const seconds = Number(process.env.PROFILE_SECONDS ?? 10);
const port = Number(process.env.PROFILE_PORT ?? 10510);

/** What every MCP request passes through, outermost first (src/index.ts, src/mcp/http.ts). */
const STAGES = [
  "fetch",
  "route",
  "handleMcpPost",
  "readCappedBytes",
  "parseUntrustedJson",
  "admit",
  "checkRateLimit",
  "dispatch",
  "respond",
  "stringifyWithRaw",
  "logRequest",
];

const temp = mkdtempSync(path.join(tmpdir(), "ucp-profile-static-"));
const file = buildBundle(root, temp).file;
const servers = await startServers(file, port, port + 1);
try {
  const scenarios = staticScenarios({ origin: servers.origin, discoveryOrigin: servers.origin, profile: "" });
  const options = { seconds, warmupSeconds: 2, concurrency: 1, maxRequests: 1e9, timeoutMs: 30_000 };
  for (const scenario of scenarios.filter((s) => s.name !== "discovery")) {
    const profiler = await openProfiler(port + 1, "ucp-worker");
    await profiler.start();
    const row = await runScenario(scenario, options);
    const profile = await profiler.stop();
    profiler.close();
    const requests = Math.max(1, (row.rps * (profile.endTime - profile.startTime)) / 1e6);
    const cpuMs = (row.cpu.workerd * 1000) / row.rps;
    console.log(
      `\n${scenario.name}: ${row.rps.toFixed(0)} req/s, workerd ${cpuMs.toFixed(3)} ms CPU/req, ${row.errors} errors`,
    );
    console.log("  self time per module (ms per request, share of samples)");
    for (const t of selfTimesByModule(profile, readFileSync(file, "utf8")).slice(0, 12))
      console.log(
        `  ${(t.ms / requests).toFixed(4).padStart(8)}  ${(t.share * 100).toFixed(1).padStart(5)}%  ${t.name}`,
      );
    console.log("  inclusive time of the request's stages (ms per request)");
    for (const [name, ms] of inclusiveTimes(profile, STAGES))
      console.log(`  ${(ms / requests).toFixed(4).padStart(8)}  ${name}`);
    console.log("  self time per function");
    for (const t of selfTimes(profile).slice(0, 25))
      console.log(
        `  ${(t.ms / requests).toFixed(4).padStart(8)}  ${(t.share * 100).toFixed(1).padStart(5)}%  ${t.name}`,
      );
  }
} finally {
  await servers.mf.dispose();
  rmSync(temp, { recursive: true, force: true });
}
