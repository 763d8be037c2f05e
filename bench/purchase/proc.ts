/**
 * CPU and memory of a whole server: every process in its process group (npm start is node →
 * wrangler → workerd; the bundle runner is node → workerd; the reference is one node), read
 * from /proc so each server is measured the same way. Linux only; elsewhere NaN.
 */
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ
const PAGE_BYTES = 4096;

interface ProcStat {
  readonly pid: number;
  readonly group: number;
  /** R, S, D, Z (a zombie: exited, not yet reaped), … */
  readonly state: string;
  readonly ticks: number;
  readonly rssBytes: number;
}

function stat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // comm may hold spaces: fields start after the last ")".
    const rest = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return {
      pid,
      state: rest[0] as string,
      group: Number(rest[2]),
      ticks: Number(rest[11]) + Number(rest[12]),
      rssBytes: Number(rest[21]) * PAGE_BYTES,
    };
  } catch {
    return undefined; // gone while we looked
  }
}

/** The live processes of one process group. */
export function groupProcesses(group: number): ProcStat[] {
  const out: ProcStat[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const s = stat(Number(entry));
    if (s && s.group === group) out.push(s);
  }
  return out;
}

/** Whether any process of the group is still running (not a zombie); elsewhere than Linux, false. */
export function groupAlive(group: number): boolean {
  try {
    return groupProcesses(group).some((p) => p.state !== "Z");
  } catch {
    return false;
  }
}

/** CPU seconds (user + system) the group's processes have used so far. */
export function groupCpuSeconds(group: number): number {
  try {
    return groupProcesses(group).reduce((sum, p) => sum + p.ticks, 0) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** Resident memory of the group (sum of RSS; shared pages count once per process). */
export function groupRssBytes(group: number): number {
  try {
    return groupProcesses(group).reduce((sum, p) => sum + p.rssBytes, 0);
  } catch {
    return Number.NaN;
  }
}

/** The 1-minute load average, for the figure it stands beside. */
export function loadAverage(): number {
  try {
    return Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
  } catch {
    return Number.NaN;
  }
}
