/**
 * Where a purchase's CPU goes (issue 29 item 2), on the deployed bundle with state on tmpfs:
 *
 *   node --experimental-websocket scripts/run.mjs bench/purchase/profile.ts
 *
 * Per step: the server's CPU (all its processes, /proc) per journey cut after step 1, 2, 3
 * and 4, each on a fresh server; a step costs the difference. Per object and per module: a
 * V8 CPU profile of the Worker's isolate during whole journeys (webhook received), each
 * sample mapped through the bundle's source map to its source file, and charged to the
 * object whose code is at the bottom of its stack (a Durable Object's call runs on a stack
 * of its own) or to the Worker.
 *
 * Env: PROFILE29_SAVE (a file for the raw profile), PROFILE29_SECONDS (10), PROFILE29_ROUNDS (2; 0 for the profile only), PROFILE29_CONCURRENCY (16), BENCH_BUNDLE.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildBundle, bundleFile } from "../bundle";
import { type CpuProfile, openProfiler } from "../profile-cdp";
import { drive, STEPS, type Target } from "./drive";
import { startPlatform } from "./platform";
import { groupCpuSeconds, loadAverage } from "./proc";
import { projectRoot } from "./root";
import { freePort, freshCopy, ourTarget, prepareState, removeState, startBundle } from "./stores";

const root = projectRoot();
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const seconds = env("PROFILE29_SECONDS", 10);
const rounds = env("PROFILE29_ROUNDS", 2);
// Enough platforms that none reaches wrangler.toml's per-platform limit (3,000 requests a minute).
const concurrency = env("PROFILE29_CONCURRENCY", 16);

/** A source path as the report names it: from src/ or durable-objects/, or the package. */
export function sourceName(source: string): string {
  const at = source.search(/(^|\/)(src|durable-objects)\//);
  if (at >= 0) return source.slice(at).replace(/^\//, "");
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(source);
  return pkg ? `node_modules/${pkg[1]}` : source;
}

const WORKER = "worker (request, routing, tools)";

/** Who a stack works for: the object class file at its bottom, or the Worker's request. */
export function owner(files: readonly string[]): string {
  for (let i = files.length - 1; i >= 0; i--) {
    const m = /^durable-objects\/([a-z-]+-object)\.ts$/.exec(files[i] as string);
    if (m) return m[1] as string;
  }
  // After an await the stack starts at the resumed function, so an object's code may run
  // without its class below it; code under durable-objects/ runs only in an object.
  if (files.some((f) => f.startsWith("durable-objects/"))) return "an object (resumed after an await)";
  return WORKER;
}

interface Attribution {
  /** Non-idle sample time (ms), everything below is a part of it. */
  readonly busy: number;
  readonly byOwner: Map<string, number>;
  /** Self time per source file, a native call (SQLite's exec, JSON) charged to the file that made it. */
  readonly byFile: Map<string, number>;
  /** Native calls by name and calling file. */
  readonly natives: Map<string, number>;
  /** Samples with no JavaScript on the stack: (program) = the runtime's C++, (garbage collector). */
  readonly outside: Map<string, number>;
  /** Self time per function, by the source line it starts at (native calls charged to it too). */
  readonly byFunction: Map<string, number>;
  /** The same, only of stacks charged to the Worker (no object class at their bottom). */
  readonly workerFunctions: Map<string, number>;
}

function attribute(profile: CpuProfile, map: SourceMap): Attribution {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const fileOf = new Map<number, string | undefined>();
  const lineOf = new Map<number, string>();
  const file = (id: number): string | undefined => {
    if (fileOf.has(id)) return fileOf.get(id);
    const frame = byNode.get(id)?.callFrame as { url: string; lineNumber: number; columnNumber?: number } | undefined;
    let name: string | undefined;
    if (frame?.url && frame.lineNumber >= 0) {
      const entry = map.findEntry(frame.lineNumber, frame.columnNumber ?? 0) as {
        originalSource?: string;
        originalLine?: number;
      };
      name = entry.originalSource ? sourceName(entry.originalSource) : undefined;
      if (name) lineOf.set(id, `${name}:${(entry.originalLine ?? 0) + 1}`);
    }
    fileOf.set(id, name);
    return name;
  };
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  const out = {
    busy: 0,
    byOwner: new Map(),
    byFile: new Map(),
    natives: new Map(),
    outside: new Map(),
    byFunction: new Map(),
    workerFunctions: new Map(),
  };
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const name = byNode.get(id)?.callFrame.functionName || "(native)";
    if (name === "(idle)") return;
    out.busy += ms;
    const files: string[] = [];
    let fn: string | undefined;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = file(at);
      if (f) files.push(f);
      fn ??= f && lineOf.get(at);
    }
    if (fn) add(out.byFunction, fn, ms);
    const caller = files[0];
    if (!caller) {
      add(out.outside, name, ms);
      return;
    }
    if (!file(id)) add(out.natives, `${name} ← ${caller}`, ms);
    add(out.byFile, caller, ms);
    const who = owner(files);
    add(out.byOwner, who, ms);
    if (fn && who === WORKER) add(out.workerFunctions, file(id) ? fn : `${fn} (${name})`, ms);
  });
  return out;
}

const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);

// Exit on Ctrl-C so the exit hook (stores.ts) stops the detached servers this run started.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));
const temp = mkdtempSync(path.join(tmpdir(), "ucp-profile29-"));
const platform = await startPlatform();
try {
  const template = mkdtempSync(path.join("/dev/shm", "ucp-profile29-template-"));
  const state = await prepareState(
    template,
    temp,
    Array.from({ length: concurrency }, (_, n) => platform.profileUrl(n)),
  );
  const bundle = process.env.BENCH_BUNDLE
    ? bundleFile(process.env.BENCH_BUNDLE)
    : buildBundle(root, path.join(temp, "bundle")).file;
  const target = (origin: string): Target => ourTarget(state, platform, origin);
  const perSteps = new Map<number, number[]>(STEPS.map((_, k) => [k + 1, []]));
  for (let round = 1; round <= rounds; round++) {
    for (let steps = 1; steps <= STEPS.length; steps++) {
      const dir = freshCopy(state, "/dev/shm");
      const run = await startBundle(bundle, dir, await freePort());
      try {
        await drive(target(run.origin), concurrency, 2, 30_000, steps);
        const cpu0 = groupCpuSeconds(run.group);
        const tally = await drive(target(run.origin), concurrency, seconds, 30_000, steps);
        const ms = ((groupCpuSeconds(run.group) - cpu0) * 1000) / tally.journeys.length;
        perSteps.get(steps)?.push(ms);
        if (tally.firstFailure) console.error(`  first failure: ${tally.firstFailure}`);
        console.log(
          `round ${round}, journeys cut after ${STEPS[steps - 1]}: ${ms.toFixed(2)} CPU ms each (${tally.journeys.length} journeys, ${tally.failed} failed, load ${loadAverage()})`,
        );
      } finally {
        await run.stop();
        removeState(dir);
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] as number;
  // PROFILE29_ROUNDS=0: only the profiled run.
  if (rounds > 0) console.log("\nper step (CPU ms per journey, all the server's processes; median of rounds):");
  let before = 0;
  for (const [k, xs] of rounds > 0 ? perSteps : []) {
    const m = median(xs);
    console.log(`  ${STEPS[k - 1]?.padEnd(10)} ${(m - before).toFixed(2).padStart(6)}   (cumulative ${m.toFixed(2)})`);
    before = m;
  }

  // One profiled run of whole journeys.
  const dir = freshCopy(state, "/dev/shm");
  const inspector = await freePort();
  const run = await startBundle(bundle, dir, await freePort(), inspector);
  try {
    await drive(target(run.origin), concurrency, 2);
    const profiler = await openProfiler(inspector, "ucp-worker");
    const cpu0 = groupCpuSeconds(run.group);
    await profiler.start();
    const tally = await drive(target(run.origin), concurrency, seconds);
    const profile = await profiler.stop();
    const cpu = groupCpuSeconds(run.group) - cpu0;
    profiler.close();
    const n = tally.journeys.length;
    // PROFILE29_SAVE=<file>: the raw profile too, for DevTools or a closer look.
    if (process.env.PROFILE29_SAVE) writeFileSync(process.env.PROFILE29_SAVE, JSON.stringify(profile));
    const map = new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, "utf8")));
    const a = attribute(profile, map);
    // The sampler counts wall time, which a busy machine stretches; shares of the busy samples
    // are scaled to the CPU /proc measured over the same journeys.
    const perJourney = (cpu * 1000) / n;
    const ms = (v: number) => ((v / a.busy) * perJourney).toFixed(3).padStart(7);
    const pct = (v: number) => `${((v / a.busy) * 100).toFixed(1).padStart(5)}%`;
    console.log(
      `\nprofiled: ${n} journeys, ${perJourney.toFixed(2)} CPU ms each (all the server's processes, /proc) = 100% of the isolate's busy samples below`,
    );
    const print = (title: string, m: Map<string, number>, count: number) => {
      console.log(title);
      for (const [k, v] of top(m, count)) console.log(`  ${ms(v)}  ${pct(v)}  ${k}`);
    };
    print("by owner (ms per journey, share):", a.byOwner, 12);
    print("no JavaScript on the stack:", a.outside, 6);
    print("by source file, native calls charged to their caller:", a.byFile, 30);
    print("native calls:", a.natives, 15);
    print("by function (the source line it starts at):", a.byFunction, 25);
    print("the Worker's share by function (a native call named after its caller):", a.workerFunctions, 25);
  } finally {
    await run.stop();
    removeState(dir);
  }
  rmSync(template, { recursive: true, force: true });
} finally {
  await platform.close();
  rmSync(temp, { recursive: true, force: true });
}
process.exit(0);
