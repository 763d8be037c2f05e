/** The route table and what every page shares: HTML 404s, security headers, hand-off links that do not open. */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readyCheckout } from "../helpers/checkout";

const ORIGIN = "https://shop.example.com";
const get = (path: string, init: RequestInit = {}) =>
  exports.default.fetch(`${ORIGIN}${path}`, { redirect: "manual", ...init });

function expectPageHeaders(res: Response) {
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  const csp = res.headers.get("content-security-policy") ?? "";
  expect(csp).toContain("default-src 'none'");
  expect(csp).toMatch(/style-src 'nonce-[A-Za-z0-9_-]{16,}'/);
  expect(csp).toContain("form-action 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
}

describe("buyer paths", () => {
  it("an unknown page is an HTML 404 with the store's shell, its style allowed only by the response's nonce", async () => {
    const res = await get("/no/such/page");
    expect(res.status).toBe(404);
    expectPageHeaders(res);
    const body = await res.text();
    expect(body).toContain("Page not found");
    const nonce = /style-src 'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
    expect(body).toContain(`<style nonce="${nonce}">`);
    // Each response gets its own nonce.
    const again = await get("/no/such/page");
    expect(again.headers.get("content-security-policy")).not.toBe(res.headers.get("content-security-policy"));
  });

  it("HEAD answers like GET, without a body", async () => {
    const res = await get("/no/such/page", { method: "HEAD" });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toBe("");
  });

  it("a page path used with the wrong method is 405 naming what is allowed", async () => {
    const res = await get("/orders/abc", { method: "PUT" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
  });

  it("a tampered or foreign hand-off token opens nothing, and says so without any session data", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    const token = new URL(checkout.continue_url).pathname.split("/").pop() as string;
    const flipped = token.slice(0, 10) + (token[10] === "A" ? "B" : "A") + token.slice(11);
    for (const path of [`/checkout/${flipped}`, `/checkout/${token}x`, "/checkout/not-a-token", `/orders/${token}`]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expectPageHeaders(res);
      expect(res.headers.get("cache-control"), path).toBe("no-store");
      const body = await res.text();
      expect(body, path).toContain("This link is not valid");
      expect(body, path).not.toContain("jane@example.com");
      expect(body, path).not.toContain(checkout.id);
    }
  });

  it("links of the first design (/continue/<token>) redirect to the page for the token's kind", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }]);
    expect(checkout.continue_url).toMatch(/^https:\/\/shop\.example\.com\/checkout\/[A-Za-z0-9_-]+$/);
    const token = new URL(checkout.continue_url).pathname.split("/").pop() as string;
    const res = await get(`/continue/${token}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/checkout/${token}`);
    const wrong = await get(`/order/${token}`);
    expect(wrong.status).toBe(404);
  });
});

describe("API paths keep JSON", () => {
  it("GET on the MCP endpoint is a JSON-RPC 405", async () => {
    const res = await get("/ucp/mcp");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST, OPTIONS");
    expect(res.headers.get("content-type")).toBe("application/json");
  });
});
