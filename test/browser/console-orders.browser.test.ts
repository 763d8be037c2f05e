/**
 * The console's orders in Chromium (issue 13 item 6): an agent (the MCP SDK client, with an
 * API key for a platform whose profile and webhook receiver run locally) places an order;
 * the merchant signs in, finds it in the list by the buyer's email, ships it with a carrier
 * and tracking number; the platform's webhook arrives with the shipment, and the buyer's
 * order page (permalink_url) shows it. Local http profiles and webhooks are allowed by
 * .dev.vars (OUTBOUND_ALLOW), as in test/e2e/trust-webhooks.e2e.test.ts.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Agent, Json } from "./agent";
import { DEV_ADMIN_TOKEN, signedInPage } from "./console-sign-in";
import { describeBrowser, expectNoSeriousAxeViolations, screenshot, useHarness } from "./harness";
import { BUYER_EMAIL, placeOrder, readyCheckout } from "./sessions";

const V = "2026-04-08";
const TRACKING = "1Z999AA10123456784";
let platform: Server | undefined;
let platformOrigin = "";
const webhooks: Json[] = [];

function platformProfile() {
  const docs = (c: string) => ({
    spec: `https://ucp.dev/${V}/specification/${c}`,
    schema: `https://ucp.dev/${V}/schemas/shopping/${c}.json`,
  });
  const caps = ["catalog.search", "catalog.lookup", "cart", "checkout", "fulfillment", "discount"].map((c) => [
    `dev.ucp.shopping.${c}`,
    [{ version: V, ...docs(c) }],
  ]);
  return {
    ucp: {
      version: V,
      services: {},
      capabilities: {
        ...Object.fromEntries(caps),
        "dev.ucp.shopping.order": [
          { version: V, ...docs("order"), config: { webhook_url: `${platformOrigin}/webhooks/orders` } },
        ],
      },
      payment_handlers: {},
    },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

beforeAll(async () => {
  platform = createServer(async (req, res) => {
    if (req.method === "GET" && req.url === "/profile.json") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(platformProfile()));
      return;
    }
    if (req.method === "POST" && req.url === "/webhooks/orders") {
      webhooks.push(JSON.parse(await readBody(req)));
      res.writeHead(200).end();
      return;
    }
    res.writeHead(404).end();
  });
  const port = process.env.UCP_PLATFORM_PORT ? Number(process.env.UCP_PLATFORM_PORT) : 0;
  await new Promise<void>((resolve) => platform?.listen(port, "127.0.0.1", resolve));
  platformOrigin = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => platform?.close(resolve));
});

/** The MCP SDK client as this platform, with a key the merchant issued for its profile. */
async function platformAgent(baseUrl: string): Promise<Agent> {
  const profile = `${platformOrigin}/profile.json`;
  const issued = await fetch(`${baseUrl}/admin/api-keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ profile, label: "console orders test" }),
  });
  expect(issued.status).toBe(201);
  const key = ((await issued.json()) as { api_key: string }).api_key;
  const client = new Client({ name: "console-orders-test", version: "0.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/ucp/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  await client.listTools();
  return {
    client,
    async call(tool, args) {
      const meta = {
        "ucp-agent": { profile },
        ...(/^(create|update|cancel|complete)_/.test(tool) ? { "idempotency-key": crypto.randomUUID() } : {}),
      };
      const result = await client.callTool({ name: tool, arguments: { meta, ...args } });
      if (result.isError) throw new Error(`${tool}: ${JSON.stringify(result.content)}`);
      return result.structuredContent;
    },
    close: () => client.close(),
  };
}

async function until<T>(what: string, probe: () => T | undefined, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describeBrowser("console orders", () => {
  const h = useHarness();

  it("an agent's order is found, shipped with tracking; the webhook and the buyer's page show the shipment", async () => {
    const agent = await platformAgent(h.baseUrl);
    const done = await placeOrder(agent, await readyCheckout(agent));
    await agent.close();
    const orderId: string = done.order.id;
    const permalink: string = done.order.permalink_url;
    await until("the order.created webhook", () => webhooks.find((w) => w.id === orderId));

    const page = await signedInPage(await h.desktop(), h.baseUrl);
    await page.getByRole("link", { name: "Orders", exact: true }).click();
    await page.getByLabel("Order number, id or buyer email").fill(BUYER_EMAIL);
    await page.getByRole("button", { name: "Filter" }).click();
    // Listed by its short number ("#1001"), the id beneath it.
    const link = page.getByRole("link", { name: done.order.label, exact: true });
    await link.waitFor();
    const row = page.locator("tr", { has: link });
    await expect(row.textContent()).resolves.toContain("Processing");
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, "console-orders");

    await link.click();
    await page.locator("h1", { hasText: done.order.label }).waitFor();
    const ship = page.locator(`form[action="/admin/orders/${orderId}/ship"]`);
    await ship.getByLabel("Carrier").fill("UPS");
    await ship.getByLabel("Tracking number").fill(TRACKING);
    await ship.getByLabel("These units have left").check();
    await Promise.all([page.waitForURL(/\?done=ship$/), ship.getByRole("button", { name: "Ship" }).click()]);
    await page.getByText("Shipment recorded.").waitFor();
    await expect(page.locator("h1 .status").textContent()).resolves.toBe("Shipped");
    await expect(page.locator("#timeline ~ ol").textContent()).resolves.toContain(TRACKING);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, "console-order");

    const shipped = await until("the shipment's webhook", () =>
      webhooks.find(
        (w) => w.id === orderId && w.fulfillment?.events?.some((e: Json) => e.tracking_number === TRACKING),
      ),
    );
    expect(shipped.fulfillment.events.at(-1)).toMatchObject({
      type: "shipped",
      carrier: "UPS",
      tracking_number: TRACKING,
    });

    const buyer = await (await h.desktop()).newPage();
    await buyer.goto(permalink);
    await buyer.getByText(TRACKING).first().waitFor();
  });
});
