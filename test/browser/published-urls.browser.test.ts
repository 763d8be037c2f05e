/**
 * The sweep (issue 11): every URL the store publishes, found the way an agent finds them
 * (discovery, then the MCP tools as an authenticated platform), opened in Chromium on a
 * desktop and a phone. Each answers 200 with a page or document that names what it is,
 * with no serious or critical axe violation and, on the phone, no sideways scrolling; a
 * tampered, expired or wrong-kind hand-off token shows nothing of its session and is not
 * 200; unknown paths are 404s (HTML for buyer paths, JSON for /ucp and /admin).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sealHandoff } from "../../src/lib/handoff-token";
import { ROOT } from "../e2e/server";
import type { Agent, Json } from "./agent";
import { describeBrowser, expectNoSeriousAxeViolations, screenshot, useHarness } from "./harness";
import { allProducts, BUYER_EMAIL, createCart, placeOrder, readyCheckout } from "./sessions";

/** What the local server is configured with (`npm start` reads the same files). */
const MERCHANT_NAME = /^MERCHANT_NAME = "(.+)"$/m.exec(readFileSync(path.join(ROOT, "wrangler.toml"), "utf8"))?.[1];
const ID_SIGNING_KEY = /^ID_SIGNING_KEY = "(.+)"$/m.exec(readFileSync(path.join(ROOT, ".dev.vars"), "utf8"))?.[1];

interface PageCheck {
  /** What the <h1> or <title> must name. */
  readonly names: string | RegExp;
  /** Texts the page must show (item titles, the buyer's email, the order id). */
  readonly shows?: readonly string[];
  /** docs/screenshots/<shot>-desktop.png / -phone.png (UCP_SCREENSHOTS=1). */
  readonly shot?: string;
  /** Desktop only, no axe or screenshot: for the long tail of one page pattern. */
  readonly quick?: boolean;
}

describeBrowser("every URL the store publishes", () => {
  const h = useHarness();
  let agent: Agent;
  let desktop: BrowserContext;
  let phone: BrowserContext;
  let discovery: Json;
  let cart: Json;
  let checkout: Json;
  let completed: Json;
  let order: Json;

  beforeAll(async () => {
    agent = await h.agent();
    [desktop, phone] = await Promise.all([h.desktop(), h.phone()]);
    const res = await fetch(`${h.baseUrl}/.well-known/ucp`);
    discovery = await res.json();
    cart = await createCart(agent);
    checkout = await readyCheckout(agent);
    const placed = await readyCheckout(agent);
    completed = await placeOrder(agent, placed);
    order = await agent.call("get_order", { id: completed.order.id });
  });
  afterAll(async () => {
    await Promise.allSettled([desktop?.close(), phone?.close()]);
  });

  async function open(context: BrowserContext, url: string): Promise<{ page: Page; status: number; type: string }> {
    const page = await context.newPage();
    const response = await page.goto(url, { waitUntil: "load" });
    if (!response) throw new Error(`no response for ${url}`);
    return { page, status: response.status(), type: response.headers()["content-type"] ?? "" };
  }

  /** Opens an HTML page on desktop (and phone unless quick) and checks it per `check`. */
  async function expectPage(url: string, check: PageCheck): Promise<void> {
    for (const [context, kind] of check.quick
      ? ([[desktop, "desktop"]] as const)
      : ([
          [desktop, "desktop"],
          [phone, "phone"],
        ] as const)) {
      const { page, status, type } = await open(context, url);
      try {
        expect(status, `${kind} ${url}`).toBe(200);
        expect(type, `${kind} ${url}`).toMatch(/^text\/html\b/);
        const named = [await page.title(), ...(await page.locator("h1").allInnerTexts())];
        expect(
          named.some((text) => (typeof check.names === "string" ? text.includes(check.names) : check.names.test(text))),
          `${kind} ${url}: <title>/<h1> ${JSON.stringify(named)} should name ${check.names}`,
        ).toBe(true);
        // What the buyer sees: the text, and what the form fields hold (a prefilled email).
        const text = await page.evaluate(() =>
          [
            document.body.innerText,
            ...Array.from(document.querySelectorAll("input, textarea, select"), (f) => (f as HTMLInputElement).value),
          ].join("\n"),
        );
        for (const shown of check.shows ?? []) expect(text, `${kind} ${url} shows ${shown}`).toContain(shown);
        if (check.quick) continue;
        if (kind === "phone") {
          // Wider than the phone, a page scrolls sideways (and Chrome zooms out to fit it, so
          // innerWidth grows with it: compare with the screen's own width).
          const screen = page.viewportSize()?.width ?? 0;
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          expect(width, `phone ${url}: page width within the ${screen} px screen`).toBeLessThanOrEqual(screen);
        }
        await expectNoSeriousAxeViolations(page);
        if (check.shot) await screenshot(page, check.shot);
      } finally {
        await page.close();
      }
    }
  }

  /** The control for expectNothingShown: the genuine URL does open (else "nothing shown" proves nothing). */
  async function expectOpens(url: string): Promise<void> {
    const res = await fetch(url);
    await res.body?.cancel();
    expect(res.status, `the genuine ${url}`).toBe(200);
  }

  /** A hand-off URL that must show nothing: not 200, none of the session's details. */
  async function expectNothingShown(url: string, secrets: readonly string[]): Promise<void> {
    const { page, status } = await open(desktop, url);
    try {
      expect(status, url).toBeGreaterThanOrEqual(400);
      expect(status, url).toBeLessThan(500);
      const html = await page.content();
      for (const secret of secrets) expect(html, `${url} must not show ${secret}`).not.toContain(secret);
    } finally {
      await page.close();
    }
  }

  const titles = (resource: Json): string[] => resource.line_items.map((l: Json) => l.item.title);
  const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);
  const withToken = (url: string, token: string) => `${url.slice(0, url.lastIndexOf("/") + 1)}${token}`;
  /** The URL with one character of its token changed (in the middle, never the padding bits). */
  function tampered(url: string): string {
    const token = tokenOf(url);
    const at = Math.floor(token.length / 2);
    return withToken(url, `${token.slice(0, at)}${token[at] === "A" ? "B" : "A"}${token.slice(at + 1)}`);
  }
  function storeUrlsIn(value: unknown, key = ""): string[] {
    // Service endpoints are transports (POST /ucp/mcp), not documents to open.
    if (typeof value === "string") return key !== "endpoint" && value.startsWith(`${h.baseUrl}/`) ? [value] : [];
    if (Array.isArray(value)) return value.flatMap((v) => storeUrlsIn(v, key));
    if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => storeUrlsIn(v, k));
    return [];
  }

  it("discovery: /.well-known/ucp is the store's profile, naming its MCP endpoint", async () => {
    const { page, status, type } = await open(desktop, `${h.baseUrl}/.well-known/ucp`);
    await page.close();
    expect(status).toBe(200);
    expect(type).toMatch(/^application\/json\b/);
    expect(discovery.ucp.version).toBe("2026-08-25");
    expect(discovery.ucp.services["dev.ucp.shopping"][0].endpoint).toBe(`${h.baseUrl}/ucp/mcp`);
  });

  it("discovery: the test payment handler's spec is a page naming the handler", async () => {
    const handler = findHandler(discovery);
    expect(handler?.spec, "the test handler's spec URL").toMatch(new RegExp(`^${h.baseUrl}/`));
    await expectPage(handler.spec, {
      names: /payment/i,
      shows: ["mock_payment_handler"],
      shot: "payment-handler-spec",
    });
  });

  it("discovery: the test payment handler's schema is a JSON Schema document", async () => {
    const handler = findHandler(discovery);
    expect(handler?.schema, "the test handler's schema URL").toMatch(new RegExp(`^${h.baseUrl}/`));
    const { page, status, type } = await open(desktop, handler.schema);
    const body = await page.evaluate(() => document.body.innerText);
    await page.close();
    expect(status).toBe(200);
    expect(type).toMatch(/^application\/(schema\+)?json\b/);
    const schema = JSON.parse(body);
    expect(schema.$schema ?? schema.type, "a JSON Schema").toBeDefined();
  });

  it("discovery: every URL it names on the store's origin answers 200", async () => {
    const urls = [...new Set(storeUrlsIn(discovery))];
    expect(urls.length, "discovery names store URLs").toBeGreaterThan(0);
    for (const url of urls) {
      const res = await fetch(url);
      await res.body?.cancel();
      expect.soft(res.status, url).toBe(200);
    }
  });

  it("/: the store's home page names the store", async () => {
    expect(MERCHANT_NAME).toBeDefined();
    await expectPage(`${h.baseUrl}/`, { names: MERCHANT_NAME ?? "", shot: "home" });
  });

  it("every product url from search_catalog is the product's page", async () => {
    const products = await allProducts(agent);
    expect(products.length).toBeGreaterThan(50);
    for (const product of products) expect(product.url, product.id).toMatch(new RegExp(`^${h.baseUrl}/products/`));
    // The distinct shapes (first, most variants, most options, no media, unavailable) get
    // phone, axe and screenshots; the rest are opened on desktop and checked for their title.
    const most = (score: (p: Json) => number) => products.reduce((a, b) => (score(b) > score(a) ? b : a));
    const sample = new Set<Json>([
      products[0],
      most((p) => p.variants.length),
      most((p) => p.options?.length ?? 0),
      ...products.filter((p) => !(p.media?.length > 0)).slice(0, 1),
      ...products.filter((p) => p.variants.every((v: Json) => v.availability?.available === false)).slice(0, 1),
    ]);
    // Four at a time: one by one, wrangler dev takes over a minute for the 68 demo products.
    for (let i = 0; i < products.length; i += 4) {
      await Promise.all(
        products.slice(i, i + 4).map((product) =>
          expectPage(product.url, {
            names: product.title,
            quick: !sample.has(product),
            shot: product === products[0] ? "product" : undefined,
          }),
        ),
      );
    }
  });

  it("a cart's continue_url shows the cart", async () => {
    await expectPage(cart.continue_url, { names: /cart/i, shows: titles(cart), shot: "cart" });
  });

  it("a checkout's continue_url shows the checkout", async () => {
    await expectPage(checkout.continue_url, {
      names: /checkout/i,
      shows: [...titles(checkout), BUYER_EMAIL],
      // No screenshot: checkout-journey.browser.test.ts takes "checkout" mid-journey.
    });
  });

  it("an order's permalink_url shows the order", async () => {
    expect(order.permalink_url).toBe(completed.order.permalink_url);
    // A person reads the short number (the order's label, issue 25); the UCP id stays the agent's.
    expect(order.label).toMatch(/^#\d+$/);
    await expectPage(order.permalink_url, { names: /order/i, shows: [order.label, ...titles(order)], shot: "order" });
  });

  it("an error response's continue_url is a page", async () => {
    const missing = await agent.call("get_cart", { id: "cart_does_not_exist" });
    expect(missing.ucp.status).toBe("error");
    expect(missing.continue_url).toMatch(new RegExp(`^${h.baseUrl}/`));
    await expectPage(missing.continue_url, { names: MERCHANT_NAME ?? "" });
  });

  it("a tampered hand-off token shows nothing of the session", async () => {
    for (const url of [cart.continue_url, checkout.continue_url, order.permalink_url]) await expectOpens(url);
    await expectNothingShown(tampered(cart.continue_url), [...titles(cart), cart.id]);
    await expectNothingShown(tampered(checkout.continue_url), [...titles(checkout), BUYER_EMAIL, checkout.id]);
    await expectNothingShown(tampered(order.permalink_url), [...titles(order), BUYER_EMAIL, order.id, order.label]);
  });

  it("an expired hand-off token shows nothing of the session", async () => {
    // Sealed here with the development key (.dev.vars) for the real sessions, a day past expiry.
    expect(ID_SIGNING_KEY).toBeDefined();
    const secret = ID_SIGNING_KEY ?? "";
    const day = 24 * 3600_000;
    const expired = (kind: "cart" | "checkout" | "order", id: string) =>
      sealHandoff(secret, kind, id, Date.now() - 2 * day, day);
    // The same sealing, unexpired, opens the page: the expiry is what refuses the others.
    await expectOpens(withToken(checkout.continue_url, await sealHandoff(secret, "checkout", checkout.id, Date.now())));
    await expectNothingShown(withToken(cart.continue_url, await expired("cart", cart.id)), [...titles(cart), cart.id]);
    await expectNothingShown(withToken(checkout.continue_url, await expired("checkout", checkout.id)), [
      ...titles(checkout),
      BUYER_EMAIL,
      checkout.id,
    ]);
    await expectNothingShown(withToken(order.permalink_url, await expired("order", order.id)), [
      ...titles(order),
      BUYER_EMAIL,
      order.id,
      order.label,
    ]);
  });

  it("a live token of another kind opens nothing", async () => {
    for (const url of [cart.continue_url, checkout.continue_url]) await expectOpens(url);
    await expectNothingShown(withToken(order.permalink_url, tokenOf(checkout.continue_url)), [
      ...titles(checkout),
      BUYER_EMAIL,
    ]);
    await expectNothingShown(withToken(checkout.continue_url, tokenOf(cart.continue_url)), titles(cart));
  });

  it("an unknown buyer path is an HTML 404 page", async () => {
    for (const [context, kind] of [
      [desktop, "desktop"],
      [phone, "phone"],
    ] as const) {
      const { page, status, type } = await open(context, `${h.baseUrl}/no-such-page`);
      try {
        expect(status, kind).toBe(404);
        expect(type, kind).toMatch(/^text\/html\b/);
        expect(await page.locator("h1").count(), kind).toBeGreaterThan(0);
        await expectNoSeriousAxeViolations(page);
        await screenshot(page, "not-found");
      } finally {
        await page.close();
      }
    }
  });

  it("unknown /ucp/ and /admin/ paths are JSON 404s", async () => {
    const ucp = await fetch(`${h.baseUrl}/ucp/no-such-thing`);
    expect(ucp.status).toBe(404);
    expect(ucp.headers.get("content-type")).toMatch(/^application\/json\b/);
    await ucp.json();
    const admin = await fetch(`${h.baseUrl}/admin/no-such-thing`, {
      headers: { authorization: "Bearer dev-admin-token" },
    });
    expect(admin.status).toBe(404);
    expect(admin.headers.get("content-type")).toMatch(/^application\/json\b/);
    await admin.json();
  });
});

/** The test handler's entry in discovery (locally the store is in test mode). */
function findHandler(discovery: Json): Json {
  return Object.values<Json[]>(discovery.ucp.payment_handlers ?? {})
    .flat()
    .find((handler) => handler.id === "mock_payment_handler");
}
