/**
 * The console's catalog upload in Chromium (issues 13, 26): the merchant uploads a broken CSV,
 * the form's script sends it and opens the load's page, which shows every bad row named by
 * file line and variant id once the check ends, and the store keeps serving the catalog it had.
 */
import path from "node:path";
import { expect, it } from "vitest";
import { signedInPage } from "./console-sign-in";
import { describeBrowser, expectNoSeriousAxeViolations, screenshot, useHarness } from "./harness";

const BROKEN = path.resolve(import.meta.dirname, "../node/fixtures/catalog-broken.csv");
const ROWS = [
  'line 4 (var_fx_tee_m): missing value for required column "price"',
  'line 6 (var_fx_mug_orange): currency must be a 3-letter ISO 4217 code, got "US$"',
  'line 7 (var_fx_mug_green): stock must be a non-negative integer, got "-3"',
  'line 8 (var_fx_tee_s): duplicate variant_id "var_fx_tee_s" (first used on line 2)',
  "line 9: malformed CSV: a double quote inside an unquoted field",
];

describeBrowser("console catalog", () => {
  const h = useHarness();

  for (const viewport of ["desktop", "phone"] as const) {
    it(`a broken CSV upload names every bad row and loads nothing (${viewport})`, async () => {
      const page = await signedInPage(await h[viewport](), h.baseUrl);
      await page.goto(`${h.baseUrl}/admin/catalog`);
      const before = await page.locator("main p.muted").first().innerText();
      expect(before).toMatch(/^68 products in USD/);
      await expectNoSeriousAxeViolations(page);

      await page.getByLabel(/Catalog file/).setInputFiles(BROKEN);
      await page.getByRole("button", { name: "Check and load" }).click();
      const problems = page.locator("#upload-problems");
      await problems.waitFor();
      const text = await problems.innerText();
      for (const row of ROWS) expect(text).toContain(row);
      expect(await page.locator("#load-status").innerText()).toContain(
        "catalog-broken.csv: 5 problems; nothing was written.",
      );
      expect(await page.title()).toMatch(/^Catalog load: catalog-broken\.csv/);
      expect(new URL(page.url()).pathname).toMatch(/^\/admin\/catalog\/loads\/[0-9a-z]{12}$/);
      await expectNoSeriousAxeViolations(page);
      // Nothing sideways on a phone: every row's text wraps.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        page.viewportSize()?.width ?? 0,
      );
      await screenshot(page, "console-catalog");

      await page.goto(`${h.baseUrl}/admin/catalog`);
      expect(await page.locator("main p.muted").first().innerText()).toBe(before);
    });
  }
});
