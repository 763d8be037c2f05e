import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callTool, ENDPOINT, post, rpc } from "../helpers/mcp";

describe("JSON-RPC envelope", () => {
  it("answers bad JSON with -32700 and HTTP 400", async () => {
    const reply = await post("{not json");
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.any(String) } });
  });

  it("refuses batches with -32600 (MCP no longer allows them)", async () => {
    const reply = await post([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe(-32600);
    expect(reply.body.error.message).toMatch(/batch/i);
  });

  it.each([
    ["a wrong jsonrpc version", { jsonrpc: "1.0", id: 1, method: "ping" }],
    ["a missing method", { jsonrpc: "2.0", id: 1 }],
    ["a numeric method", { jsonrpc: "2.0", id: 1, method: 7 }],
    ["array params", { jsonrpc: "2.0", id: 1, method: "ping", params: [1] }],
    ["an object id", { jsonrpc: "2.0", id: { a: 1 }, method: "ping" }],
    ["a null id", { jsonrpc: "2.0", id: null, method: "ping" }],
    ["a scalar body", 42],
    ["a string body", JSON.stringify("hello")],
  ])("refuses %s with -32600", async (_, body) => {
    const reply = await post(body);
    expect(reply.status).toBe(400);
    expect(reply.body.jsonrpc).toBe("2.0");
    expect(reply.body.error.code).toBe(-32600);
  });

  it("echoes the id of a request it could read", async () => {
    const reply = await post({ jsonrpc: "1.0", id: "abc", method: "ping" });
    expect(reply.body.id).toBe("abc");
  });

  it("answers unknown methods with -32601", async () => {
    const reply = await rpc("prompts/list");
    expect(reply.body.error.code).toBe(-32601);
    expect(reply.body.result).toBeUndefined();
  });

  it("accepts notifications and client responses with 202 and no body", async () => {
    for (const body of [
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
      { jsonrpc: "2.0", id: 5, result: {} },
    ]) {
      const res = await exports.default.fetch(ENDPOINT, { method: "POST", body: JSON.stringify(body) });
      expect(res.status).toBe(202);
      expect(await res.text()).toBe("");
    }
  });

  it("never leaks internals: stack traces and file paths stay off the wire", async () => {
    const reply = await post(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_catalog","arguments":{"catalog":{"query":',
    );
    expect(JSON.stringify(reply.body)).not.toMatch(/at |\.ts|src\//);
  });
});

describe("MCP lifecycle", () => {
  it.each(["2025-03-26", "2025-06-18", "2025-11-25"])("initialize agrees to protocol %s", async (version) => {
    const reply = await rpc("initialize", {
      protocolVersion: version,
      capabilities: {},
      clientInfo: { name: "test", version: "1" },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.result.protocolVersion).toBe(version);
    expect(reply.body.result.capabilities.tools).toBeDefined();
    expect(reply.body.result.serverInfo).toMatchObject({ name: "ucp-worker", version: expect.any(String) });
  });

  it("initialize offers its latest version for an unknown one", async () => {
    const reply = await rpc("initialize", {
      protocolVersion: "1999-01-01",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    });
    expect(reply.body.result.protocolVersion).toBe("2025-11-25");
  });

  it("answers ping with an empty result", async () => {
    const reply = await rpc("ping");
    expect(reply.body.result).toEqual({});
  });

  it("needs no session: tools/call works without initialize or Mcp-Session-Id", async () => {
    const reply = await callTool("search_catalog", { catalog: { query: "jacket" } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("mcp-session-id")).toBeNull();
    expect(reply.body.result.structuredContent.products.length).toBeGreaterThan(0);
  });

  // Was -32600 with a null id; 2026-07-28 names one error for any version a server does not
  // serve (UnsupportedProtocolVersionError), and a legacy client only ever looked at the 400.
  it("refuses an unsupported MCP-Protocol-Version header with 400 and UnsupportedProtocolVersionError", async () => {
    const reply = await rpc("ping", undefined, { "mcp-protocol-version": "2024-01-01" });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ code: -32022, data: { requested: "2024-01-01" } });
    expect(reply.body.error.data.supported).toEqual(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"]);
    const ok = await rpc("ping", undefined, { "mcp-protocol-version": "2025-06-18" });
    expect(ok.status).toBe(200);
  });
});

describe("Streamable HTTP", () => {
  it("answers with one SSE message event when the client accepts only event streams", async () => {
    const res = await exports.default.fetch(ENDPOINT, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }),
    });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const text = await res.text();
    expect(text).toBe(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 9, result: {} })}\n\n`);
  });

  it("answers JSON when the client accepts both", async () => {
    const reply = await rpc("ping");
    expect(reply.headers.get("content-type")).toBe("application/json");
  });

  it.each(["GET", "DELETE", "PUT"])("answers %s with 405", async (method) => {
    const res = await exports.default.fetch(ENDPOINT, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("POST");
    expect((await res.json<{ error: { code: number } }>()).error.code).toBe(-32600);
  });

  it("answers CORS preflight", async () => {
    const res = await exports.default.fetch(ENDPOINT, {
      method: "OPTIONS",
      headers: { origin: "https://agent.example", "access-control-request-method": "POST" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("access-control-allow-headers")).toContain("mcp-protocol-version");
    // MCP 2026-07-28 clients send the method and tool name as headers (src/mcp/era.ts).
    expect(res.headers.get("access-control-allow-headers")).toMatch(/mcp-method, mcp-name/);
  });

  it("refuses a body over 1 MiB with 413 (declared length)", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(1024 * 1024) } });
    const reply = await post(big);
    expect(reply.status).toBe(413);
    expect(reply.body.error.code).toBe(-32600);
  });

  it("refuses a streamed body over 1 MiB with 413 (no declared length)", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 20) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await exports.default.fetch(ENDPOINT, { method: "POST", body });
    expect(res.status).toBe(413);
  });

  it("answers unknown API paths with JSON 404", async () => {
    for (const path of ["/ucp/nope", "/ucp", "/.well-known/nope"]) {
      const res = await exports.default.fetch(`https://shop.example.com${path}`, { method: "POST" });
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toBe("application/json");
    }
  });
});
