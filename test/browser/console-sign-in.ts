/** Signs a browser context into the local server's console with `.dev.vars`' admin token, as a merchant does. */
import type { BrowserContext, Page } from "playwright-core";

export const DEV_ADMIN_TOKEN = "dev-admin-token";

export async function signedInPage(context: BrowserContext, baseUrl: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${baseUrl}/admin/sign-in`);
  await page.getByLabel("Admin token").fill(DEV_ADMIN_TOKEN);
  await Promise.all([page.waitForURL(`${baseUrl}/admin/`), page.locator("main form button[type=submit]").click()]);
  return page;
}
