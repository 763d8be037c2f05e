/**
 * Console behaviour a merchant relies on, in Chromium (issue 26 item 4): issuing an API key is
 * POST then 303, so reloading the page that shows the key mints nothing and shows the secret no
 * more; signing out ends the session on the server, so the same cookie copied into another
 * browser before sign-out is refused after it.
 */
import { expect, it } from "vitest";
import { AGENT_PROFILE } from "./agent";
import { signedInPage } from "./console-sign-in";
import { describeBrowser, expectNoSeriousAxeViolations, useHarness } from "./harness";

describeBrowser("console session and key issue", () => {
  const h = useHarness();

  it("a reloaded 'API key issued' page issues no second key and no longer shows the secret", async () => {
    const page = await signedInPage(await h.desktop(), h.baseUrl);
    await page.goto(`${h.baseUrl}/admin/platforms`);
    const label = `Reload agent ${Date.now()}`;
    await page.getByLabel("Label").fill(label);
    await page.getByLabel("Platform profile URL").fill(AGENT_PROFILE);
    await page.getByRole("button", { name: "Issue key" }).click();
    await page.locator("h1", { hasText: "API key issued" }).waitFor();
    // The browser followed a 303: the address is a GET with the key's id, never its secret.
    const url = new URL(page.url());
    expect(url.pathname).toBe("/admin/platforms/issued");
    expect(url.searchParams.get("id")).toMatch(/^key_[A-Za-z0-9_-]{12}$/);
    const key = await page.locator("input[data-api-key]").inputValue();
    expect(key).toMatch(/^ucpk_/);
    expect(page.url()).not.toContain(key);
    await expectNoSeriousAxeViolations(page);

    // A reload is a GET now (no "resubmit the form?"): nothing is issued, the secret is gone.
    const reloaded = await page.reload();
    expect(reloaded?.request().method()).toBe("GET");
    await page.locator("h1", { hasText: "API key already shown" }).waitFor();
    expect(await page.content()).not.toContain(key);
    await expectNoSeriousAxeViolations(page);
    await page.getByRole("link", { name: "Back to platforms" }).click();
    await page.locator("h1", { hasText: "Platforms" }).waitFor();
    expect(await page.locator("tr", { hasText: label }).count()).toBe(1);
  });

  it("after sign-out, a copy of the session cookie in another browser is refused", async () => {
    const context = await h.desktop();
    const page = await signedInPage(context, h.baseUrl);
    const cookies = await context.cookies(`${h.baseUrl}/admin/`);
    expect(cookies.map((c) => c.name)).toContain("ucp_console");

    const other = await h.desktop();
    await other.addCookies(cookies);
    const thief = await other.newPage();
    await thief.goto(`${h.baseUrl}/admin/orders`);
    await thief.locator("h1", { hasText: "Orders" }).waitFor();

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${h.baseUrl}/admin/sign-in`);
    expect(await context.cookies(`${h.baseUrl}/admin/`)).toEqual([]);

    // The copy still holds the signed, unexpired cookie; the server no longer honours it.
    expect((await other.cookies(`${h.baseUrl}/admin/`)).map((c) => c.name)).toContain("ucp_console");
    await thief.goto(`${h.baseUrl}/admin/orders`);
    expect(new URL(thief.url()).pathname).toBe("/admin/sign-in");
    await thief.locator("label", { hasText: "Admin token" }).waitFor();
    const api = await thief.request.get(`${h.baseUrl}/admin/orders`, { headers: { accept: "application/json" } });
    expect(api.status()).toBe(401);
  });
});
