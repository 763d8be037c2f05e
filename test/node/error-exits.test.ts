/**
 * Issue 27 item 5: one error exit per surface, held in the source. The admin API's errors go
 * through src/admin/api-error.ts, the REST binding's through its reply builders (handler.ts
 * and cors.ts make the only Responses), and JSON-RPC errors through src/mcp/jsonrpc.ts's
 * errorBody. (Pages answer through messagePage/plainPage, the console through consoleMessage.)
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

function sources(tree: string): Array<readonly [string, string]> {
  return readdirSync(path.join(ROOT, tree), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => {
      const file = path.posix.join(tree, f.split(path.sep).join("/"));
      return [file, readFileSync(path.join(ROOT, file), "utf8")] as const;
    });
}

describe("one error exit per surface", () => {
  it("admin API: no error body is built outside api-error.ts", () => {
    const elsewhere = sources("src/admin")
      .filter(([file]) => file !== "src/admin/api-error.ts")
      .filter(([, text]) => /jsonResponse\(\s*\{\s*error\b/.test(text) || /jsonResponse\(\s*refused\b/.test(text));
    expect(elsewhere.map(([file]) => file)).toEqual([]);
  });

  it("REST: only handler.ts and cors.ts make Responses", () => {
    const makers = sources("src/rest")
      .filter(([, text]) => text.includes("new Response("))
      .map(([file]) => file);
    expect(makers.sort()).toEqual(["src/rest/cors.ts", "src/rest/handler.ts"]);
  });

  it("MCP: JSON-RPC error objects are built only by jsonrpc.ts", () => {
    const server = [
      ...sources("src/mcp"),
      ["src/router.ts", readFileSync(path.join(ROOT, "src/router.ts"), "utf8")] as const,
    ]
      // Views' own scripts (strings sent to a browser) speak JSON-RPC to their host, not to agents.
      .filter(([file]) => file !== "src/mcp/jsonrpc.ts" && !file.endsWith("-script.ts"));
    const literal = server
      .filter(([, text]) => /jsonrpc: "2\.0",[\s\S]{0,80}error: \{/.test(text))
      .map(([file]) => file);
    expect(literal).toEqual([]);
  });
});
