/**
 * `npm start` runs without wrangler dev's inspector proxy unless DevTools are asked for
 * (`--inspector-port`, scripts/lib/dev-launch.ts devtoolsEnv): attached, the proxy turns on
 * the isolate's Runtime and Network events for every log line and subrequest and buffers them
 * all, which cost a third of a purchase's CPU (docs/benchmarks.md "npm start against the
 * bundle"). Read off the server's own sockets: every port its processes listen on is asked
 * what it is (`/json/version`), and only with the flag does one answer as wrangler's DevTools.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { type LocalServer, startServer } from "./server";

let server: LocalServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** TCP ports the process group listens on (its sockets' inodes matched in /proc/net/tcp{,6}). */
function listeningPorts(group: number): number[] {
  const inodes = new Set<string>();
  for (const pid of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) !== group) continue;
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1] as string);
      }
    } catch {
      // gone, or not ours to read
    }
  }
  const ports = new Set<number>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      // st 0A = LISTEN; field 9 is the inode.
      if (f[3] === "0A" && inodes.has(f[9] as string)) ports.add(Number.parseInt(f[1]?.split(":")[1] as string, 16));
    }
  }
  return [...ports];
}

/** The ports that answer /json/version as wrangler's DevTools endpoint. */
async function devtoolsPorts(group: number): Promise<number[]> {
  const found: number[] = [];
  for (const port of listeningPorts(group)) {
    const version = await fetch(`http://127.0.0.1:${port}/json/version`, { signal: AbortSignal.timeout(3000) })
      .then((r) => (r.ok ? (r.json() as Promise<{ Browser?: string }>) : undefined))
      .catch(() => undefined);
    if (version?.Browser?.startsWith("wrangler/")) found.push(port);
  }
  return found;
}

describe("npm start and DevTools", () => {
  it("has no inspector proxy by default, and still serves", async () => {
    server = await startServer();
    expect((await fetch(`${server.baseUrl}/.well-known/ucp`)).status).toBe(200);
    expect(listeningPorts(server.group).length).toBeGreaterThan(1);
    expect(await devtoolsPorts(server.group)).toEqual([]);
    // npm start's own process only waits on wrangler: the preparation ran in a child that
    // exited (scripts/start-prepare.ts). Before, it kept ~230 MB for the server's lifetime.
    const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.group}/status`, "utf8"))?.[1]);
    expect(rss / 1024).toBeLessThan(120);
  });

  it("opens DevTools on the --inspector-port a developer names", async () => {
    server = await startServer({ devtools: true });
    expect((await fetch(`${server.baseUrl}/.well-known/ucp`)).status).toBe(200);
    expect(await devtoolsPorts(server.group)).toHaveLength(1);
  });
});
