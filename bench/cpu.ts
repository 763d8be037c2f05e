/**
 * Who used the CPU during a measurement: this client, workerd, and everything else on the
 * machine. On a shared 2-core box, "others" busy during a run makes its latencies
 * unreliable, so the report shows it next to each scenario. Linux /proc only; elsewhere
 * every figure is NaN and the report says so.
 */
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every mainstream Linux build

export interface CpuShare {
  /** Average cores busy machine-wide. */
  readonly machine: number;
  readonly client: number;
  readonly workerd: number;
  /** Everything else: other users' builds, tests, ... and `steal`. */
  readonly others: number;
  /**
   * Of `others`: time the hypervisor gave this VM's vCPUs to other guests ("steal" in
   * /proc/stat). No process here shows it, yet it slows the run like a busy neighbour.
   */
  readonly steal: number;
}

interface Sample {
  readonly at: number;
  readonly busyTicks: number;
  readonly stealTicks: number;
  readonly clientMicros: number;
  readonly workerdTicks: number;
}

/**
 * Non-idle jiffies across all CPUs, from the first line of /proc/stat: user nice system idle
 * iowait irq softirq steal. guest and guest_nice are left out: they are already in user/nice.
 */
function machineTicks(): { busy: number; steal: number } {
  const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1).map(Number);
  const at = (i: number) => fields[i] ?? 0;
  return { busy: at(0) + at(1) + at(2) + at(5) + at(6) + at(7), steal: at(7) };
}

/** utime + stime of one process (fields 14 and 15; comm may contain spaces, so split after ")"). */
export function processTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(rest[11]) + Number(rest[12]);
}

/** Open file descriptors of the workerd processes this process started (3 per open SQLite object). */
export function workerdDescriptors(): number {
  let open = 0;
  for (const pid of workerdPids()) {
    try {
      open += readdirSync(`/proc/${pid}/fd`).length;
    } catch {
      // The process ended while we looked.
    }
  }
  return open;
}

/** workerd processes started by this process (Miniflare spawns one). */
export function workerdPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (comm === "workerd" && ppid === process.pid) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

function sample(workerd: readonly number[]): Sample | undefined {
  try {
    const usage = process.cpuUsage();
    const ticks = machineTicks();
    return {
      at: performance.now(),
      busyTicks: ticks.busy,
      stealTicks: ticks.steal,
      clientMicros: usage.user + usage.system,
      workerdTicks: workerd.reduce((sum, pid) => sum + processTicks(pid), 0),
    };
  } catch {
    return undefined;
  }
}

/** Starts a measurement; the returned function ends it. */
export function cpuMeter(): () => CpuShare {
  let workerd: number[] = [];
  try {
    workerd = workerdPids();
  } catch {
    // Not Linux.
  }
  const start = sample(workerd);
  return () => {
    const end = sample(workerd);
    if (!start || !end) {
      return { machine: Number.NaN, client: Number.NaN, workerd: Number.NaN, others: Number.NaN, steal: Number.NaN };
    }
    const seconds = (end.at - start.at) / 1000;
    const machine = (end.busyTicks - start.busyTicks) / TICKS_PER_SECOND / seconds;
    const client = (end.clientMicros - start.clientMicros) / 1e6 / seconds;
    const runtime = (end.workerdTicks - start.workerdTicks) / TICKS_PER_SECOND / seconds;
    const steal = (end.stealTicks - start.stealTicks) / TICKS_PER_SECOND / seconds;
    return { machine, client, workerd: runtime, others: Math.max(0, machine - client - runtime), steal };
  };
}

/**
 * Waits (at most `maxSeconds`) until other processes use under `threshold` cores, sampling
 * 1 s windows while the benchmark itself is idle. Returns the last "others" reading.
 */
export async function waitForQuiet(
  maxSeconds: number,
  threshold = 0.3,
  onWait?: (others: number) => void,
): Promise<number> {
  const deadline = performance.now() + maxSeconds * 1000;
  for (let round = 0; ; round++) {
    const stop = cpuMeter();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { others } = stop();
    if (!(others >= threshold) || performance.now() >= deadline) return others;
    if (round === 0) onWait?.(others);
  }
}
