/**
 * The merchant console in Chromium (issue 13 items 1 and 5): a stranger opening /admin/ is
 * sent to sign in; a wrong token is refused; the admin token signs in to the dashboard
 * (after an agent placed an order), which has no serious axe violation on a desktop or a
 * phone; signing out closes the console again.
 */
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import type { Json } from "./agent";
import { describeBrowser, expectNoSeriousAxeViolations, screenshot, useHarness } from "./harness";
import { placeOrder, readyCheckout } from "./sessions";

/** `.dev.vars`' development admin token, which the local server runs with. */
const ADMIN_TOKEN = "dev-admin-token";

async function signIn(page: Page, token: string): Promise<void> {
  await page.getByLabel("Admin token").fill(token);
  await Promise.all([page.waitForLoadState("load"), page.getByRole("button", { name: "Sign in" }).click()]);
}

describeBrowser("console sign-in and dashboard", () => {
  const h = useHarness();

  it("signs in with the admin token, shows the dashboard, and signs out", async () => {
    const agent = await h.agent();
    const placed: Json = await placeOrder(agent, await readyCheckout(agent));
    expect(placed.order?.id).toMatch(/^ord_/);

    for (const context of [await h.desktop(), await h.phone()]) {
      const page = await context.newPage();
      await page.goto(`${h.baseUrl}/admin/`);
      expect(new URL(page.url()).pathname).toBe("/admin/sign-in");
      await expectNoSeriousAxeViolations(page);

      await signIn(page, "not-the-token");
      await expect.poll(() => page.getByRole("alert").textContent()).toContain("That is not the admin token.");

      await signIn(page, ADMIN_TOKEN);
      expect(new URL(page.url()).pathname).toBe("/admin/");
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Dashboard");
      expect(await page.locator("header.console .mode").textContent()).toBe("Test mode");
      for (const chart of ["chart-orders", "chart-revenue", "chart-status", "chart-products"])
        expect(await page.locator(`svg#${chart}[role=img] > title`).count()).toBe(1);
      // The session cookie is not readable by scripts.
      expect(await page.evaluate(() => document.cookie)).not.toContain("ucp_console");
      await expectNoSeriousAxeViolations(page);
      await screenshot(page, "console-dashboard");

      await Promise.all([page.waitForURL(/\/admin\/sign-in$/), page.getByRole("button", { name: "Sign out" }).click()]);
      await page.goto(`${h.baseUrl}/admin/`);
      expect(new URL(page.url()).pathname).toBe("/admin/sign-in");
      await page.close();
    }
  });
});
