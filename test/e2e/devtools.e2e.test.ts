/**
 * `npm start` serves the deployed build on Miniflare (scripts/lib/start-server.ts): one node
 * process and one workerd, no wrangler, and DevTools only when asked for (`--inspector-port`):
 * an attached inspector turns on the isolate's Runtime and Network events for every log line
 * and subrequest, which cost a third of a purchase's CPU under wrangler dev (docs/benchmarks.md
 * "npm start against the bundle"). Read off the server's own sockets: every port its processes
 * listen on is asked what it is (`/json/version`); only with the flag does one answer, on the
 * port named, as Miniflare's DevTools proxy with the Worker as its one target.
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

/** The ports that answer /json/version as a DevTools endpoint (Miniflare's proxy or workerd's own), and as what. */
async function devtoolsPorts(group: number): Promise<{ port: number; browser: string }[]> {
  const found: { port: number; browser: string }[] = [];
  for (const port of listeningPorts(group)) {
    const version = await fetch(`http://127.0.0.1:${port}/json/version`, { signal: AbortSignal.timeout(3000) })
      .then((r) => (r.ok ? (r.json() as Promise<{ Browser?: string }>) : undefined))
      .catch(() => undefined);
    if (version?.Browser) found.push({ port, browser: version.Browser });
  }
  return found;
}

/** The command lines of the group's processes. */
function commands(group: number): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) !== group) continue;
      found.push(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" "));
    } catch {
      // gone
    }
  }
  return found;
}

describe("npm start and DevTools", () => {
  it("is the bundle on Miniflare: no wrangler, no inspector by default, and still serves", async () => {
    server = await startServer();
    expect((await fetch(`${server.baseUrl}/.well-known/ucp`)).status).toBe(200);
    const running = commands(server.group);
    expect(running.filter((c) => /wrangler/.test(c))).toEqual([]);
    expect(running.filter((c) => /\bworkerd serve\b/.test(c))).toHaveLength(1);
    expect(listeningPorts(server.group).length).toBeGreaterThan(1);
    expect(await devtoolsPorts(server.group)).toEqual([]);
    // One readable line per Worker request, then the Worker's own JSON line (scripts/lib/serve-log.ts).
    await (await fetch(`${server.baseUrl}/`, { headers: { "cf-ray": "e2e-readable-1" } })).text();
    await expect
      .poll(() => server?.log() ?? "")
      .toMatch(/GET \/ 200 OK \(\d+ms\) page\n\{"log":"request","request_id":"e2e-readable-1"/);
    // The preparation (seeding, the build, wrangler's config reader) ran in a child that
    // exited (scripts/start-prepare.ts): what stays is Miniflare (wrangler dev's node alone
    // held ~270 MB beside npm start's own ~55 MB).
    const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.group}/status`, "utf8"))?.[1]);
    expect(rss / 1024).toBeLessThan(300);
  });

  it("opens DevTools on the --inspector-port a developer names, for the Worker", async () => {
    server = await startServer({ devtools: true });
    expect((await fetch(`${server.baseUrl}/.well-known/ucp`)).status).toBe(200);
    // Miniflare's proxy on the port named, over workerd's own inspector on a port of its choosing.
    const proxies = (await devtoolsPorts(server.group)).filter((p) => p.browser.startsWith("miniflare/"));
    expect(proxies).toHaveLength(1);
    const port = proxies[0]?.port;
    expect(server.log()).toContain(`DevTools: http://127.0.0.1:${port}/json`);
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string }[];
    expect(targets.map((t) => t.webSocketDebuggerUrl)).toEqual([`ws://127.0.0.1:${port}/ucp-worker`]);
  });
});
