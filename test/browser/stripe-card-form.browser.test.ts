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
import { type Browser, type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type LocalServer, startServer } from "../e2e/server";
import { type RunningStandIn, startStripeStandIn } from "../stripe/server";
import { type Agent, connectAgent, type Json } from "./agent";
import { findChromium } from "./chromium";
import { describeBrowser, expectNoSeriousAxeViolations, screenshot } from "./harness";
import { readyCheckout } from "./sessions";

/** `.dev.vars`' development admin token, which the local server runs with. */
const ADMIN = { authorization: "Bearer dev-admin-token" };

let stripe: RunningStandIn | undefined;
let server: LocalServer | undefined;
let browser: Browser | undefined;
let agent: Agent | undefined;

/** Only the store and the stand-in: anything else (catalog images on example hosts) is refused at once. */
async function context(options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> {
  const allowed = new Set([new URL(server?.baseUrl ?? "").origin, stripe?.url]);
  const ctx = await (browser as Browser).newContext({ viewport: { width: 1280, height: 800 }, ...options });
  await ctx.route(
    (url) => !allowed.has(url.origin),
    (route) => route.abort("blockedbyclient"),
  );
  return ctx;
}

describeBrowser("Stripe's card form on the checkout page", () => {
  beforeAll(async () => {
    stripe = await startStripeStandIn();
    const executablePath = findChromium();
    [server, browser] = await Promise.all([
      startServer({
        vars: {
          PAYMENT_TEST_MODE: "false",
          STRIPE_SECRET_KEY: "sk_test_browserCardForm",
          STRIPE_PUBLISHABLE_KEY: "pk_test_browserCardForm",
          STRIPE_PROFILE_ID: "profile_browser",
          STRIPE_API_BASE: stripe.url,
          STRIPE_JS_URL: `${stripe.url}/v3`,
        },
      }),
      executablePath ? chromium.launch({ executablePath, args: ["--no-sandbox"] }) : undefined,
    ]);
  });
  afterAll(async () => {
    await agent?.close();
    await browser?.close();
    await server?.stop();
    await stripe?.stop();
  });

  it("the buyer pays with the Payment Element (a decline, then 3-D Secure) and the order is placed on one PaymentIntent", async () => {
    const baseUrl = server?.baseUrl ?? "";
    agent = await connectAgent(baseUrl);
    const checkout = await readyCheckout(agent);
    expect(Object.keys(checkout.ucp.payment_handlers)).toContain("com.stripe.payments");
    const intentsOf = () =>
      [...(stripe?.standIn.state.paymentIntents.values() ?? [])].filter(
        (pi) => pi.metadata.ucp_checkout_id === checkout.id,
      );

    const page = await (await context()).newPage();
    const opened = await page.goto(checkout.continue_url);
    expect(opened?.status()).toBe(200);
    const csp = (await opened?.allHeaders())?.["content-security-policy"] ?? "";
    expect(csp).toContain(`script-src 'nonce-`);
    expect(csp).toContain(` ${stripe?.url};`);
    expect(csp).toContain(`frame-src ${stripe?.url};`);
    expect(csp).toContain(`connect-src 'self' ${stripe?.url};`);
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
    const page = await (await context({ javaScriptEnabled: false })).newPage();
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
