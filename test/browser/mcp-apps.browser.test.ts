/**
 * MCP Apps beside the chat (issue 25 item 5), as a chat host shows them: a host page on its own
 * origin (http://localhost:9, fulfilled by the test) built with the ext-apps SDK's AppBridge (mcp-apps-host/host.ts,
 * bundled with esbuild here) and the MCP SDK client on the real local server. The model's
 * search_catalog and get_cart results render in the store's views, read with resources/read;
 * from there the buyer adds to cart and checks out (create_cart, create_checkout: asked of the
 * host, which adds its meta), and paying sends ui/open-link with the checkout's continue_url.
 * axe runs inside each view's frame; screenshots go to docs/screenshots (UCP_SCREENSHOTS=1).
 * A German store (MERCHANT_LOCALE=de-DE, prices including VAT) renders the same views in German.
 */
import path from "node:path";
import { build } from "esbuild";
import type { Frame, Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { startServer } from "../e2e/server";
import { AGENT_PROFILE, issueApiKey, type Json } from "./agent";
import { describeBrowser, expectNoSeriousAxeViolations, screenshot, useHarness } from "./harness";

/** Another origin than the server's (127.0.0.1), answered by the test itself. */
const HOST_ORIGIN = "http://localhost:9";
const HOST_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Chat host (test)</title>
<style>body{font-family:system-ui,sans-serif;margin:0;background:#f4f4f5}main{max-width:48rem;margin:0 auto;padding:1rem}
.bubble{background:#fff;border-radius:.75rem;padding:.75rem 1rem;margin:0 0 .75rem}
iframe{width:100%;border:1px solid #d4d4d8;border-radius:.75rem;background:#fff;height:24rem}</style></head>
<body><main><h1>Chat</h1><p class="bubble">Assistant: here is what the store shows.</p><div id="views"></div></main>
<script src="/host.js"></script></body></html>`;

let hostScript = "";

beforeAll(async () => {
  const bundled = await build({
    entryPoints: [path.join(import.meta.dirname, "mcp-apps-host/host.ts")],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  hostScript = bundled.outputFiles[0]?.text ?? "";
});

describeBrowser("MCP Apps views in a host built with the ext-apps AppBridge", () => {
  const h = useHarness();

  async function openHost(phone = false, server = h.baseUrl): Promise<Page> {
    const context = phone ? await h.phone() : await h.desktop();
    // Another store than the harness's (the German one): let the host reach it too.
    if (server !== h.baseUrl) await context.route(`${server}/**`, (route) => route.continue());
    // Registered after the harness's off-origin block, so it wins for the host's own origin.
    await context.route(`${HOST_ORIGIN}/**`, (route) => {
      const isScript = new URL(route.request().url()).pathname === "/host.js";
      return route.fulfill({
        status: 200,
        contentType: isScript ? "text/javascript" : "text/html",
        body: isScript ? hostScript : HOST_PAGE,
      });
    });
    // Chromium's Local Network Access asks before a page calls a loopback address; a host the
    // buyer uses has been granted it (or calls a public store).
    await context.grantPermissions(["local-network-access"], { origin: HOST_ORIGIN });
    const page = await context.newPage();
    await page.goto(`${HOST_ORIGIN}/`);
    const apiKey = await issueApiKey(server);
    await page.evaluate(([url, key, profile]) => (globalThis as Json).mcpHost.connect(url, key, profile), [
      server,
      apiKey,
      AGENT_PROFILE,
    ] as const);
    return page;
  }

  /** The model's call, rendered in its view; resolves once the view shows `heading`. */
  async function show(page: Page, tool: string, args: Json, heading: string): Promise<{ view: Frame; result: Json }> {
    const shown = await page.evaluate(([name, a]) => (globalThis as Json).mcpHost.show(name, a), [tool, args] as const);
    const handle = await page.waitForSelector("iframe#view");
    const view = await handle.contentFrame();
    if (!view) throw new Error("no view frame");
    await view.getByRole("heading", { level: 1, name: heading }).waitFor();
    return { view, result: shown.result.structuredContent };
  }

  const hostLog = (page: Page): Promise<Json> => page.evaluate(() => (globalThis as Json).mcpHost.log);

  it("renders search results, adds to cart, checks out, and pays by opening continue_url", async () => {
    const page = await openHost();
    const { view, result } = await show(page, "search_catalog", { catalog: { query: "jacket" } }, "Search results");
    expect(result.products.length).toBeGreaterThan(0);
    const titles = await view.locator(".card h2").allTextContents();
    expect(titles).toEqual(result.products.map((p: Json) => p.title));
    await expectNoSeriousAxeViolations(view);
    expect((await hostLog(page)).initialized).toBe(1);
    await screenshot(page, "mcp-apps-search");

    const first = result.products.find((p: Json) => p.variants[0].availability?.available !== false);
    await view.getByRole("button", { name: `Add to cart – ${first.title}` }).click();
    await view.getByRole("heading", { level: 1, name: "Your cart" }).waitFor();
    const cart = (await hostLog(page)).viewCalls[0].result.structuredContent;
    expect(await view.locator("table.lines tbody th").allTextContents()).toEqual([cart.line_items[0].item.title]);
    await expectNoSeriousAxeViolations(view);

    await view.getByRole("button", { name: "Check out" }).click();
    await view.getByRole("heading", { level: 1, name: "Checkout summary" }).waitFor();
    await view.getByRole("link", { name: "Continue to payment" }).click();
    await expect.poll(async () => (await hostLog(page)).openedLinks.length).toBe(1);

    const log = await hostLog(page);
    expect(log.viewCalls.map((c: Json) => c.name)).toEqual(["create_cart", "create_checkout"]);
    for (const c of log.viewCalls) {
      expect(c.refused).toBeUndefined();
      expect(c.arguments.meta["ucp-agent"].profile).toBe(AGENT_PROFILE);
      expect(c.arguments.meta["idempotency-key"]).toEqual(expect.any(String));
    }
    const [cartCall, checkoutCall] = log.viewCalls;
    expect(cartCall.arguments.cart.line_items).toEqual([{ item: { id: first.variants[0].id }, quantity: 1 }]);
    expect(checkoutCall.arguments.checkout).toEqual({ cart_id: cartCall.result.structuredContent.id });
    const checkout = checkoutCall.result.structuredContent;
    expect(checkout.ucp.status).toBe("success");
    expect(log.openedLinks).toEqual([checkout.continue_url]);
  });

  it("renders the model's cart in the cart view and hands off to the checkout's continue_url", async () => {
    for (const phone of [false, true]) {
      const page = await openHost(phone);
      const found: Json[] = [];
      for (const query of ["shoe", "jacket"]) {
        const search: Json = await page.evaluate(
          (q) => (globalThis as Json).mcpHost.call("search_catalog", { catalog: { query: q } }),
          query,
        );
        found.push(search.structuredContent.products[0].variants[0]);
      }
      const variants = found.filter((v) => v.availability?.available !== false);
      expect(variants.length).toBe(2);
      const created: Json = await page.evaluate(
        (lines) => (globalThis as Json).mcpHost.call("create_cart", { cart: { line_items: lines } }),
        variants.map((v: Json, i: number) => ({ item: { id: v.id }, quantity: i + 1 })),
      );
      const cartId = created.structuredContent.id;
      const { view, result } = await show(page, "get_cart", { id: cartId }, "Your cart");
      expect(result.line_items).toHaveLength(variants.length);
      const rows = await view.locator("table.lines tbody tr").count();
      expect(rows).toBe(variants.length);
      const total = result.totals.find((t: Json) => t.type === "total").amount;
      const shownTotal = await view.locator(".totals .grand dd").textContent();
      const format = new Intl.NumberFormat("en-US", { style: "currency", currency: result.currency });
      expect(shownTotal).toBe(format.format(total / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2)));
      await expectNoSeriousAxeViolations(view);
      await screenshot(page, "mcp-apps-cart");

      await view.getByRole("button", { name: "Check out" }).click();
      await view.getByRole("heading", { level: 1, name: "Checkout summary" }).waitFor();
      await expectNoSeriousAxeViolations(view);
      await screenshot(page, "mcp-apps-checkout");
      // No view collects payment data: the summary has no form fields at all.
      expect(await view.locator("input, textarea, select, form").count()).toBe(0);
      await view.getByRole("link", { name: "Continue to payment" }).click();
      await expect.poll(async () => (await hostLog(page)).openedLinks.length).toBe(1);
      const log = await hostLog(page);
      const checkout = log.viewCalls.find((c: Json) => c.name === "create_checkout").result.structuredContent;
      expect(log.openedLinks).toEqual([checkout.continue_url]);
      expect(log.viewCalls.map((c: Json) => c.name)).toEqual(["create_checkout"]);
      expect(log.sizes.length).toBeGreaterThan(0);
      await page.context().close();
    }
  });

  it("a German store's views speak German: counts, buttons, totals and the VAT its prices include", async () => {
    const tax = { prices_include_tax: true, rates: [{ country: "DE", rate_bps: 1900, label: "VAT (19%)" }] };
    const german = await startServer({ vars: { MERCHANT_LOCALE: "de-DE", TAX: JSON.stringify(tax) } });
    try {
      const page = await openHost(false, german.baseUrl);
      const { view, result } = await show(page, "search_catalog", { catalog: { query: "jacket" } }, "Suchergebnisse");
      expect(await view.locator("html").getAttribute("lang")).toBe("de");
      const count = result.pagination?.total_count ?? result.products.length;
      const words = count === 1 ? "1 Produkt" : `${new Intl.NumberFormat("de-DE").format(count)} Produkte`;
      expect(await view.getByText(words, { exact: true }).count()).toBe(1);
      const first = result.products.find((p: Json) => p.variants[0].availability?.available !== false);
      expect(await view.getByRole("button", { name: `In den Warenkorb – ${first.title}` }).count()).toBe(1);
      await expectNoSeriousAxeViolations(view);

      // The model's checkout with a Berlin address: the summary's totals in German, VAT included.
      const created: Json = await page.evaluate(
        (variant) =>
          (globalThis as Json).mcpHost.call("create_checkout", {
            checkout: {
              line_items: [{ item: { id: variant }, quantity: 1 }],
              buyer: { email: "kaeufer@example.com" },
              fulfillment: {
                methods: [
                  {
                    type: "shipping",
                    destinations: [
                      {
                        street_address: "Unter den Linden 1",
                        address_locality: "Berlin",
                        postal_code: "10117",
                        address_country: "DE",
                      },
                    ],
                  },
                ],
              },
            },
          }),
        first.variants[0].id,
      );
      const checkoutId = created.structuredContent.id;
      const shown = await show(page, "get_checkout", { id: checkoutId }, "Bestellübersicht");
      const labels = await shown.view.locator(".totals dt").allTextContents();
      expect(labels[0]).toBe("Zwischensumme");
      expect(labels).toContain("Gesamt");
      const total = shown.result.totals.find((t: Json) => t.type === "total");
      const included = (total.lines ?? []).filter((l: Json) => l.type === "tax");
      expect(included.length).toBeGreaterThan(0);
      expect(labels).toContain("inkl. VAT (19%)");
      expect(await shown.view.getByRole("link", { name: "Weiter zur Zahlung" }).count()).toBe(1);
      // The test-mode note in the store's words, as on its pages.
      expect(await shown.view.locator(".messages").innerText()).toContain("Dieser Shop ist im Testmodus");
      await expectNoSeriousAxeViolations(shown.view);
      await screenshot(page, "mcp-apps-checkout-german");
      await page.context().close();
    } finally {
      await german.stop();
    }
  });
});
