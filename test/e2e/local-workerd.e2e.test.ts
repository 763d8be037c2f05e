/**
 * `npm start` runs its workerd through scripts/workerd-autogates with SQLite's larger heap
 * (scripts/lib/local-workerd.ts): the server's workerd process is the real binary (the
 * wrapper exec'd it, keeping the pid Miniflare spawned) and was started with the one gate.
 * test/node/workerd-autogates.test.ts shows the wrapper hands a workerd its gates.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, startServer } from "./server";

const root = path.resolve(import.meta.dirname, "../..");
let server: LocalServer | undefined;

beforeAll(async () => {
  // As a user's shell has it: the helper's CLOUDFLARE_CF_FETCH_ENABLED=false would hide a fetch.
  server = await startServer({ env: { CLOUDFLARE_CF_FETCH_ENABLED: "" } });
});

afterAll(async () => {
  await server?.stop();
});

/** The processes of a process group: /proc/<pid>/stat's fifth field is the group. */
function groupPids(group: number): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) === group;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

describe.skipIf(!existsSync("/proc/self/environ"))("npm start's workerd", () => {
  it("is the real workerd, started through the wrapper with only the SQLite heap gate", () => {
    if (!server) throw new Error("the local server did not start");
    const workerd = groupPids(server.group).filter((pid) => {
      try {
        return path.basename(readlinkSync(`/proc/${pid}/exe`)) === "workerd";
      } catch {
        return false;
      }
    });
    expect(workerd).toHaveLength(1);
    const env = Object.fromEntries(
      readFileSync(`/proc/${workerd[0]}/environ`, "utf8")
        .split("\0")
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    expect(env.MINIFLARE_WORKERD_PATH).toBe(path.join(root, "scripts", "workerd-autogates"));
    expect(env.UCP_WORKERD_AUTOGATES).toBe("workerd-autogate-increase-sqlite-hard-heap-limit");
  });

  it("asks Cloudflare for no Request.cf object at start (offline it printed a warning and a stack)", () => {
    if (!server) throw new Error("the local server did not start");
    expect(server.log()).not.toContain("Request.cf");
  });
});
