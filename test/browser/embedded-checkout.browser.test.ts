/**
 * Embedded Checkout (issue 25 item 4), as a platform's window shows it: a host page on
 * another origin (ecp-host.ts, http://localhost:<port>) whose platform holds an API key embeds
 * the checkout's continue_url with ec_version and ec_delegate. The handshake (ec.ready ->
 * ec.start, once over a MessagePort), a delegated address change and its change
 * notifications, a delegated payment credential for the total the buyer last typed (a
 * quantity changed, then Pay without Continue), and ec.complete with the placed order that
 * the agent then reads. A host on an origin the store does not trust gets no frame at all.
 */
import type { BrowserContext, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Json } from "./agent";
import { type EcpHost, startEcpHost } from "./ecp-host";
import { describeBrowser, expectNoSeriousAxeViolations, screenshot, useHarness } from "./harness";
import { BUYER_EMAIL, SHIPPING_ADDRESS, twoLineItems } from "./sessions";

const ADMIN = { authorization: "Bearer dev-admin-token", "content-type": "application/json" };
const DELEGATE = "payment.credential,fulfillment.address_change,window.open";

/** A platform (the host's profile) calling the store's MCP endpoint with the API key the merchant issued it. */
function platform(baseUrl: string, profile: string, apiKey: string) {
  let id = 0;
  return async (name: string, args: Record<string, unknown>): Promise<Json> => {
    id += 1;
    const meta = { "ucp-agent": { profile }, "idempotency-key": crypto.randomUUID() };
    const res = await fetch(`${baseUrl}/ucp/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name, arguments: { meta, ...args } },
      }),
    });
    const body = (await res.json()) as Json;
    if (!body.result) throw new Error(`${name}: ${JSON.stringify(body)}`);
    return body.result.structuredContent;
  };
}

async function issueKey(baseUrl: string, profile: string): Promise<string> {
  const res = await fetch(`${baseUrl}/admin/api-keys`, {
    method: "POST",
    headers: ADMIN,
    body: JSON.stringify({ profile, label: "ECP host" }),
  });
  if (res.status !== 201) throw new Error(`api key: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { api_key: string }).api_key;
}

type Recorded = { via: string; message: Json };
const messages = (page: Page): Promise<Recorded[]> => page.evaluate(() => (window as unknown as { __ec: [] }).__ec);
const methods = async (page: Page) => (await messages(page)).map((m) => m.message.method as string);

async function waitForMethod(page: Page, method: string, count = 1): Promise<Recorded[]> {
  await page.waitForFunction(
    ([m, n]) => (window as unknown as { __ec: Recorded[] }).__ec.filter((r) => r.message.method === m).length >= n,
    [method, count] as const,
    { timeout: 30_000 },
  );
  return (await messages(page)).filter((r) => r.message.method === method);
}

const totalOf = (checkout: Json): number => checkout.totals.find((t: Json) => t.type === "total").amount;

function checkoutFrame(page: Page, baseUrl: string): Frame {
  const frame = page.frames().find((f) => f.url().startsWith(`${baseUrl}/checkout/`));
  if (!frame) throw new Error(`no checkout frame in ${page.frames().map((f) => f.url())}`);
  return frame;
}

describeBrowser("Embedded Checkout: a host on another origin embeds the checkout", () => {
  const h = useHarness();
  let host: EcpHost;
  let stranger: EcpHost;
  let context: BrowserContext;

  beforeAll(async () => {
    host = await startEcpHost(new URL(h.baseUrl).origin);
    stranger = await startEcpHost(new URL(h.baseUrl).origin);
    // Tall enough that the whole framed checkout is on screen (a full-page shot renders no frame below the viewport).
    context = await h.browser.newContext({ viewport: { width: 1280, height: 1800 } });
    // Only the store and the two hosts: catalog images on other hosts are refused at once.
    const allowed = new Set([new URL(h.baseUrl).origin, host.origin, stranger.origin]);
    await context.route(
      (url) => !allowed.has(url.origin),
      (route) => route.abort("blockedbyclient"),
    );
  });
  afterAll(async () => {
    await context?.close();
    await host?.close();
    await stranger?.close();
  });

  async function trustedCheckout(): Promise<{ checkout: Json; call: ReturnType<typeof platform> }> {
    const call = platform(h.baseUrl, host.profileUrl, await issueKey(h.baseUrl, host.profileUrl));
    const lines = await twoLineItems({
      call: (tool: string, args: Record<string, unknown>) => call(tool, args),
    } as never);
    const checkout = await call("create_checkout", {
      checkout: {
        line_items: lines,
        buyer: { email: BUYER_EMAIL, first_name: "Robin" },
        fulfillment: { methods: [{ type: "shipping", destinations: [SHIPPING_ADDRESS] }] },
      },
    });
    expect(checkout.status, JSON.stringify(checkout.messages)).toBe("ready_for_complete");
    return { checkout, call };
  }

  it("handshakes, reports changes, takes the host's credential and completes with the order", async () => {
    const { checkout, call } = await trustedCheckout();
    const embedded = checkout.ucp.services?.["dev.ucp.shopping"]?.find((b: Json) => b.transport === "embedded");
    expect(embedded?.config.delegate).toEqual(expect.arrayContaining(DELEGATE.split(",")));
    const version = checkout.ucp.version as string;
    const src = `${checkout.continue_url}?ec_version=${version}&ec_delegate=${DELEGATE}&ec_color_scheme=light`;

    const page = await context.newPage();
    await page.goto(host.pageUrl(src, { upgrade: true }));
    const [start] = await waitForMethod(page, "ec.start");
    const first = await messages(page);
    expect(first[0]?.message).toMatchObject({
      jsonrpc: "2.0",
      method: "ec.ready",
      params: { delegate: DELEGATE.split(",") },
    });
    expect(first[0]?.via).toBe("window");
    // After the upgrade the page handshakes again on the port, and everything after goes there.
    expect(first[1]?.message.method).toBe("ec.ready");
    expect(first[1]?.via).toBe("port");
    expect(start?.via).toBe("port");
    expect(start?.message.params.checkout.id).toBe(checkout.id);
    expect(start?.message.params.checkout.ucp.version).toBe(version);
    expect(start?.message.id).toBeUndefined();

    const frame = checkoutFrame(page, h.baseUrl);
    // What one document leaves the next (window.name, which outlives a navigation to another
    // origin) names the session without its hand-off token, the path's secret.
    const token = new URL(checkout.continue_url).pathname.split("/").pop() ?? "";
    expect(token.length).toBeGreaterThan(10);
    const kept = await frame.evaluate(() => window.name);
    expect(kept).toMatch(/^ucp-ec:/);
    expect(kept).not.toContain(token);
    // What the host took over is not the page's own UI: its card fields and address form are hidden.
    expect(await frame.locator("#ec-pay").isVisible()).toBe(true);
    expect(await frame.locator("#ec-address-text").innerText()).toContain("1 Market St");
    for (const own of ["#payment-section", "#address-section"]) {
      if ((await frame.locator(own).count()) > 0) expect(await frame.locator(own).isVisible(), own).toBe(false);
    }
    await expectNoSeriousAxeViolations(frame);
    await screenshot(page, "embedded-checkout");

    // The host's address picker: the page applies it and says what changed, totals last.
    await frame.locator("#ec-address").click();
    await waitForMethod(page, "ec.fulfillment.change");
    await waitForMethod(page, "ec.ready", 4);
    const afterAddress = await methods(page);
    const changed = afterAddress.filter((m) => m?.endsWith(".change"));
    expect(changed[0]).toBe("ec.fulfillment.change");
    if (changed.includes("ec.totals.change")) expect(changed.at(-1)).toBe("ec.totals.change");
    expect(afterAddress.filter((m) => m === "ec.start")).toHaveLength(1);
    const reloaded = checkoutFrame(page, h.baseUrl);
    await reloaded.locator("#ec-pay:not([disabled])").waitFor();
    expect(await reloaded.locator("#ec-address-text").innerText()).toContain("500 Host Ave");
    expect(await reloaded.evaluate(() => window.name)).not.toContain(token);

    // A link that leaves the checkout goes to the host (window.open delegated), not into the frame.
    await reloaded.locator('a[href="/"]').first().click();
    const [opened] = await waitForMethod(page, "ec.window.open_request");
    expect(opened?.message.params.url).toBe(`${h.baseUrl}/`);
    expect(checkoutFrame(page, h.baseUrl).url()).toContain("/checkout/");

    // The buyer changes a quantity and presses Pay without Continue: the page saves it first,
    // says what changed, and asks the host for a credential for the new total.
    const before = await call("get_checkout", { id: checkout.id });
    const line = before.line_items[0];
    await reloaded.locator(`[id="qty_${line.id}"]`).fill(String(line.quantity + 2));
    await reloaded.locator("#ec-pay").click();
    const [asked] = await waitForMethod(page, "ec.payment.credential_request");
    expect(asked?.message.id).toBeDefined();
    const approved = totalOf(asked?.message.params.checkout);
    expect(approved).toBeGreaterThan(totalOf(before));
    const askedLine = asked?.message.params.checkout.line_items.find((l: Json) => l.id === line.id);
    expect(askedLine?.quantity).toBe(line.quantity + 2);
    const sent = await methods(page);
    expect(sent.lastIndexOf("ec.totals.change")).toBeGreaterThan(sent.lastIndexOf("ec.window.open_request"));
    expect(sent.lastIndexOf("ec.totals.change")).toBeLessThan(sent.indexOf("ec.payment.credential_request"));
    const [complete] = await waitForMethod(page, "ec.complete");
    const order = complete?.message.params.checkout.order;
    expect(complete?.message.params.checkout.status).toBe("completed");
    expect(order?.id).toMatch(/\S/);

    const read = await call("get_checkout", { id: checkout.id });
    expect(read.status).toBe("completed");
    expect(read.order.id).toBe(order.id);
    expect(totalOf(read), "the order is charged the total the host approved").toBe(approved);
    const confirmation = checkoutFrame(page, h.baseUrl);
    await confirmation.locator("h1").waitFor();
    expect(await confirmation.locator("h1").innerText()).toBe("Thank you for your order");
    await expectNoSeriousAxeViolations(confirmation);
    expect((await methods(page)).filter((m) => m === "ec.complete")).toHaveLength(1);
    await page.close();
  });

  it("a host on an origin the store does not trust gets no frame and no message", async () => {
    const { checkout } = await trustedCheckout();
    const src = `${checkout.continue_url}?ec_version=${checkout.ucp.version}&ec_delegate=${DELEGATE}`;
    const page = await context.newPage();
    const refused = page.waitForEvent("console", {
      predicate: (m) => /frame-ancestors/.test(m.text()),
      timeout: 15_000,
    });
    await page.goto(stranger.pageUrl(src));
    await refused;
    await page.waitForTimeout(1000);
    expect(await messages(page)).toEqual([]);
    expect(page.frames().some((f) => f.url().startsWith(`${h.baseUrl}/checkout/`))).toBe(false);
    await page.close();
  });
});
