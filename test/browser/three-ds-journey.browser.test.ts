/**
 * Browser journey 2 (issue 11, UCP overview Scenario B): an authenticated agent (the MCP SDK
 * client with the merchant's API key) completes a checkout with requires_3ds_token and gets
 * requires_escalation with the challenge as continue_url; the buyer, in Chromium, passes the
 * bank's step; the agent's retried complete_checkout places the order; the merchant records
 * a shipment through the admin API and the order's permalink_url shows it.
 */
import { expect, it } from "vitest";
import type { Json } from "./agent";
import { describeBrowser, expectNoSeriousAxeViolations, screenshot, useHarness } from "./harness";
import { readyCheckout } from "./sessions";

/** `.dev.vars`' development admin token, which the local server runs with. */
const ADMIN = { authorization: "Bearer dev-admin-token", "content-type": "application/json" };

const pay3ds = {
  payment: {
    instruments: [
      {
        id: "instr_3ds",
        handler_id: "mock_payment_handler",
        type: "card",
        selected: true,
        display: { brand: "visa", last_digits: "3184" },
        credential: { type: "token", token: "requires_3ds_token" },
      },
    ],
  },
};

describeBrowser("3-D Secure journey: the buyer verifies, the agent's retry completes", () => {
  const h = useHarness();

  it("escalates to the challenge, the buyer passes it, the retry places the order, the order page shows its shipment", async () => {
    const agent = await h.agent();
    const checkout = await readyCheckout(agent);
    const escalated = await agent.call("complete_checkout", { id: checkout.id, checkout: pay3ds });
    expect(escalated.status).toBe("requires_escalation");
    expect(escalated.messages).toContainEqual(
      expect.objectContaining({ code: "requires_3ds", severity: "requires_buyer_input" }),
    );
    expect(escalated.continue_url).toMatch(new RegExp(`^${h.baseUrl}/checkout/[A-Za-z0-9_-]+/verify$`));
    const total = checkout.totals.find((t: Json) => t.type === "total").amount as number;

    const phone = await h.phone();
    const small = await phone.newPage();
    expect((await small.goto(escalated.continue_url))?.status()).toBe(200);
    await expectNoSeriousAxeViolations(small);
    await screenshot(small, "checkout-verify");

    const desktop = await h.desktop();
    const page = await desktop.newPage();
    expect((await page.goto(escalated.continue_url))?.status()).toBe(200);
    expect(await page.locator("h1").innerText()).toBe("Verify your payment");
    const amount = new Intl.NumberFormat("en-US", { style: "currency", currency: checkout.currency }).format(
      total / 100,
    );
    expect(await page.locator("main").innerText()).toContain(amount);
    expect(await page.locator("main").innerText()).toContain("ending in 3184");
    expect(await page.getByRole("button", { name: "Fail verification" }).isVisible()).toBe(true);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, "checkout-verify");

    await Promise.all([
      page.waitForResponse((r) => r.request().method() === "GET" && r.url() === escalated.continue_url),
      page.getByRole("button", { name: "Verify", exact: true }).click(),
    ]);
    expect(await page.locator("h1").innerText()).toBe("Payment verified");
    expect(await page.getByRole("status").innerText()).toContain("Verified — return to platform.example");
    await expectNoSeriousAxeViolations(page);

    const ready = await agent.call("get_checkout", { id: checkout.id });
    expect(ready.status).toBe("ready_for_complete");
    const done = await agent.call("complete_checkout", { id: checkout.id, checkout: pay3ds });
    expect(done.status, JSON.stringify(done.messages)).toBe("completed");
    expect(done.order.id).toMatch(/^ord_/);
    // A person reads the short number (the order's label); the agent keeps the UCP id.
    expect(done.order.label).toMatch(/^#\d+$/);

    const order = await agent.call("get_order", { id: done.order.id });
    expect(order.id).toBe(done.order.id);
    expect(order.label).toBe(done.order.label);
    const line = order.line_items[0].id as string;
    const shipped = await fetch(`${h.baseUrl}/admin/orders/${done.order.id}/events`, {
      method: "POST",
      headers: ADMIN,
      body: JSON.stringify({
        type: "shipped",
        line_items: [{ id: line, quantity: order.line_items[0].quantity.total }],
        carrier: "UPS",
        tracking_number: "1Z3DS0001",
        tracking_url: "https://www.ups.com/track?tracknum=1Z3DS0001",
      }),
    });
    expect(shipped.status, await shipped.clone().text()).toBe(200);

    expect((await page.goto(done.order.permalink_url))?.status()).toBe(200);
    const text = await page.locator("main").innerText();
    expect(text).toContain(`Order number ${done.order.label}`);
    expect(text).not.toContain(done.order.id);
    expect(text).toContain("UPS");
    const tracking = page.getByRole("link", { name: /1Z3DS0001/ });
    expect(await tracking.getAttribute("href")).toBe("https://www.ups.com/track?tracknum=1Z3DS0001");

    // The challenge, opened again, now says the order is placed.
    await page.goto(escalated.continue_url);
    expect(await page.locator("h1").innerText()).toBe("Order placed");
  });

  it("a buyer paying on the checkout page with the 3-D Secure test card verifies and gets the order, which is the agent's", async () => {
    const agent = await h.agent();
    const checkout = await readyCheckout(agent);
    const page = await (await h.desktop()).newPage();
    expect((await page.goto(checkout.continue_url))?.status()).toBe(200);
    await page.locator("#card_number").fill("4000 0027 6000 3184");
    await page.locator("#card_expiry").fill("12/34");
    await page.locator("#card_cvc").fill("123");
    await page.locator("#card_name").fill("Robin Buyer");
    await Promise.all([page.waitForURL(/\/verify$/), page.getByRole("button", { name: /^Pay · / }).click()]);
    expect(await page.locator("h1").innerText()).toBe("Verify your payment");
    expect(await page.locator("main").innerText()).not.toContain("return to");

    await Promise.all([
      page.waitForResponse((r) => r.request().method() === "GET" && /\/verify$/.test(r.url())),
      page.getByRole("button", { name: "Verify", exact: true }).click(),
    ]);
    expect(await page.locator("h1").innerText()).toBe("Order placed");
    await expectNoSeriousAxeViolations(page);

    const read = await agent.call("get_checkout", { id: checkout.id });
    expect(read.status).toBe("completed");
    expect(await page.getByRole("link", { name: "See your order" }).getAttribute("href")).toBe(
      read.order.permalink_url,
    );
    // Placed on the buyer's page, the order is still the agent's platform's.
    const order = await agent.call("get_order", { id: read.order.id });
    expect(order.id).toBe(read.order.id);
  });
});
