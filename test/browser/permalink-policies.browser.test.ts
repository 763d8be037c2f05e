/**
 * In Chromium against the local server: a shopping permalink opens the cart it built (the
 * browser follows the 303), the footer of every page and the checkout link the store's
 * policies, a policy's own page opens from the footer, and none of these pages has a serious
 * axe violation.
 */
import { expect, it } from "vitest";
import { describeBrowser, expectNoSeriousAxeViolations, useHarness } from "./harness";
import { readyCheckout, twoLineItems } from "./sessions";

describeBrowser("permalinks and store policies in the browser", () => {
  const h = useHarness();

  it("a permalink opens its cart; footer, checkout and policy page show the policies", async () => {
    const agent = await h.agent({ anonymous: true });
    const [line] = await twoLineItems(agent);
    const page = await (await h.desktop()).newPage();

    const opened = await page.goto(`${h.baseUrl}/buy/${line.item.id}:2?utm_source=qr`);
    expect(opened?.status()).toBe(200);
    expect(page.url()).toMatch(new RegExp(`^${h.baseUrl}/cart/[A-Za-z0-9_-]+\\?utm_source=qr$`));
    expect(await page.locator(`input[name^="qty."]`).first().inputValue()).toBe("2");
    const footer = page.getByRole("navigation", { name: "Store policies" });
    expect(await footer.getByRole("link").allInnerTexts()).toEqual(["Returns", "Shipping", "Privacy", "Terms"]);
    await expectNoSeriousAxeViolations(page);

    const checkout = await readyCheckout(agent);
    await page.goto(checkout.continue_url);
    const section = page.getByRole("region", { name: "Store policies" });
    expect(await section.getByRole("link", { name: "Returns" }).getAttribute("href")).toBe("/policies/returns");
    expect(await section.innerText()).toMatch(/within 30 days/);
    await expectNoSeriousAxeViolations(page);

    await Promise.all([
      page.waitForURL(/\/policies\/shipping$/),
      footer.getByRole("link", { name: "Shipping" }).click(),
    ]);
    expect(await page.locator("h1").innerText()).toBe("Shipping");
    await expectNoSeriousAxeViolations(page);
  });
});
