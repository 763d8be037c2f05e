import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { resetCatalogCache } from "../../src/catalog/kv-catalog";
import { KV_KEYS } from "../../src/catalog/kv-layout";
import { callTool, meta, rpc } from "../helpers/mcp";

describe("tools/call params", () => {
  it.each([
    ["an unknown tool", { name: "drop_tables", arguments: { meta: meta() } }, /Unknown tool/],
    ["a missing name", { arguments: { meta: meta() } }, /name/],
    ["a numeric name", { name: 7 }, /name/],
    ["array arguments", { name: "search_catalog", arguments: [1, 2] }, /arguments/],
    ["string arguments", { name: "search_catalog", arguments: "query=shoes" }, /arguments/],
  ])("refuses %s with -32602", async (_, params, message) => {
    const reply = await rpc("tools/call", params);
    expect(reply.body.error.code).toBe(-32602);
    expect(reply.body.error.message).toMatch(message);
    expect(reply.body.result).toBeUndefined();
  });

  it("refuses a missing catalog argument with a JSONPath to it", async () => {
    const reply = await callTool("get_product", {});
    expect(reply.body.error.code).toBe(-32602);
    expect(reply.body.error.data.issues[0].path).toBe("$.catalog");
  });
});

describe("unexpected failures", () => {
  it("answer -32603 with HTTP 500 and nothing internal on the wire", async () => {
    // A corrupted search index: the one state a request cannot cause by itself.
    await env.CATALOG.put(KV_KEYS.index, "{ this is not json");
    await env.CATALOG.put(
      KV_KEYS.manifest,
      JSON.stringify({ version: "broken", currency: "USD", products: 1, loaded_at: "" }),
    );
    resetCatalogCache();
    const reply = await callTool("search_catalog", { catalog: { query: "shoe" } });
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual({
      jsonrpc: "2.0",
      id: expect.any(Number),
      error: { code: -32603, message: "Internal error" },
    });
  });
});
