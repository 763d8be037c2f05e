/**
 * Wire hygiene against the real local server (`npm start`): an early answer (413, 405, 400)
 * leaves a keep-alive connection usable for the client's next request. The client is
 * node:http with one keep-alive socket, so the second request provably rides the first's
 * connection (`reusedSocket`, same local port), as Node's fetch (undici) would reuse it.
 * Also what the server prints: one JSON line per request (docs/operations.md), and no
 * workerd DNS stack trace for the README's platform.example profile.
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
    // Done once the request is closed, not at the response's end: the server answers a big
    // body only after reading its last byte, but Node can read that answer before it runs the
    // write's completion (seen under load), and then frees the socket only at the request's
    // 'finish'. A next request sent in between waits in the agent's queue and gets this same
    // socket with reusedSocket false. 'close' comes right before the socket goes back to the
    // agent (or after it closed), so the next request takes it from the free pool or opens a new one.
    let answer: Answer | undefined;
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
        res.on("end", () => {
          answer = {
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            reusedSocket: req.reusedSocket,
            localPort,
            headers: res.headers,
          };
        });
      },
    );
    req.on("close", () => (answer ? resolve(answer) : reject(new Error("closed before the answer ended"))));
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

describe("what the local server prints", () => {
  it("one JSON line per request, and a quiet line instead of a DNS stack trace for platform.example", async () => {
    const profile = "https://platform.example/profiles/e2e-quiet.json";
    const res = await fetch(`${server?.baseUrl}/ucp/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", "cf-ray": "e2e-ray-1" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "search_catalog",
          arguments: { meta: { "ucp-agent": { profile } }, catalog: { query: "tent" } },
        },
      }),
    });
    expect(res.status).toBe(200);
    await res.body?.cancel();
    const line = await waitForLine((l) => l.includes('"request_id":"e2e-ray-1"'));
    expect(JSON.parse(line)).toMatchObject({
      log: "request",
      rpc: "tools/call",
      tool: "search_catalog",
      profile,
      tier: "anonymous",
      outcome: "ok",
      status: 200,
      duration_ms: expect.any(Number),
    });
    const output = server?.log() ?? "";
    expect(output).toContain(`profile ${profile} unreachable`);
    expect(output).toContain("assuming compatible (PROFILE_FALLBACK)");
    expect(output).not.toContain("DNS lookup failed");
  });
});

/** The first line of the server's output that `match` accepts, waiting briefly for it to be flushed. */
async function waitForLine(match: (line: string) => boolean): Promise<string> {
  for (let i = 0; i < 40; i++) {
    const found = (server?.log() ?? "").split("\n").find(match);
    if (found) return found.trim();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no such line in the server output:\n${server?.log().slice(-3000)}`);
}
