/**
 * MCP Apps (issue 25 item 5): tools declare their views with `_meta.ui.resourceUri`, the
 * Platform-UI-only tools are model-only, and resources/list + resources/read serve the `ui://`
 * templates (text/html;profile=mcp-app) in both MCP eras. The views read only fields both UCP
 * versions answer with; the last test holds the two versions to that.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { buildConfig, type MerchantVars } from "../../src/config";
import { viewHtml } from "../../src/mcp/apps/view-html";
import type { Json } from "../helpers/checkout";
import { callTool, meta, PROFILES, post, rpc } from "../helpers/mcp";

const MIME = "text/html;profile=mcp-app";
const VIEWS = [
  "ui://ucp-worker/search-results",
  "ui://ucp-worker/product",
  "ui://ucp-worker/cart",
  "ui://ucp-worker/checkout",
];
const MODEL_ONLY = ["complete_checkout", "cancel_checkout", "cancel_cart"];
const CURRENT_PROFILE = `${PROFILES}/v2026-08-25/full.json`;

async function listed(): Promise<Json[]> {
  const reply = await rpc("tools/list");
  expect(reply.status).toBe(200);
  return reply.body.result.tools;
}

describe("tools/list", () => {
  it("declares a view on the catalog, cart and checkout tools and leaves names and schemas alone", async () => {
    const tools = await listed();
    const uri = (name: string) => tools.find((t) => t.name === name)?._meta?.ui?.resourceUri;
    expect(uri("search_catalog")).toBe(VIEWS[0]);
    expect(uri("lookup_catalog")).toBe(VIEWS[0]);
    expect(uri("get_product")).toBe(VIEWS[1]);
    for (const name of ["create_cart", "get_cart", "update_cart"]) expect(uri(name), name).toBe(VIEWS[2]);
    for (const name of ["create_checkout", "get_checkout", "update_checkout", "complete_checkout"]) {
      expect(uri(name), name).toBe(VIEWS[3]);
    }
    expect(tools.find((t) => t.name === "get_order")._meta).toBeUndefined();
    // Older hosts read the flat key; ext-apps' registerAppTool writes both.
    for (const t of tools.filter((t) => t._meta?.ui?.resourceUri)) {
      expect(t._meta["ui/resourceUri"], t.name).toBe(t._meta.ui.resourceUri);
    }
  });

  it("never lets a view call complete_checkout, cancel_checkout or cancel_cart (visibility model only)", async () => {
    const tools = await listed();
    for (const name of MODEL_ONLY) {
      expect(tools.find((t) => t.name === name)._meta.ui.visibility, name).toEqual(["model"]);
    }
    const others = tools.filter((t) => !MODEL_ONLY.includes(t.name));
    for (const t of others) expect(t._meta?.ui?.visibility, t.name).toBeUndefined();
  });
});

describe("resources", () => {
  it("initialize advertises resources and the io.modelcontextprotocol/ui extension", async () => {
    const reply = await rpc("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [MIME] } } },
      clientInfo: { name: "host", version: "1" },
    });
    expect(reply.body.result.capabilities).toMatchObject({
      tools: { listChanged: false },
      resources: { listChanged: false },
      extensions: { "io.modelcontextprotocol/ui": {} },
    });
  });

  it("resources/list names every view a tool declares, as an MCP App that fetches nothing", async () => {
    const reply = await rpc("resources/list");
    expect(reply.status).toBe(200);
    const resources: Json[] = reply.body.result.resources;
    expect(resources.map((r) => r.uri)).toEqual(VIEWS);
    for (const r of resources) {
      expect(r).toMatchObject({ mimeType: MIME, name: expect.any(String), title: expect.any(String) });
      expect(r._meta.ui.csp.connectDomains).toEqual([]);
      expect(r._meta.ui.csp.resourceDomains).toEqual(["https://shop.example.com"]);
    }
    const declared = new Set((await listed()).map((t) => t._meta?.ui?.resourceUri).filter(Boolean));
    expect([...declared].sort()).toEqual([...VIEWS].sort());
  });

  it("resources/read serves each view as a static HTML template, the same bytes every time", async () => {
    for (const uri of VIEWS) {
      const first = await rpc("resources/read", { uri });
      expect(first.status, uri).toBe(200);
      const [content, ...more] = first.body.result.contents;
      expect(more).toEqual([]);
      expect(content).toMatchObject({ uri, mimeType: MIME });
      expect(content._meta.ui.csp.connectDomains).toEqual([]);
      const html: string = content.text;
      expect(html.startsWith("<!doctype html>")).toBe(true);
      expect(html).toContain('<main id="view"');
      expect(html).toContain("ui/initialize");
      expect(html).not.toMatch(/innerHTML|insertAdjacentHTML|document\.write|eval\(/);
      // No view asks for card data: no inputs at all beyond the product view's variant picker.
      expect(html).not.toMatch(/<input|<form|card number|cvc/i);
      const again = await rpc("resources/read", { uri });
      expect(again.body.result.contents[0].text).toBe(html);
    }
  });

  it("an unknown ui:// resource is -32002 (2025 era) and -32602 (2026-07-28), never a 5xx", async () => {
    const legacy = await rpc("resources/read", { uri: "ui://ucp-worker/nope" });
    expect(legacy.status).toBe(200);
    expect(legacy.body.error).toMatchObject({ code: -32002, data: { uri: "ui://ucp-worker/nope" } });
    const missing = await rpc("resources/read", {});
    expect(missing.body.error.code).toBe(-32602);

    const V = "2026-07-28";
    const modern = (method: string, params: Record<string, unknown>) =>
      post(
        {
          jsonrpc: "2.0",
          id: 1,
          method,
          params: {
            ...params,
            _meta: { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} },
          },
        },
        {
          "mcp-protocol-version": V,
          "mcp-method": method,
          ...(typeof params.uri === "string" ? { "mcp-name": params.uri } : {}),
        },
      );
    const unknown = await modern("resources/read", { uri: "ui://ucp-worker/nope" });
    expect(unknown.body.error.code).toBe(-32602);
    const list = await modern("resources/list", {});
    expect(list.body.result).toMatchObject({ resultType: "complete", ttlMs: 3_600_000, cacheScope: "public" });
    expect(list.body.result.resources).toHaveLength(4);
    const read = await modern("resources/read", { uri: VIEWS[2] });
    expect(read.body.result).toMatchObject({ resultType: "complete", ttlMs: 3_600_000, cacheScope: "public" });
    expect(read.body.result.contents[0].mimeType).toBe(MIME);
  });

  it("writes the store's words into the template as text: a name with markup cannot break out", () => {
    const config = buildConfig({ ...(env as MerchantVars), MERCHANT_NAME: '</title><script>alert(1)</script>"' });
    const html = viewHtml("cart", config);
    expect(html).toContain('<title>Cart · &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;"</title>');
    expect(html).not.toContain("<script>alert(1)");
    // The settings are JSON in their own element, read by the script with JSON.parse.
    const start = html.indexOf('id="ucp-view-config">') + 'id="ucp-view-config">'.length;
    const settings = JSON.parse(html.slice(start, html.indexOf("</script>", start)));
    expect(settings).toMatchObject({ kind: "cart", locale: config.storefront.locale });
  });
});

describe("the fields the views read, at 2026-04-08 and 2026-08-25", () => {
  it("search, cart and checkout answer them at both versions", async () => {
    for (const profile of [`${PROFILES}/full.json`, CURRENT_PROFILE]) {
      const search = (await callTool("search_catalog", { catalog: { query: "shoes" } }, profile)).body.result
        .structuredContent;
      const product = search.products[0];
      expect(product, profile).toMatchObject({
        title: expect.any(String),
        price_range: { min: { amount: expect.any(Number) } },
      });
      const variant = product.variants[0];
      expect(variant.price, profile).toMatchObject({ amount: expect.any(Number), currency: expect.any(String) });

      const cartReply = await rpc("tools/call", {
        name: "create_cart",
        arguments: { meta: meta(profile), cart: { line_items: [{ item: { id: variant.id }, quantity: 2 }] } },
      });
      const cart = cartReply.body.result.structuredContent;
      expect(cart.ucp.status, profile).toBe("success");
      expect(cart).toMatchObject({
        id: expect.any(String),
        currency: expect.any(String),
        continue_url: expect.any(String),
      });
      expect(cart.line_items[0]).toMatchObject({ item: { title: expect.any(String) }, quantity: 2 });
      expect(cart.line_items[0].totals.some((t: Json) => t.type === "total")).toBe(true);
      expect(cart.totals.map((t: Json) => t.type)).toEqual(expect.arrayContaining(["subtotal", "total"]));

      const checkout = (
        await rpc("tools/call", {
          name: "create_checkout",
          arguments: { meta: meta(profile), checkout: { cart_id: cart.id } },
        })
      ).body.result.structuredContent;
      expect(checkout.ucp.status, profile).toBe("success");
      expect(checkout).toMatchObject({
        status: expect.any(String),
        currency: cart.currency,
        continue_url: expect.stringMatching(/^https:\/\/shop\.example\.com\//),
      });
      expect(checkout.line_items[0].item.title).toBe(cart.line_items[0].item.title);
    }
  });
});
