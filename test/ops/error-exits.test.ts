/**
 * Issue 27 item 5: one error exit per surface. A throw nothing below caught (src/index.ts)
 * is answered in its surface's own form: JSON-RPC on the MCP endpoint, REST's `{code,
 * content}` under /ucp, a page where a person reads, the admin API's `{error, message}`.
 * The MCP endpoint's 405 is a JSON-RPC error built by the binding's own errorBody.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { unhandledAnswer } from "../../src/router";

const ORIGIN = "https://shop.example.com";
const answer = (path: string) => unhandledAnswer(new Request(`${ORIGIN}${path}`), env);

describe("the last exit answers in each surface's form", () => {
  it("MCP: a JSON-RPC internal error", async () => {
    const res = answer("/ucp/mcp");
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32603, message: "Internal error" } });
  });

  it("REST: {code, content} with the binding's CORS", async () => {
    const res = answer("/ucp/checkout-sessions/chk_x");
    expect(res.status).toBe(500);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await res.json()).toEqual({ code: "internal_error", content: "Internal error" });
  });

  it("the admin API: {error, message}; a page: HTML", async () => {
    const admin = answer("/admin/orders");
    expect(await admin.json()).toEqual({ error: "internal_error", message: "Internal error" });
    const page = answer("/products/x");
    expect(page.status).toBe(500);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await page.text()).toContain("<h1>");
  });

  it("the MCP endpoint's 405 is the binding's JSON-RPC error", async () => {
    const res = await exports.default.fetch(`${ORIGIN}/ucp/mcp`);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST, OPTIONS");
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Method GET not allowed; POST JSON-RPC here" },
    });
  });
});
