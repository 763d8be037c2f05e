/**
 * Trust tiers: anonymous agents browse, build carts and checkouts up to hand-off; the tools
 * the merchant closed (default: complete_checkout, get_order) need an authenticated platform.
 */

import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ANONYMOUS } from "../../src/auth/authenticate";
import { parseTrustConfig } from "../../src/auth/trust-config";
import { merchantConfig } from "../../src/config";
import { normalizeCall } from "../../src/mcp/normalize";
import { callTool } from "../../src/pipeline/tool-call";
import { TOOLS } from "../../src/tools";
import { pay, readyCheckout, tool } from "../helpers/checkout";
import { FULL_PROFILE, meta, post } from "../helpers/mcp";

function anonymousCall(name: string, args: Record<string, unknown>) {
  return post(
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: { meta: meta(FULL_PROFILE, { "idempotency-key": crypto.randomUUID() }), ...args } },
    },
    {},
    { anonymous: true },
  );
}

describe("trust tiers", () => {
  it("an anonymous agent is refused complete_checkout, with the hand-off URL", async () => {
    const checkout = await readyCheckout([{ id: "item_456", quantity: 1 }]);
    const reply = await anonymousCall("complete_checkout", { id: checkout.id, checkout: pay("success_token") });
    expect(reply.status).toBe(401);
    expect(reply.headers.get("ucp-trust-tier")).toBe("anonymous");
    expect(reply.headers.has("www-authenticate"), "no OAuth challenge: this server offers no OAuth").toBe(false);
    expect(reply.body.error).toMatchObject({
      code: -32000,
      message: "Unauthorized",
      data: {
        code: "authentication_required",
        tier: "anonymous",
        required_tier: "authenticated",
        // The store's origin: the session's own hand-off URL goes only to its owner.
        continue_url: "https://shop.example.com",
      },
    });
    expect(reply.body.error.data.content).toMatch(/complete_checkout needs an authenticated platform/);
    // The checkout is untouched and still ready for a human (or an authenticated platform).
    const after = await tool("get_checkout", { id: checkout.id });
    expect(after.body.result.structuredContent.status).toBe("ready_for_complete");
  });

  it("the same checkout completes for an authenticated (signing) platform", async () => {
    const checkout = await readyCheckout([{ id: "item_456", quantity: 1 }]);
    const reply = await tool(
      "complete_checkout",
      { id: checkout.id, checkout: pay("success_token") },
      crypto.randomUUID(),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.headers.get("ucp-trust-tier")).toBe("authenticated");
    expect(reply.body.result.structuredContent.status).toBe("completed");
  });

  it("get_order is refused to anonymous agents", async () => {
    const reply = await anonymousCall("get_order", { id: "ord_whatever" });
    expect(reply.status).toBe(401);
    expect(reply.body.error.data).toMatchObject({ code: "authentication_required", tier: "anonymous" });
  });

  it("anonymous agents browse, build carts and checkouts", async () => {
    const search = await anonymousCall("search_catalog", { catalog: { query: "shirt" } });
    expect(search.status).toBe(200);
    const cart = await anonymousCall("create_cart", {
      cart: { line_items: [{ item: { id: "item_456" }, quantity: 1 }] },
    });
    expect(cart.body.result.structuredContent.ucp.status).toBe("success");
    const checkout = await anonymousCall("create_checkout", {
      checkout: { line_items: [{ item: { id: "item_456" }, quantity: 1 }] },
    });
    expect(checkout.body.result.structuredContent.continue_url).toMatch(/^https:\/\/shop\.example\.com\/checkout\//);
  });

  it("a merchant can open a tool to anonymous agents (TRUST.authenticated_tools)", async () => {
    const open = parseTrustConfig({ authenticated_tools: ["get_order"] });
    const closed = parseTrustConfig({});
    const scope = (trust: typeof open) => ({
      env,
      config: merchantConfig(env),
      trust,
      principal: ANONYMOUS,
      headers: new Headers(),
      now: Date.now(),
    });
    const checkout = await readyCheckout([{ id: "item_456", quantity: 1 }]);
    const args = {
      meta: meta(FULL_PROFILE, { "idempotency-key": crypto.randomUUID() }),
      id: checkout.id,
      checkout: pay("success_token"),
    };
    const completeTool = TOOLS.get("complete_checkout");
    if (!completeTool) throw new Error("complete_checkout is not registered");
    const refused = await callTool(completeTool, normalizeCall(args, undefined, new Headers()), scope(closed));
    expect(refused.ok).toBe(false);
    const allowed = await callTool(completeTool, normalizeCall(args, undefined, new Headers()), scope(open));
    expect(allowed.ok).toBe(true);
    expect(JSON.parse(JSON.stringify(allowed.ok && allowed.value)).status ?? "").toBeDefined();
  });

  it("a TRUST setting that does not parse fails loudly instead of opening anything", () => {
    expect(() => parseTrustConfig({ authenticated_tools: "complete_checkout" })).toThrow(/TRUST/);
    expect(() => parseTrustConfig({ authenticated_tool: ["complete_checkout"] })).toThrow(/TRUST/);
    expect(() => parseTrustConfig({ rate_limit_period_seconds: 30 })).toThrow(/TRUST/);
    expect([...parseTrustConfig(undefined).authenticatedTools].sort()).toEqual(["complete_checkout", "get_order"]);
  });
});
