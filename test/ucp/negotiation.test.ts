import { describe, expect, it } from "vitest";
import { callTool, meta, PROFILES, post, rpc } from "../helpers/mcp";

const search = { catalog: { query: "jacket" } };

async function hits(url: string): Promise<number> {
  const res = await fetch(`https://fixtures.test/hits?url=${encodeURIComponent(url)}`);
  return (await res.json<{ hits: number }>()).hits;
}

describe("profile URL (-32001 invalid_profile_url, HTTP 400)", () => {
  it.each([
    ["no meta at all", {}],
    ["meta without ucp-agent", { meta: {} }],
    ["ucp-agent without profile", { meta: { "ucp-agent": {} } }],
    ["a profile that is not a URL", { meta: { "ucp-agent": { profile: "not a url" } } }],
    ["a numeric profile", { meta: { "ucp-agent": { profile: 42 } } }],
    ["an http profile", { meta: { "ucp-agent": { profile: "http://agent.test/profiles/full.json" } } }],
    ["meta that is a string", { meta: "hello" }],
  ])("refuses %s", async (_, args) => {
    const reply = await rpc("tools/call", { name: "search_catalog", arguments: { ...args, ...search } });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe(-32001);
    expect(reply.body.error.data.code).toBe("invalid_profile_url");
    expect(reply.body.error.data.content).toEqual(expect.any(String));
  });
});

describe("profile resolution", () => {
  it.each([
    ["a 404", "missing.json", 424, "profile_unreachable"],
    ["a 503", "server-error.json", 424, "profile_unreachable"],
    ["a redirect (never followed)", "redirect.json", 424, "profile_unreachable"],
    ["a body that is not JSON", "not-json.json", 422, "profile_malformed"],
    ["a document without ucp", "no-ucp.json", 422, "profile_malformed"],
    ["a non-date version", "bad-version.json", 422, "profile_malformed"],
    ["a body over the size cap", "huge.json", 422, "profile_malformed"],
    ["an older protocol version", "old-version.json", 422, "version_unsupported"],
  ])("answers %s with -32001 and HTTP %s", async (_, file, status, code) => {
    const reply = await callTool("search_catalog", search, `${PROFILES}/${file}`);
    expect(reply.status).toBe(status);
    expect(reply.body.error).toMatchObject({ code: -32001, data: { code, continue_url: "https://shop.example.com" } });
  });

  it("names both versions when the protocol version is unsupported", async () => {
    const reply = await callTool("search_catalog", search, `${PROFILES}/old-version.json`);
    expect(reply.body.error.message).toBe("Protocol version not supported");
    expect(reply.body.error.data.content).toContain("2026-01-11");
    expect(reply.body.error.data.content).toContain("2026-04-08");
  });

  it("times out a slow profile as unreachable", async () => {
    const reply = await callTool("search_catalog", search, `${PROFILES}/slow.json`);
    expect(reply.status).toBe(424);
    expect(reply.body.error.data.content).toMatch(/timed out/);
  }, 10_000);

  it("caches a profile: many calls, one fetch", async () => {
    const url = `${PROFILES}/counted.json`;
    for (let i = 0; i < 5; i++) expect((await callTool("search_catalog", search, url)).status).toBe(200);
    expect(await hits(url)).toBe(1);
  });

  it("caches failures briefly, so a bad URL cannot make it fetch in a loop", async () => {
    const url = `${PROFILES}/server-error.json?loop`;
    for (let i = 0; i < 5; i++) expect((await callTool("search_catalog", search, url)).status).toBe(424);
    expect(await hits(url)).toBe(1);
  });

  it("checks cheap things before fetching: invalid arguments cost no profile fetch", async () => {
    const url = `${PROFILES}/unique-args.json`;
    const reply = await callTool("search_catalog", { catalog: { query: 5 } }, url);
    expect(reply.body.error.code).toBe(-32602);
    expect(await hits(url)).toBe(0);
  });
});

describe("capability intersection", () => {
  it("answers with only the capability relevant to the tool", async () => {
    const reply = await callTool("search_catalog", search);
    expect(reply.body.result.structuredContent.ucp).toEqual({
      version: "2026-04-08",
      status: "success",
      capabilities: { "dev.ucp.shopping.catalog.search": [{ version: "2026-04-08" }] },
    });
  });

  it("returns capabilities_incompatible as a result when the tool's capability is not shared", async () => {
    const reply = await callTool("get_product", { catalog: { id: "prod_abc123" } }, `${PROFILES}/search-only.json`);
    expect(reply.status).toBe(200);
    const payload = reply.body.result.structuredContent;
    expect(payload).toEqual({
      ucp: { version: "2026-04-08", status: "error", capabilities: {} },
      messages: [
        {
          type: "error",
          code: "capabilities_incompatible",
          content: "No mutually supported version of dev.ucp.shopping.catalog.lookup",
          severity: "unrecoverable",
        },
      ],
      continue_url: "https://shop.example.com",
    });
    // the same platform may still search
    expect((await callTool("search_catalog", search, `${PROFILES}/search-only.json`)).body.result).toBeDefined();
  });

  it("excludes a capability whose versions do not overlap", async () => {
    const reply = await callTool("search_catalog", search, `${PROFILES}/old-caps.json`);
    expect(reply.body.result.structuredContent.messages[0].code).toBe("capabilities_incompatible");
  });

  it("picks the mutual version among several", async () => {
    const reply = await callTool("search_catalog", search, `${PROFILES}/multi-version.json`);
    expect(reply.body.result.structuredContent.ucp.capabilities).toEqual({
      "dev.ucp.shopping.catalog.search": [{ version: "2026-04-08" }],
    });
  });

  it("reads the 2026-01-11 capability array form", async () => {
    const reply = await callTool(
      "lookup_catalog",
      { catalog: { ids: ["prod_abc123"] } },
      `${PROFILES}/legacy-array.json`,
    );
    expect(reply.body.result.structuredContent.products).toHaveLength(1);
  });
});

describe("older request shapes (normalized at the edge)", () => {
  it("accepts a direct JSON-RPC method named after the tool, answering with the payload itself", async () => {
    const reply = await rpc("search_catalog", {
      _meta: { ucp: { profile: `${PROFILES}/full.json` } },
      catalog: { query: "jacket" },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.result.ucp.version).toBe("2026-04-08");
    expect(reply.body.result.products.length).toBeGreaterThan(0);
    expect(reply.body.result.structuredContent).toBeUndefined();
  });

  it("accepts params._meta on tools/call and the UCP-Agent header", async () => {
    const viaMeta = await rpc("tools/call", {
      name: "search_catalog",
      _meta: { ucp: { profile: `${PROFILES}/full.json` } },
      arguments: search,
    });
    expect(viaMeta.body.result.structuredContent.products.length).toBeGreaterThan(0);
    const viaHeader = await post(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_catalog", arguments: search } },
      { "ucp-agent": `profile="${PROFILES}/full.json"` },
    );
    expect(viaHeader.body.result.structuredContent.products.length).toBeGreaterThan(0);
  });

  it("prefers meta[ucp-agent] over older carriers", async () => {
    const reply = await rpc("tools/call", {
      name: "search_catalog",
      arguments: {
        meta: meta(`${PROFILES}/old-version.json`),
        _meta: { ucp: { profile: `${PROFILES}/full.json` } },
        ...search,
      },
    });
    expect(reply.body.error.data.code).toBe("version_unsupported");
  });

  it("ignores a stray idempotency_key on read-only tools but rejects a malformed one", async () => {
    const ok = await rpc("search_catalog", {
      _meta: { ucp: { profile: `${PROFILES}/full.json` } },
      idempotency_key: "k-1",
      ...search,
    });
    expect(ok.body.result.products).toBeDefined();
    const bad = await rpc("search_catalog", {
      _meta: { ucp: { profile: `${PROFILES}/full.json` } },
      idempotency_key: 12,
      ...search,
    });
    expect(bad.body.error.code).toBe(-32602);
  });
});
