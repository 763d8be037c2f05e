/**
 * What the local runtime holds after purchase journeys, and whose it is (issue 29 item 4):
 *
 *   node --experimental-websocket scripts/run.mjs bench/journey-memory.ts
 *
 * The deployed bundle on Miniflare (bench/purchase/serve-bundle.ts) with the Worker's
 * inspector open, state on tmpfs, the four-step journey with its webhook at
 * MEMORY29_CONCURRENCY (32) for MEMORY29_SECONDS (20). Printed: workerd's RSS every 5 s,
 * then after the load, after a full collection and after MEMORY29_IDLE_SECONDS (30) idle: the
 * isolate's JS heap (used / reserved), the live Durable Object instances (native
 * DurableObjectState nodes in a heap snapshot), and the snapshot's largest retainers by
 * constructor (self size), so JavaScript the Worker keeps is told from the runtime's memory
 * (SQLite per object, the allocator's free pages).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildBundle, bundleFile } from "./bundle";
import { openInspector } from "./inspector";
import { drive, type Target } from "./purchase/drive";
import { startPlatform } from "./purchase/platform";
import { groupProcesses, loadAverage } from "./purchase/proc";
import { projectRoot } from "./purchase/root";
import { freePort, freshCopy, ourTarget, prepareState, startBundle } from "./purchase/stores";

const root = projectRoot();
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const seconds = env("MEMORY29_SECONDS", 20);
const idle = env("MEMORY29_IDLE_SECONDS", 30);
const concurrency = env("MEMORY29_CONCURRENCY", 32);

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

/** Self size and count per "type name" in a heap snapshot, largest first. */
function byConstructor(heap: Snapshot): Array<[string, { count: number; bytes: number }]> {
  const fields = heap.snapshot.meta.node_fields;
  const types = heap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const out = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < heap.nodes.length; i += fields.length) {
    const type = types[heap.nodes[i + typeAt] as number] as string;
    const name =
      type === "object" || type === "native" ? (heap.strings[heap.nodes[i + nameAt] as number] as string) : `(${type})`;
    const e = out.get(name) ?? { count: 0, bytes: 0 };
    e.count++;
    e.bytes += heap.nodes[i + sizeAt] as number;
    out.set(name, e);
  }
  return [...out].sort((a, b) => b[1].bytes - a[1].bytes);
}

const temp = mkdtempSync(path.join(tmpdir(), "ucp-memory29-"));
const platform = await startPlatform();
try {
  const template = mkdtempSync(path.join("/dev/shm", "ucp-memory29-template-"));
  const state = await prepareState(
    template,
    temp,
    Array.from({ length: concurrency }, (_, n) => platform.profileUrl(n)),
  );
  const bundle = process.env.BENCH_BUNDLE
    ? bundleFile(process.env.BENCH_BUNDLE)
    : buildBundle(root, path.join(temp, "bundle")).file;
  const dir = freshCopy(state, "/dev/shm");
  const inspectorPort = await freePort();
  const run = await startBundle(bundle, dir, await freePort(), inspectorPort);
  const target: Target = ourTarget(state, platform, run.origin);
  const workerdRss = () =>
    groupProcesses(run.group)
      .filter((p) => p.rssBytes > 100e6)
      .map((p) => `${Math.round(p.rssBytes / 1e6)} MB`)
      .join(" + ");
  let chunks: string[] = [];
  const inspector = await openInspector(inspectorPort, "ucp-worker", {
    timeoutMs: 180_000,
    onEvent: (e) => {
      if (e.method === "HeapProfiler.addHeapSnapshotChunk") chunks.push(String(e.params?.chunk ?? ""));
    },
  });
  const mb = (v: unknown) => `${Math.round(Number(v) / 2 ** 20)} MB`;
  const report = async (when: string, top: number) => {
    const heap = await inspector.send("Runtime.getHeapUsage");
    chunks = [];
    await inspector.send("HeapProfiler.enable");
    await inspector.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
    const rows = byConstructor(JSON.parse(chunks.join("")) as Snapshot);
    const objects = rows.find(([name]) => name === "workerd / DurableObjectState")?.[1].count ?? 0;
    const heap2 = await inspector.send("Runtime.getHeapUsage");
    console.log(
      `${when}: workerd RSS ${workerdRss()}; JS heap used ${mb(heap.usedSize)} of ${mb(heap.totalSize)} (after the snapshot's collection ${mb(heap2.usedSize)}); live Durable Objects ${objects}; load ${loadAverage()}`,
    );
    for (const [name, e] of rows.slice(0, top))
      console.log(`    ${mb(e.bytes).padStart(7)} ${String(e.count).padStart(8)}  ${name}`);
  };
  try {
    await drive(target, concurrency, 3);
    await report("warm", 0);
    const t0 = performance.now();
    const sampler = setInterval(
      () => console.log(`  t=${((performance.now() - t0) / 1000).toFixed(0)}s workerd RSS ${workerdRss()}`),
      5000,
    );
    const tally = await drive(target, concurrency, seconds);
    clearInterval(sampler);
    console.log(`${tally.journeys.length} journeys in ${seconds} s, ${tally.failed} failed`);
    await report("after the load", 25);
    await new Promise((r) => setTimeout(r, idle * 1000));
    await report(`after ${idle} s idle`, 12);
  } finally {
    inspector.close();
    await run.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(`${dir}.log`, { force: true });
  }
  rmSync(template, { recursive: true, force: true });
} finally {
  await platform.close();
  rmSync(temp, { recursive: true, force: true });
}
process.exit(0);
