/**
 * Capture at shipment and the order page's Payment card (issue 24 items 1 and 6), in Chromium
 * against the real local server: no test mode, Stripe's settings pointing at the stand-in
 * (test/stripe/server.ts) and STRIPE_CAPTURE=manual. An agent pays with Google Pay (a Stripe
 * card token); the order records that its charge is an authorization; the merchant's page
 * shows the card (brand, last four), "Authorized" and a link to the PaymentIntent in Stripe's
 * test dashboard, and passes axe. The merchant ships: the stand-in holds one capture keyed
 * by the order, and the page says Captured. Shipping the rest captures nothing more.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { googlePay } from "../helpers/google-pay";
import { type Agent, connectAgent, type Json } from "./agent";
import { DEV_ADMIN_TOKEN, signedInPage } from "./console-sign-in";
import { describeBrowser, expectNoSeriousAxeViolations, screenshot } from "./harness";
import { readyCheckout } from "./sessions";
import { type StripeStore, startStripeStore } from "./stripe-store";

const ADMIN = { authorization: `Bearer ${DEV_ADMIN_TOKEN}` };

let store: StripeStore | undefined;
let agent: Agent | undefined;

describeBrowser("the order page's Payment card and capture at shipment (Stripe, manual capture)", () => {
  beforeAll(async () => {
    store = await startStripeStore("browserCapture", { STRIPE_CAPTURE: "manual" });
  });
  afterAll(async () => {
    await agent?.close();
    await store?.stop();
  });

  it("shows the card, the authorization and Stripe's link; shipping captures once", async () => {
    const baseUrl = store?.server.baseUrl ?? "";
    agent = await connectAgent(baseUrl);
    const checkout = await readyCheckout(agent);
    const done = await agent.call("complete_checkout", {
      id: checkout.id,
      checkout: googlePay("tok_visa"),
    });
    expect(done.status, JSON.stringify(done.messages)).toBe("completed");
    const orderId: string = done.order.id;
    const intents = () => store?.intentsOf(checkout.id) ?? [];
    expect(intents()).toHaveLength(1);
    const intent = intents()[0];
    expect(intent?.status).toBe("requires_capture");
    const view = async (): Promise<Json> =>
      (await fetch(`${baseUrl}/admin/orders/${orderId}`, { headers: ADMIN })).json() as Promise<Json>;
    expect((await view()).capture).toEqual({ status: "authorized" });

    const page = await signedInPage(await (store as StripeStore).context(), baseUrl);
    await page.goto(`${baseUrl}/admin/orders/${orderId}`);
    const card = page.getByRole("region", { name: "Payment" });
    await card.waitFor();
    await expect(card.textContent()).resolves.toContain("Visa ending in 4242");
    await expect(card.textContent()).resolves.toContain("will be captured at the first shipment");
    const link = card.getByRole("link", { name: intent?.id ?? "" });
    await expect(link.getAttribute("href")).resolves.toBe(`https://dashboard.stripe.com/test/payments/${intent?.id}`);
    await expectNoSeriousAxeViolations(page);

    const ship = (body: unknown) =>
      fetch(`${baseUrl}/admin/orders/${orderId}/events`, {
        method: "POST",
        headers: { ...ADMIN, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const lines = done.line_items as Json[];
    const first = await ship({ type: "shipped", line_items: [{ id: lines[0].id, quantity: 1 }] });
    expect(first.status, await first.clone().text()).toBe(200);
    const captureKey = `${orderId}:capture`;
    expect(intent?.status).toBe("succeeded");
    expect(intent?.idempotencyKeys.filter((k) => k === captureKey)).toHaveLength(1);
    expect((await ship({ type: "shipped" })).status).toBe(200);
    expect(intent?.idempotencyKeys.filter((k) => k === captureKey)).toHaveLength(1);
    expect((await view()).capture).toMatchObject({ status: "captured" });

    await page.reload();
    await expect(card.textContent()).resolves.toMatch(/Captured \$\d+\.\d\d at shipment/);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, "console-order-payment");
  });
});
