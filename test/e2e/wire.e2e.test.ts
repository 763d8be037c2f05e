/**
 * Wire hygiene against the real local server (`npm start`): an early answer (413, 405, 400)
 * leaves a keep-alive connection usable for the client's next request. The client is
 * node:http with one keep-alive socket, so the second request provably rides the first's
 * connection (`reusedSocket`, same local port), as Node's fetch (undici) would reuse it.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, startServer } from "./server";

let server: LocalServer | undefined;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly reusedSocket: boolean;
  readonly localPort: number | undefined;
  readonly headers: http.IncomingHttpHeaders;
}

function send(
  agent: http.Agent,
  init: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  const { port } = new URL(server?.baseUrl ?? "");
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        agent,
        method: init.method ?? "POST",
        path: init.path ?? "/ucp/mcp",
        headers: { "content-type": "application/json", ...init.headers },
      },
      (res) => {
        const localPort = res.socket?.localPort;
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            reusedSocket: req.reusedSocket,
            localPort,
            headers: res.headers,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

const LIST = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" });
const OVER_CAP = "x".repeat(1024 * 1024 + 1);
const FAR_OVER_CAP = "x".repeat(5 * 1024 * 1024);

/** Sends `first`, then tools/list on the same connection; the latter must be answered properly. */
async function nextRequestAfter(init: Parameters<typeof send>[1]): Promise<[Answer, Answer]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await send(agent, init);
    const second = await send(agent, { body: LIST });
    expect(second.reusedSocket, "the second request rides the first one's connection").toBe(true);
    expect(second.localPort).toBe(first.localPort);
    expect(second.status, second.body).toBe(200);
    expect(JSON.parse(second.body)).toMatchObject({ jsonrpc: "2.0", id: 7, result: { tools: expect.any(Array) } });
    return [first, second];
  } finally {
    agent.destroy();
  }
}

describe("a keep-alive connection survives an early answer", () => {
  it("after a 413 for a declared length over 1 MiB", async () => {
    const [first] = await nextRequestAfter({ body: OVER_CAP });
    expect(first.status).toBe(413);
    expect(JSON.parse(first.body)).toMatchObject({ error: { code: -32600, message: "Request body exceeds 1 MiB" } });
  });

  it("after a 413 for a chunked body that streams far past 1 MiB", async () => {
    const [first] = await nextRequestAfter({ body: FAR_OVER_CAP, headers: { "transfer-encoding": "chunked" } });
    expect(first.status).toBe(413);
  });

  it("after a 413 for a declared length far over 1 MiB", async () => {
    const [first] = await nextRequestAfter({ body: FAR_OVER_CAP });
    expect(first.status).toBe(413);
  });

  it("after a 405 and a 400 that never read their bodies", async () => {
    const [refused] = await nextRequestAfter({ method: "PUT", body: FAR_OVER_CAP });
    expect(refused.status).toBe(405);
    const [badVersion] = await nextRequestAfter({ body: LIST, headers: { "mcp-protocol-version": "1999-01-01" } });
    expect(badVersion.status).toBe(400);
  });
});
