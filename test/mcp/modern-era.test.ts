/**
 * MCP 2026-07-28 ("modern") requests on the same endpoint as 2025-era ones: no initialize, the
 * version and client capabilities in every request's `_meta`, mirrored in headers (SEP-2243),
 * `server/discover`, `resultType` and caching hints on results, and the spec's error codes.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CLIENT_IP, ENDPOINT, meta, post, type RpcReply, rpc } from "../helpers/mcp";

const V = "2026-07-28";
const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const CAPS_KEY = "io.modelcontextprotocol/clientCapabilities";
const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";

let nextId = 5000;

function envelope(extra: Record<string, unknown> = {}) {
  return {
    [VERSION_KEY]: V,
    [CAPS_KEY]: {},
    "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
    ...extra,
  };
}

/** A request as a conformant 2026-07-28 client sends it; `headers` override or add. */
function modern(
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<RpcReply> {
  const name: Record<string, string> = typeof params.name === "string" ? { "mcp-name": params.name } : {};
  const { _meta, ...rest } = params;
  const body = { jsonrpc: "2.0", id: nextId++, method, params: { ...rest, _meta: _meta ?? envelope() } };
  return post(body, { "mcp-protocol-version": V, "mcp-method": method, ...name, ...headers });
}

/** A body sent with exactly these MCP headers (to leave one out). */
function raw(method: string, params: Record<string, unknown>, headers: Record<string, string>): Promise<RpcReply> {
  return post({ jsonrpc: "2.0", id: nextId++, method, params }, headers);
}

const search = { name: "search_catalog", arguments: { meta: meta(), catalog: { query: "jacket" } } };

function expectError(reply: RpcReply, status: number, code: number) {
  expect(reply.status).toBe(status);
  expect(reply.body.error.code).toBe(code);
  expect(reply.body.id).not.toBeNull();
  expect(reply.body.result).toBeUndefined();
}

describe("server/discover", () => {
  it("answers versions, capabilities and identity, cacheable, without any earlier request", async () => {
    const reply = await modern("server/discover");
    expect(reply.status).toBe(200);
    const result = reply.body.result;
    expect(result).toMatchObject({
      resultType: "complete",
      supportedVersions: [V, "2025-11-25", "2025-06-18", "2025-03-26"],
      capabilities: { tools: { listChanged: false } },
      instructions: expect.stringContaining("ucp-agent"),
      ttlMs: 3_600_000,
      cacheScope: "public",
    });
    expect(result._meta[SERVER_INFO_KEY]).toMatchObject({ name: "ucp-worker", version: expect.any(String) });
  });

  it("serves a request whose _meta leaves out clientInfo (a SHOULD)", async () => {
    const reply = await modern("server/discover", { _meta: { [VERSION_KEY]: V, [CAPS_KEY]: {} } });
    expect(reply.status).toBe(200);
    expect(reply.body.result.supportedVersions).toContain(V);
  });

  it("stays a legacy-era unknown method without the envelope, as before", async () => {
    const reply = await rpc("server/discover");
    expect(reply.status).toBe(200);
    expect(reply.body.error.code).toBe(-32601);
  });
});

describe("stateless tools", () => {
  it("tools/list is the legacy list plus resultType, caching hints and serverInfo", async () => {
    const [now, before] = await Promise.all([modern("tools/list"), rpc("tools/list")]);
    expect(now.status).toBe(200);
    expect(now.body.result).toMatchObject({ resultType: "complete", ttlMs: 3_600_000, cacheScope: "public" });
    expect(now.body.result._meta[SERVER_INFO_KEY].name).toBe("ucp-worker");
    expect(now.body.result.tools).toEqual(before.body.result.tools);
    expect(before.body.result.resultType).toBeUndefined();
  });

  it("tools/call works with no initialize: same payload as a 2025 call, marked complete", async () => {
    const reply = await modern("tools/call", search);
    expect(reply.status).toBe(200);
    const result = reply.body.result;
    expect(result.resultType).toBe("complete");
    expect(result._meta[SERVER_INFO_KEY].name).toBe("ucp-worker");
    expect(result.structuredContent.products.length).toBeGreaterThan(0);
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    expect(result.ttlMs).toBeUndefined();
  });

  it("answers one SSE event when the client accepts only event streams", async () => {
    const res = await fetchModern("tools/list", { accept: "text/event-stream" });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const data = JSON.parse((await res.text()).split("data: ")[1] ?? "");
    expect(data.result.resultType).toBe("complete");
  });

  it("keeps UCP's own errors and statuses: a profile that cannot be read is -32001", async () => {
    const bad = { ...search, arguments: { meta: meta("not a url"), catalog: { query: "x" } } };
    const [now, before] = await Promise.all([modern("tools/call", bad), rpc("tools/call", bad)]);
    expect(now.status).toBe(before.status);
    expect(now.body.error).toEqual(before.body.error);
  });

  it.each([
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "prompts/list",
    "unknown/method",
    "search_catalog",
  ])("answers %s with 404 and -32601 (removed, or never served, in 2026-07-28)", async (method) => {
    const reply = await modern(method, method === "search_catalog" ? { meta: meta() } : {});
    expectError(reply, 404, -32601);
  });
});

describe("version negotiation", () => {
  it("an unsupported version is UnsupportedProtocolVersionError with what we serve", async () => {
    const reply = await modern(
      "server/discover",
      { _meta: envelope({ [VERSION_KEY]: "v999.0.0" }) },
      {
        "mcp-protocol-version": "v999.0.0",
      },
    );
    expectError(reply, 400, -32022);
    expect(reply.body.error.data).toEqual({
      supported: [V, "2025-11-25", "2025-06-18", "2025-03-26"],
      requested: "v999.0.0",
    });
  });

  it("a 2025 version in the per-request envelope is unsupported (that era has no envelope)", async () => {
    const reply = await modern(
      "tools/list",
      { _meta: envelope({ [VERSION_KEY]: "2025-11-25" }) },
      {
        "mcp-protocol-version": "2025-11-25",
      },
    );
    expectError(reply, 400, -32022);
  });

  it("a header that disagrees with _meta is HeaderMismatch", async () => {
    const reply = await modern("server/discover", { _meta: envelope({ [VERSION_KEY]: "v999.0.0" }) });
    expectError(reply, 400, -32020);
  });

  it.each([
    ["no _meta", {}],
    ["no protocolVersion", { _meta: { [CAPS_KEY]: {} } }],
    ["no clientCapabilities", { _meta: { [VERSION_KEY]: V } }],
    ["a numeric protocolVersion", { _meta: { [VERSION_KEY]: 2026, [CAPS_KEY]: {} } }],
  ])("a modern request with %s is -32602 with 400", async (_, params) => {
    const reply = await raw("server/discover", params, { "mcp-protocol-version": V, "mcp-method": "server/discover" });
    expectError(reply, 400, -32602);
  });

  it("an initialize asking for 2026-07-28 gets the newest legacy version (2026 has no handshake)", async () => {
    const reply = await rpc("initialize", {
      protocolVersion: V,
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    });
    expect(reply.body.result.protocolVersion).toBe("2025-11-25");
  });
});

describe("mirrored headers (SEP-2243)", () => {
  const full = { "mcp-protocol-version": V, "mcp-method": "tools/call", "mcp-name": "search_catalog" };
  const body = { ...search, _meta: envelope() };

  it.each([
    ["no MCP-Protocol-Version", { "mcp-method": "tools/call", "mcp-name": "search_catalog" }],
    ["no Mcp-Method", { "mcp-protocol-version": V, "mcp-name": "search_catalog" }],
    ["another Mcp-Method", { ...full, "mcp-method": "tools/list" }],
    ["Mcp-Method in other case", { ...full, "mcp-method": "TOOLS/CALL" }],
    ["no Mcp-Name", { "mcp-protocol-version": V, "mcp-method": "tools/call" }],
    ["another Mcp-Name", { ...full, "mcp-name": "get_cart" }],
    ["a malformed Base64 Mcp-Name", { ...full, "mcp-name": "=?base64?!!!?=" }],
  ])("refuses a tools/call with %s: 400 and HeaderMismatch", async (_, headers) => {
    expectError(await raw("tools/call", body, headers), 400, -32020);
  });

  it("leaves Mcp-Name alone on other methods: an extension's tasks/get is -32601, not a header error", async () => {
    const headers = { "mcp-protocol-version": V, "mcp-method": "tasks/get", "mcp-name": "task-1" };
    expectError(await raw("tasks/get", { taskId: "task-1", _meta: envelope() }, headers), 404, -32601);
  });

  it("accepts a Base64-encoded Mcp-Name and surrounding whitespace", async () => {
    const encoded = `=?base64?${btoa("search_catalog")}?=`;
    for (const name of [encoded, "  search_catalog  "]) {
      const reply = await raw("tools/call", body, { ...full, "mcp-name": name });
      expect(reply.status, name).toBe(200);
      expect(reply.body.result.resultType, name).toBe("complete");
    }
  });

  it("ignores the mirrored headers of 2025-era requests, as before", async () => {
    const reply = await rpc("tools/call", search, { "mcp-method": "tools/list", "mcp-name": "nothing" });
    expect(reply.status).toBe(200);
    expect(reply.body.result.resultType).toBeUndefined();
  });
});

/** The raw Response (post() parses JSON, and an SSE body is not JSON). */
function fetchModern(method: string, headers: Record<string, string>): Promise<Response> {
  const mcp = { "mcp-protocol-version": V, "mcp-method": method };
  return exports.default.fetch(ENDPOINT, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": CLIENT_IP, ...mcp, ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { _meta: envelope() } }),
  });
}
