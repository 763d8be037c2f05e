/**
 * The buyer's card form when the store charges through Stripe (issue 24 item 3), in Chromium
 * against the real local server: no test mode, Stripe's settings pointing at the stand-in
 * (test/stripe/server.ts), and Stripe.js at the stand-in's /v3 (test/stripe/stripe-js.ts, an
 * in-page stand-in for the Payment Element). An agent readies a checkout; the buyer opens
 * continue_url, is declined once, then pays with a 3-D Secure card (Stripe.js handles the
 * challenge) and sees the order. Stripe saw exactly one PaymentIntent for the checkout, the
 * order's charge; the page's CSP names the stand-in's origin; axe is clean. Without
 * JavaScript the page says a card needs it and shows no form.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Agent, connectAgent, type Json } from "./agent";
import { describeBrowser, expectNoSeriousAxeViolations, screenshot } from "./harness";
import { readyCheckout } from "./sessions";
import { type StripeStore, startStripeStore } from "./stripe-store";

/** `.dev.vars`' development admin token, which the local server runs with. */
const ADMIN = { authorization: "Bearer dev-admin-token" };

let store: StripeStore | undefined;
let agent: Agent | undefined;

describeBrowser("Stripe's card form on the checkout page", () => {
  beforeAll(async () => {
    store = await startStripeStore("browserCardForm");
  });
  afterAll(async () => {
    await agent?.close();
    await store?.stop();
  });

  it("the buyer pays with the Payment Element (a decline, then 3-D Secure) and the order is placed on one PaymentIntent", async () => {
    const baseUrl = store?.server.baseUrl ?? "";
    agent = await connectAgent(baseUrl);
    const checkout = await readyCheckout(agent);
    expect(Object.keys(checkout.ucp.payment_handlers)).toContain("com.stripe.payments");
    const intentsOf = () => store?.intentsOf(checkout.id) ?? [];

    const page = await (await (store as StripeStore).context()).newPage();
    const opened = await page.goto(checkout.continue_url);
    expect(opened?.status()).toBe(200);
    const csp = (await opened?.allHeaders())?.["content-security-policy"] ?? "";
    expect(csp).toContain(`script-src 'nonce-`);
    expect(csp).toContain(` ${store?.stripe.url};`);
    expect(csp).toContain(`frame-src ${store?.stripe.url};`);
    expect(csp).toContain(`connect-src 'self' ${store?.stripe.url};`);
    await page.getByLabel("Visa test card (pays)").waitFor();
    expect(await page.getByText("needs JavaScript").isVisible()).toBe(false);
    // A reload finds the same PaymentIntent (its Idempotency-Key is the checkout and its total).
    await page.reload();
    await page.getByLabel("Visa test card (pays)").waitFor();
    expect(intentsOf()).toHaveLength(1);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, "checkout-stripe");

    await page.getByLabel("Declined test card").check();
    await page.getByRole("button", { name: /^Pay · / }).click();
    await expect.poll(() => page.locator("#stripe-card-status").innerText()).toMatch(/declined/i);
    expect(await page.getByRole("button", { name: /^Pay · / }).isEnabled()).toBe(true);

    await page.getByLabel("3-D Secure test card").check();
    await Promise.all([page.waitForURL(/\?n=placed$/), page.getByRole("button", { name: /^Pay · / }).click()]);
    expect(await page.locator("h1").innerText()).toBe("Thank you for your order");
    // The confirmation names the order by its short number; the console and the API by its id.
    const label = await page.locator(".order-id").innerText();
    await expectNoSeriousAxeViolations(page);

    const intents = intentsOf();
    expect(intents).toHaveLength(1);
    expect(intents[0]?.status).toBe("succeeded");
    const seen = await agent.call("get_checkout", { id: checkout.id });
    expect(seen.status).toBe("completed");
    expect(seen.order.label).toBe(label);
    const order = (await (await fetch(`${baseUrl}/admin/orders/${seen.order.id}`, { headers: ADMIN })).json()) as Json;
    expect(order.charge_id).toBe(intents[0]?.id);
  });

  it("without JavaScript the page says a card needs it and offers no form", async () => {
    const ready = await readyCheckout(agent as Agent);
    const page = await (await (store as StripeStore).context({ javaScriptEnabled: false })).newPage();
    expect((await page.goto(ready.continue_url))?.status()).toBe(200);
    expect(await page.getByText("Paying by card on this page needs JavaScript").isVisible()).toBe(true);
    // The form is in the page but hidden: nothing the buyer can press without the Payment Element.
    expect(await page.getByRole("button", { name: /^Pay · / }).count()).toBe(0);
    expect(await page.locator("#pay-button").isHidden()).toBe(true);
    // What the buyer can still do without it: change the details (Continue).
    expect(await page.getByRole("button", { name: "Continue", exact: true }).isVisible()).toBe(true);
    // (axe needs JavaScript in the page; the same page with JavaScript passed it above.)
  });
});
