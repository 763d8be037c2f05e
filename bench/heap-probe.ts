/**
 * The JS heap of one workerd isolate, read over the V8 inspector (Chrome DevTools Protocol)
 * that Miniflare opens with `inspectorPort`. It answers what RSS cannot: how much of the
 * process's growth is live JavaScript after a full collection, i.e. retained by the Worker,
 * and how much is V8 and the runtime keeping memory they already freed. Needs Node's
 * WebSocket: run with `node --experimental-websocket` on Node 20.
 */
import { openInspector } from "./inspector";

export interface HeapUsage {
  readonly usedMb: number;
  readonly totalMb: number;
}

export interface HeapProbe {
  usage(): Promise<HeapUsage>;
  collectGarbage(): Promise<void>;
  /**
   * Heap snapshot nodes (of any type) with each exact name, after the collection the snapshot
   * makes: e.g. "workerd / DurableObjectState", one native node per live Durable Object
   * instance (an instance of a class extending DurableObject is named DurableObjectBase, not
   * after its class, so the class name cannot tell carts from checkouts).
   */
  countNodes(names: readonly string[]): Promise<Record<string, number>>;
  close(): void;
}

/** Connects to the inspector target of the worker named `name` (workerd lists `core:user:<name>`). */
export async function openHeapProbe(inspectorPort: number, name: string): Promise<HeapProbe> {
  let snapshotChunks: string[] = [];
  const { send, close } = await openInspector(inspectorPort, name, {
    timeoutMs: 60_000,
    onEvent: (event) => {
      if (event.method === "HeapProfiler.addHeapSnapshotChunk") snapshotChunks.push(String(event.params?.chunk ?? ""));
    },
  });
  const mb = (bytes: unknown) => Math.round(Number(bytes) / 1024 / 1024);
  return {
    async usage() {
      const result = await send("Runtime.getHeapUsage");
      return { usedMb: mb(result.usedSize), totalMb: mb(result.totalSize) };
    },
    async collectGarbage() {
      await send("HeapProfiler.enable");
      await send("HeapProfiler.collectGarbage");
    },
    async countNodes(names) {
      snapshotChunks = [];
      await send("HeapProfiler.enable");
      await send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
      return countByName(JSON.parse(snapshotChunks.join("")) as HeapSnapshot, names);
    },
    close,
  };
}

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[] } };
  nodes: number[];
  strings: string[];
}

function countByName(heap: HeapSnapshot, names: readonly string[]): Record<string, number> {
  const fields = heap.snapshot.meta.node_fields;
  const nameAt = fields.indexOf("name");
  const counts = Object.fromEntries(names.map((name) => [name, 0]));
  for (let i = 0; i < heap.nodes.length; i += fields.length) {
    const name = heap.strings[heap.nodes[i + nameAt] as number] as string;
    if (Object.hasOwn(counts, name)) counts[name] = (counts[name] as number) + 1;
  }
  return counts;
}
