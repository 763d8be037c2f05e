/**
 * Stripe's webhooks reach the console (issue 24 items 4 and 6), in Chromium against the real
 * local server: an agent places an order; Stripe (here: the test, signing as Stripe does)
 * reports a dispute and a refund made in its dashboard; the merchant's order page shows both,
 * once, and passes axe. The local server runs with a webhook secret and a Stripe API stand-in
 * that answers the one call the webhook makes (retrieve a PaymentIntent for its metadata).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type LocalServer, startServer } from "../e2e/server";
import { stripeEvent, stripeSignature } from "../payment-webhooks/stripe-signature";
import { type Agent, connectAgent, type Json } from "./agent";
import { findChromium } from "./chromium";
import { DEV_ADMIN_TOKEN, signedInPage } from "./console-sign-in";
import { describeBrowser, expectNoSeriousAxeViolations, screenshot } from "./harness";
import { placeOrder, readyCheckout } from "./sessions";

const SECRET = "whsec_browser_test_secret";
/** PaymentIntent id → its checkout, as the PaymentIntent's metadata says at Stripe. */
const intents = new Map<string, string>();
let stripeApi: Server | undefined;
let server: LocalServer | undefined;
let browser: Browser | undefined;
let agent: Agent | undefined;

async function deliver(baseUrl: string, event: Json): Promise<number> {
  const body = JSON.stringify(event);
  const res = await fetch(`${baseUrl}/payments/stripe/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": await stripeSignature(body, SECRET) },
    body,
  });
  return res.status;
}

describeBrowser("Stripe's refunds and disputes in the console", () => {
  beforeAll(async () => {
    stripeApi = createServer((req, res) => {
      const id = /^\/v1\/payment_intents\/([^/?]+)/.exec(req.url ?? "")?.[1] ?? "";
      const checkout = req.method === "GET" ? intents.get(decodeURIComponent(id)) : undefined;
      res.setHeader("content-type", "application/json");
      if (!checkout) {
        res.writeHead(404).end(JSON.stringify({ error: { type: "invalid_request_error", code: "resource_missing" } }));
        return;
      }
      res.end(
        JSON.stringify({ id, object: "payment_intent", metadata: { ucp_checkout_id: checkout }, status: "succeeded" }),
      );
    });
    await new Promise<void>((resolve) => stripeApi?.listen(0, "127.0.0.1", resolve));
    const apiBase = `http://127.0.0.1:${(stripeApi.address() as AddressInfo).port}`;
    const executablePath = findChromium();
    [server, browser] = await Promise.all([
      startServer({
        vars: { STRIPE_SECRET_KEY: "sk_test_browser", STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_BASE: apiBase },
      }),
      executablePath ? chromium.launch({ executablePath, args: ["--no-sandbox"] }) : undefined,
    ]);
  });
  afterAll(async () => {
    await agent?.close();
    await browser?.close();
    await server?.stop();
    await new Promise((resolve) => stripeApi?.close(resolve));
  });

  it("a dispute and a dashboard refund show on the order page, once, and it passes axe", async () => {
    const baseUrl = server?.baseUrl ?? "";
    agent = await connectAgent(baseUrl);
    const checkout = await readyCheckout(agent);
    const done = await placeOrder(agent, checkout);
    const orderId: string = done.order.id;
    const admin = await fetch(`${baseUrl}/admin/orders/${orderId}`, {
      headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}` },
    });
    const chargeId: string = ((await admin.json()) as Json).charge_id;
    expect(chargeId).toBeTruthy();
    intents.set(chargeId, checkout.id);

    const dispute = {
      id: "dp_browser_1",
      object: "dispute",
      amount: 1500,
      charge: "ch_browser",
      currency: "usd",
      evidence_details: { due_by: 1_900_000_000 },
      metadata: {},
      payment_intent: chargeId,
      reason: "product_not_received",
      status: "needs_response",
    };
    const opened = stripeEvent("charge.dispute.created", dispute);
    expect(await deliver(baseUrl, opened)).toBe(200);
    expect(await deliver(baseUrl, opened)).toBe(200);
    const refund = {
      id: "re_browser_1",
      object: "refund",
      amount: 500,
      charge: "ch_browser",
      currency: "usd",
      metadata: {},
      payment_intent: chargeId,
      reason: "requested_by_customer",
      status: "succeeded",
    };
    expect(await deliver(baseUrl, stripeEvent("refund.created", refund))).toBe(200);
    expect(await deliver(baseUrl, stripeEvent("refund.updated", refund))).toBe(200);

    const context = await (browser as Browser).newContext({ viewport: { width: 1280, height: 800 } });
    const page = await signedInPage(context, baseUrl);
    await page.goto(`${baseUrl}/admin/orders/${orderId}`);
    const section = page.getByRole("region", { name: "Refunds and disputes at the payment processor" });
    await section.waitFor();
    await expect(section.getByRole("table", { name: "Disputes" }).locator("tbody tr").count()).resolves.toBe(1);
    await expect(section.getByRole("table", { name: "Refunds" }).locator("tbody tr").count()).resolves.toBe(1);
    await expect(section.textContent()).resolves.toContain("Needs your response");
    await expect(section.textContent()).resolves.toContain("Stripe's dashboard");
    await expect(page.getByRole("status").first().textContent()).resolves.toContain("A dispute needs your response");
    const entries = page.locator("#timeline ~ ol li strong");
    await expect(entries.filter({ hasText: /^Dispute$/ }).count()).resolves.toBe(1);
    await expect(entries.filter({ hasText: /^Refund$/ }).count()).resolves.toBe(1);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, "console-order-dispute");
  });
});
