/**
 * A Chrome DevTools Protocol session with one workerd isolate's V8 inspector (the target
 * workerd lists as `core:user:<name>`): the transport bench/heap-probe.ts and
 * bench/profile-cdp.ts share. Needs Node's WebSocket (Node 20: `node --experimental-websocket`).
 */
export interface InspectorSession {
  /** Sends one command and resolves with its result; rejects after `timeoutMs` without one. */
  send(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): void;
}

export interface InspectorEvent {
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

export async function openInspector(
  inspectorPort: number,
  name: string,
  options: { readonly timeoutMs: number; readonly onEvent?: (event: InspectorEvent) => void },
): Promise<InspectorSession> {
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
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
      result?: Record<string, unknown>;
    };
    if (message.method !== undefined) options.onEvent?.({ method: message.method, params: message.params });
    if (message.id !== undefined) pending.get(message.id)?.(message.result ?? {});
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        const timer = setTimeout(() => reject(new Error(`inspector: no answer to ${method}`)), options.timeoutMs);
        pending.set(id, (result) => {
          clearTimeout(timer);
          resolve(result);
        });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}
