/**
 * The JS heap of one workerd isolate, read over the V8 inspector (Chrome DevTools Protocol)
 * that Miniflare opens with `inspectorPort`. It answers what RSS cannot: how much of the
 * process's growth is live JavaScript after a full collection, i.e. retained by the Worker,
 * and how much is V8 and the runtime keeping memory they already freed. Needs Node's
 * WebSocket: run with `node --experimental-websocket` on Node 20.
 */
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
  if (typeof WebSocket === "undefined") throw new Error("no WebSocket: run node with --experimental-websocket");
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as Array<{
    id: string;
    title?: string;
    webSocketDebuggerUrl?: string;
  }>;
  const target = targets.find((t) => t.id === name || t.id.endsWith(`:${name}`) || t.title?.endsWith(`:${name}`));
  if (!target?.webSocketDebuggerUrl) {
    throw new Error(`no inspector target for ${name} (have ${targets.map((t) => t.id).join(", ")})`);
  }
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let nextId = 1;
  const pending = new Map<number, (result: Record<string, unknown>) => void>();
  let snapshotChunks: string[] = [];
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as {
      id?: number;
      method?: string;
      params?: { chunk?: string };
      result?: Record<string, unknown>;
    };
    if (message.method === "HeapProfiler.addHeapSnapshotChunk") snapshotChunks.push(message.params?.chunk ?? "");
    if (message.id !== undefined) pending.get(message.id)?.(message.result ?? {});
  });
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => reject(new Error(`inspector: no answer to ${method}`)), 60_000);
      pending.set(id, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      socket.send(JSON.stringify({ id, method, params }));
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
    close: () => socket.close(),
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
