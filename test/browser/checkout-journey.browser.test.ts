/**
 * Browser journey 1 (issue 11): an anonymous agent (the MCP SDK client) starts a checkout
 * with an item and the buyer's email but no address and hands off its continue_url; the
 * buyer, in Chromium, fills in the address and the test card 4242 4242 4242 4242 in the
 * one form, presses Continue, picks Express (the totals and the Pay button follow without
 * a reload), presses Pay and sees the confirmation with the order link; the agent's
 * get_checkout then shows the checkout completed with that order (with Express shipping).
 */
import { expect, it } from "vitest";
import { describeBrowser, expectNoSeriousAxeViolations, screenshot, useHarness } from "./harness";
import { BUYER_EMAIL, SHIPPING_ADDRESS, twoLineItems } from "./sessions";

describeBrowser("checkout journey: agent hands off, buyer pays in the browser", () => {
  const h = useHarness();

  it("the buyer completes the agent's checkout at continue_url and the agent sees the order", async () => {
    const agent = await h.agent({ anonymous: true });
    const [line] = await twoLineItems(agent);
    const started = await agent.call("create_checkout", {
      checkout: { line_items: [line], buyer: { email: BUYER_EMAIL } },
    });
    expect(started.status).toBe("incomplete");
    expect(started.continue_url).toMatch(new RegExp(`^${h.baseUrl}/checkout/[A-Za-z0-9_-]+$`));

    const desktop = await h.desktop();
    const page = await desktop.newPage();
    const opened = await page.goto(started.continue_url);
    expect(opened?.status()).toBe(200);
    expect(await page.locator("h1").innerText()).toBe("Checkout");
    expect(await page.locator("#contact-email").inputValue()).toBe(BUYER_EMAIL);
    // Nothing is red before the buyer has sent anything; the button says what comes next.
    expect(await page.locator("[aria-invalid=true]").count()).toBe(0);
    expect(await page.locator("#pay-button").innerText()).toBe("Continue");

    await page.locator("#address-first_name").fill("Robin");
    await page.locator("#address-last_name").fill("Buyer");
    await page.locator("#address-street_address").fill(SHIPPING_ADDRESS.street_address);
    await page.locator("#address-address_locality").fill(SHIPPING_ADDRESS.address_locality);
    await page.locator("#address-address_region").fill(SHIPPING_ADDRESS.address_region);
    await page.locator("#address-postal_code").fill(SHIPPING_ADDRESS.postal_code);
    await page.locator("#address-address_country").selectOption(SHIPPING_ADDRESS.address_country);
    await page.locator("#card_number").fill("4242 4242 4242 4242");
    await page.locator("#card_expiry").fill("12/34");
    await page.locator("#card_cvc").fill("123");
    await page.locator("#card_name").fill("Robin Buyer");
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST" && r.url() === started.continue_url),
      page.getByRole("button", { name: "Continue" }).click(),
    ]);
    await page
      .locator("#pay-button")
      .filter({ hasText: /^Pay · / })
      .waitFor();
    expect(await page.locator("#address-street_address").inputValue()).toBe(SHIPPING_ADDRESS.street_address);
    expect(await page.locator("#card_number").inputValue()).toBe("4242 4242 4242 4242");

    // Express shipping: the script sends the form in the background and the totals and the button follow.
    const standard = await page.locator("#pay-button").innerText();
    await page.getByLabel(/Express Shipping/).check();
    await expect.poll(() => page.locator("#pay-button").innerText()).not.toBe(standard);
    expect(await page.locator("tr[data-total=fulfillment] td").innerText()).toBe("$15.00");
    expect(page.url()).toBe(started.continue_url);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, "checkout");

    const phone = await h.phone();
    const small = await phone.newPage();
    await small.goto(started.continue_url);
    await expectNoSeriousAxeViolations(small);
    await screenshot(small, "checkout");

    await Promise.all([page.waitForURL(/\?n=placed$/), page.getByRole("button", { name: /^Pay · / }).click()]);
    expect(await page.locator("h1").innerText()).toBe("Thank you for your order");
    const orderId = (await page.locator(".order-id").innerText()).trim();
    const link = page.getByRole("link", { name: "View your order status" });
    expect(await link.isVisible()).toBe(true);

    const read = await agent.call("get_checkout", { id: started.id });
    expect(read.status).toBe("completed");
    // The confirmation shows the short order number (the order's label), not the API id.
    expect(read.order.label).toBe(orderId);
    expect(await link.getAttribute("href")).toBe(read.order.permalink_url);
    expect(read.payment.instruments[0].display).toEqual({ brand: "visa", last_digits: "4242" });
    expect(read.fulfillment.methods[0].groups[0].selected_option_id).toBe("express");
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, "checkout-confirmation");

    await small.goto(page.url());
    expect(await small.locator("h1").innerText()).toBe("Thank you for your order");
    await expectNoSeriousAxeViolations(small);
    await screenshot(small, "checkout-confirmation");
  });
});
