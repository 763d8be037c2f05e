/**
 * The one-pass checkout on a phone (issue 25 item 1), in Chromium against the real server:
 * an agent hands off a checkout holding only items; the buyer types everything once (email,
 * address, card) and presses the one button: Continue, then Pay. A mistyped email is said at
 * the top (focused) and next to the field, and every typed value is still there. A declined
 * card's message is the first thing in view after the page comes back, without scrolling.
 * Without JavaScript the same form places the order. axe is clean on each page.
 */
import type { BrowserContext, Page } from "playwright-core";
import { expect, it } from "vitest";
import { describeBrowser, expectNoSeriousAxeViolations, type Harness, screenshot, useHarness } from "./harness";
import { readyCheckout, SHIPPING_ADDRESS, twoLineItems } from "./sessions";

const TYPED: ReadonlyArray<readonly [string, string]> = [
  ["#contact-email", "robin@"],
  ["#address-first_name", "Robin"],
  ["#address-last_name", "Buyer"],
  ["#address-street_address", SHIPPING_ADDRESS.street_address],
  ["#address-address_locality", SHIPPING_ADDRESS.address_locality],
  ["#address-address_region", SHIPPING_ADDRESS.address_region],
  ["#address-postal_code", SHIPPING_ADDRESS.postal_code],
  ["#card_number", "4242 4242 4242 4242"],
  ["#card_expiry", "12/34"],
  ["#card_cvc", "123"],
  ["#card_name", "Robin Buyer"],
];

async function typeEverything(page: Page): Promise<void> {
  for (const [selector, value] of TYPED) await page.locator(selector).fill(value);
  await page.locator("#address-address_country").selectOption(SHIPPING_ADDRESS.address_country);
}

/** Every typed field still shows what was typed. */
async function expectKept(page: Page, changes: Record<string, string> = {}): Promise<void> {
  for (const [selector, value] of TYPED) {
    expect(await page.locator(selector).inputValue(), selector).toBe(changes[selector] ?? value);
  }
  expect(await page.locator("#address-address_country").inputValue()).toBe(SHIPPING_ADDRESS.address_country);
}

/** Presses the one button and waits for the page the POST answers with. */
async function press(page: Page, name: RegExp): Promise<void> {
  await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST"),
    page.getByRole("button", { name }).click(),
  ]);
  await page.waitForLoadState("domcontentloaded");
}

/** The element is wholly inside the viewport as the page is now (no scrolling). */
async function inView(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0;
  });
}

/** A phone context without JavaScript, offline like the harness's. */
async function phoneWithoutScript(h: Harness): Promise<BrowserContext> {
  const context = await h.browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    javaScriptEnabled: false,
  });
  const origin = new URL(h.baseUrl).origin;
  await context.route(
    (url) => url.origin !== origin,
    (route) => route.abort("blockedbyclient"),
  );
  return context;
}

describeBrowser("the one-pass checkout on a phone", () => {
  const h = useHarness();

  it("types everything once, a mistyped email keeps every field, Continue then Pay places the order", async () => {
    const agent = await h.agent({ anonymous: true });
    const started = await agent.call("create_checkout", { checkout: { line_items: await twoLineItems(agent) } });
    const page = await (await h.phone()).newPage();
    expect((await page.goto(started.continue_url))?.status()).toBe(200);
    expect(await page.locator("[aria-invalid=true], [role=alert]").count()).toBe(0);
    await typeEverything(page);

    await press(page, /^Continue$/);
    await expectKept(page);
    const summary = page.locator("#error-summary");
    expect(await summary.innerText()).toContain("Enter an email address like name@example.com.");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("error-summary");
    expect(await inView(page, "#error-summary")).toBe(true);
    expect(await page.locator("#contact-email").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#contact-email").getAttribute("aria-describedby")).toBe("err-contact-email");
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, "checkout-one-pass-error");
    // The summary's link takes the buyer to the field.
    await summary.getByRole("link").first().click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("contact-email");

    await page.locator("#contact-email").fill("robin@example.com");
    await press(page, /^Continue$/);
    await expectKept(page, { "#contact-email": "robin@example.com" });
    const ready = await agent.call("get_checkout", { id: started.id });
    expect(ready.status).toBe("ready_for_complete");
    const total = ready.totals.find((t: { type: string }) => t.type === "total").amount as number;
    const shown = new Intl.NumberFormat("en-US", { style: "currency", currency: ready.currency }).format(total / 100);
    expect(await page.locator("#pay-button").innerText()).toBe(`Pay · ${shown}`);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, "checkout-one-pass");

    await Promise.all([page.waitForURL(/\?n=placed$/), page.getByRole("button", { name: /^Pay · / }).click()]);
    expect(await page.locator("h1").innerText()).toBe("Thank you for your order");
    const done = await agent.call("get_checkout", { id: started.id });
    expect(done.status).toBe("completed");
    expect(done.buyer).toMatchObject({ email: "robin@example.com", first_name: "Robin", last_name: "Buyer" });
    expect(done.payment.instruments[0].display).toEqual({ brand: "visa", last_digits: "4242" });
  });

  it("a declined card: after the reload the decline is the first thing in view, focused, with the card fields kept", async () => {
    const agent = await h.agent({ anonymous: true });
    const checkout = await readyCheckout(agent);
    const page = await (await h.phone()).newPage();
    await page.goto(checkout.continue_url);
    await page.locator("#card_number").fill("4000 0000 0000 0002");
    await page.locator("#card_expiry").fill("12/34");
    await page.locator("#card_cvc").fill("123");
    await page.locator("#card_name").fill("Robin Buyer");
    // The Pay button is at the end of a long page: the buyer scrolled there to press it.
    await press(page, /^Pay · /);
    expect(await inView(page, "#error-summary")).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const alert = page.getByRole("alert");
    expect(await alert.innerText()).toContain("The payment was declined and nothing was charged.");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("error-summary");
    expect(await page.locator("main").innerText()).not.toContain("Ready to place");
    expect(await page.locator("#card_number").inputValue()).toBe("4000 0000 0000 0002");
    expect(await page.locator("#card_name").inputValue()).toBe("Robin Buyer");
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, "checkout-declined");

    await page.locator("#card_number").fill("4242 4242 4242 4242");
    await Promise.all([page.waitForURL(/\?n=placed$/), page.getByRole("button", { name: /^Pay · / }).click()]);
    expect((await agent.call("get_checkout", { id: checkout.id })).status).toBe("completed");
  });

  it("without JavaScript the same form places the order: Continue, then Pay", async () => {
    const agent = await h.agent({ anonymous: true });
    const started = await agent.call("create_checkout", { checkout: { line_items: await twoLineItems(agent) } });
    const page = await (await phoneWithoutScript(h)).newPage();
    await page.goto(started.continue_url);
    await typeEverything(page);
    await page.locator("#contact-email").fill("robin@example.com");
    await press(page, /^Continue$/);
    await expectKept(page, { "#contact-email": "robin@example.com" });
    await Promise.all([page.waitForURL(/\?n=placed$/), page.getByRole("button", { name: /^Pay · / }).click()]);
    expect(await page.locator("h1").innerText()).toBe("Thank you for your order");
    expect((await agent.call("get_checkout", { id: started.id })).status).toBe("completed");
  });
});
