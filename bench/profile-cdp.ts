/**
 * A V8 CPU profile of one workerd isolate over the inspector (Chrome DevTools Protocol), the
 * same target bench/heap-probe.ts attaches to, summarized by self time per function: where
 * the isolate's CPU goes, not how long requests wait. Needs Node's WebSocket (Node 20:
 * `node --experimental-websocket`).
 */
import { openInspector } from "./inspector";

export interface ProfileNode {
  readonly id: number;
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
  readonly children?: readonly number[];
}

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface Profiler {
  start(): Promise<void>;
  stop(): Promise<CpuProfile>;
  close(): void;
}

export async function openProfiler(inspectorPort: number, name: string, intervalMicros = 100): Promise<Profiler> {
  const { send, close } = await openInspector(inspectorPort, name, { timeoutMs: 120_000 });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: intervalMicros });
  return {
    start: async () => {
      await send("Profiler.start");
    },
    stop: async () => (await send("Profiler.stop")).profile as CpuProfile,
    close,
  };
}

export interface SelfTime {
  readonly name: string;
  readonly ms: number;
  readonly share: number;
}

/**
 * Self time per function (name + source line), heaviest first. "(idle)" and "(program)" are
 * V8's own buckets: waiting, and runtime work outside JavaScript (workerd's C++, SQLite).
 */
export function selfTimes(profile: CpuProfile): SelfTime[] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    const frame = byNode.get(id)?.callFrame;
    const name = frame ? `${frame.functionName || "(anonymous)"} ${shortUrl(frame.url)}:${frame.lineNumber + 1}` : "?";
    totals.set(name, (totals.get(name) ?? 0) + micros);
    all += micros;
  });
  return [...totals]
    .map(([name, micros]) => ({ name, ms: micros / 1000, share: micros / all }))
    .sort((a, b) => b.ms - a.ms);
}

/**
 * Inclusive time of the functions whose names match, each counted once per sample even when
 * it recurses: "how much of the CPU ran under X".
 */
export function inclusiveTimes(profile: CpuProfile, names: readonly string[]): Map<string, number> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map(names.map((name) => [name, 0]));
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const fn = byNode.get(at)?.callFrame.functionName ?? "";
      if (totals.has(fn) && !seen.has(fn)) {
        seen.add(fn);
        totals.set(fn, (totals.get(fn) ?? 0) + micros / 1000);
      }
    }
  });
  return totals;
}

/**
 * Self time per source module of the bundle: esbuild heads each module's code with a
 * `// path/to/module.ts` comment, so a sample's line says which module it ran in.
 */
export function selfTimesByModule(profile: CpuProfile, bundleSource: string): SelfTime[] {
  const starts: Array<{ line: number; module: string }> = [];
  bundleSource.split("\n").forEach((text, i) => {
    const m = /^\/\/ ((?:src|durable-objects|node_modules)\/\S+)$/.exec(text);
    if (m) starts.push({ line: i, module: m[1] as string });
  });
  const moduleAt = (line: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found = "(bundle head)";
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = starts[mid] as { line: number; module: string };
      if (s.line <= line) {
        found = s.module;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found.replace(/^node_modules\/(\.pnpm\/)?((@[^/]+\/)?[^/]+).*$/, "node_modules/$2");
  };
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    const frame = byNode.get(id)?.callFrame;
    const name = !frame ? "?" : frame.url ? moduleAt(frame.lineNumber) : frame.functionName || "(native)";
    totals.set(name, (totals.get(name) ?? 0) + micros);
    all += micros;
  });
  return [...totals]
    .map(([name, micros]) => ({ name, ms: micros / 1000, share: micros / all }))
    .sort((a, b) => b.ms - a.ms);
}

function shortUrl(url: string): string {
  return url.slice(url.lastIndexOf("/") + 1);
}
