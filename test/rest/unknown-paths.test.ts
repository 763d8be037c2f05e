/**
 * Issue 27 item 6: every 404 under /ucp/ (REST's own prefix) is the binding's error body,
 * `{code, content}` (checkout-rest.md "Error Responses"), never the route table's older
 * `{error, message}`. Pages elsewhere keep their HTML 404.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

const ORIGIN = "https://shop.example.com";

describe("unknown /ucp/ paths", { timeout: 30_000 }, () => {
  it("answer 404 {code: not_found, content} for any method, with the REST CORS headers", async () => {
    for (const [method, path] of [
      ["GET", "/ucp"],
      ["GET", "/ucp/"],
      ["GET", "/ucp/nothing-here"],
      ["POST", "/ucp/checkout-sessions/chk_x/pay"],
      ["GET", "/ucp/mcp/extra"],
      ["DELETE", "/ucp/no/such/route"],
    ] as const) {
      const res = await exports.default.fetch(`${ORIGIN}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      const body = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort(), `${method} ${path}`).toEqual(["code", "content"]);
      expect(body.code).toBe("not_found");
      expect(body.content).toContain(path);
    }
  });

  it("a page path still gets the HTML 404", async () => {
    const res = await exports.default.fetch(`${ORIGIN}/no-such-page`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  });
});
