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
  const target = targets.find((t) => t.id.endsWith(`:${name}`) || t.title?.endsWith(`:${name}`));
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
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown> };
    if (message.id !== undefined) pending.get(message.id)?.(message.result ?? {});
  });
  const send = (method: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => reject(new Error(`inspector: no answer to ${method}`)), 60_000);
      pending.set(id, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      socket.send(JSON.stringify({ id, method }));
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
    close: () => socket.close(),
  };
}
