/**
 * 3-D Secure on a store that charges through Stripe, started by an agent (issue 24): the
 * agent's Google Pay token needs the bank's step, so complete_checkout answers
 * requires_escalation with the verify page as continue_url. The buyer, in Chromium, sees what
 * is paid for, runs the bank's step in Stripe.js (the stand-in's handleNextAction window) and
 * the page asks Stripe how it ended; the agent's retry then captures that same PaymentIntent
 * once. A failed step leaves nothing charged; without JavaScript nothing can be pressed.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { googlePay } from "../helpers/google-pay";
import { type Agent, connectAgent, type Json } from "./agent";
import { describeBrowser, expectNoSeriousAxeViolations, screenshot } from "./harness";
import { readyCheckout } from "./sessions";
import { type StripeStore, startStripeStore } from "./stripe-store";

/** `.dev.vars`' development admin token, which the local server runs with. */
const ADMIN = { authorization: "Bearer dev-admin-token" };

let store: StripeStore | undefined;
let agent: Agent | undefined;

async function escalated(): Promise<{ checkout: Json; continueUrl: string }> {
  const checkout = await readyCheckout(agent as Agent);
  const answer = await (agent as Agent).call("complete_checkout", {
    id: checkout.id,
    checkout: googlePay("tok_threeDSecure2Required", "3155"),
  });
  expect(answer.status, JSON.stringify(answer.messages)).toBe("requires_escalation");
  expect(answer.messages).toContainEqual(expect.objectContaining({ code: "requires_3ds" }));
  expect(answer.continue_url).toMatch(/\/checkout\/[A-Za-z0-9_-]+\/verify$/);
  return { checkout, continueUrl: answer.continue_url };
}

describeBrowser("3-D Secure through Stripe.js on the store's verify page", () => {
  beforeAll(async () => {
    store = await startStripeStore("browser3ds");
    agent = await connectAgent(store.server.baseUrl);
  });
  afterAll(async () => {
    await agent?.close();
    await store?.stop();
  });

  it("the buyer passes the bank's step; the agent's retry captures the one PaymentIntent", async () => {
    const s = store as StripeStore;
    const { checkout, continueUrl } = await escalated();
    const [pi] = s.intentsOf(checkout.id);
    expect(pi?.status).toBe("requires_action");

    const page = await (await s.context({ viewport: { width: 390, height: 844 } })).newPage();
    const opened = await page.goto(continueUrl);
    expect(opened?.status()).toBe(200);
    const csp = (await opened?.allHeaders())?.["content-security-policy"] ?? "";
    expect(csp).toContain(`frame-src ${s.stripe.url};`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(await page.locator("h1").innerText()).toBe("Verify your payment");
    const main = await page.locator("main").innerText();
    for (const line of checkout.line_items) expect(main).toContain(`${line.quantity} × ${line.item.title}`);
    expect(main).toContain("ending in 3155");
    // The client_secret is in the page for Stripe.js; the PaymentIntent's secret key never is.
    expect(await page.content()).not.toContain("sk_test_");
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, "checkout-verify-stripe");

    await page.getByRole("button", { name: "Verify with your bank" }).click();
    await page.getByRole("button", { name: "Complete authentication" }).click();
    await page.waitForURL(/\/verify$/);
    await expect.poll(() => page.locator("h1").innerText()).toBe("Payment verified");
    expect(await page.getByRole("status").innerText()).toContain("return to platform.example");
    await expectNoSeriousAxeViolations(page);

    const retried = await (agent as Agent).call("complete_checkout", {
      id: checkout.id,
      checkout: googlePay("tok_threeDSecure2Required", "3155"),
    });
    expect(retried.status, JSON.stringify(retried.messages)).toBe("completed");
    const intents = s.intentsOf(checkout.id);
    expect(intents).toHaveLength(1);
    expect(intents[0]?.id).toBe(pi?.id);
    expect(intents[0]?.status).toBe("succeeded");
    const order = (await (
      await fetch(`${s.server.baseUrl}/admin/orders/${retried.order.id}`, { headers: ADMIN })
    ).json()) as Json;
    expect(order.charge_id).toBe(pi?.id);
    // A second retry is the same order, no second charge.
    const again = await (agent as Agent).call("complete_checkout", {
      id: checkout.id,
      checkout: googlePay("tok_threeDSecure2Required", "3155"),
    });
    expect(again.status).toBe("completed");
    expect(again.order.id).toBe(retried.order.id);
    expect(s.intentsOf(checkout.id)).toHaveLength(1);
  });

  it("the buyer fails the bank's step: nothing is charged and the agent is told to pay another way", async () => {
    const s = store as StripeStore;
    const { checkout, continueUrl } = await escalated();
    const page = await (await s.context()).newPage();
    await page.goto(continueUrl);
    await page.getByRole("button", { name: "Verify with your bank" }).click();
    await page.getByRole("button", { name: "Fail authentication" }).click();
    await page.waitForURL(/\/verify$/);
    await expect.poll(() => page.locator("h1").innerText()).toBe("Payment not verified");
    await expectNoSeriousAxeViolations(page);
    const seen = await (agent as Agent).call("get_checkout", { id: checkout.id });
    expect(seen.status).toBe("ready_for_complete");
    expect(seen.messages).toContainEqual(expect.objectContaining({ code: "payment_failed" }));
    const [pi] = s.intentsOf(checkout.id);
    expect(pi?.status).toBe("requires_payment_method");
  });

  it("without JavaScript the page says the bank's step needs it and offers nothing to press", async () => {
    const s = store as StripeStore;
    const { continueUrl } = await escalated();
    const page = await (await s.context({ javaScriptEnabled: false })).newPage();
    expect((await page.goto(continueUrl))?.status()).toBe(200);
    expect(await page.getByText("needs JavaScript").isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Verify with your bank" }).count()).toBe(0);
  });
});
