/**
 * The console's platforms page in Chromium (issue 13): the merchant issues a key (its secret
 * shown once), an agent (the MCP SDK client) shops with it, the list shows its last use, the
 * merchant revokes it and the agent is refused.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, it } from "vitest";
import { AGENT_PROFILE } from "./agent";
import { signedInPage } from "./console-sign-in";
import { describeBrowser, expectNoSeriousAxeViolations, screenshot, useHarness } from "./harness";

function agentWith(baseUrl: string, key: string) {
  const client = new Client({ name: "console-platforms-test", version: "0.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/ucp/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  const search = () =>
    client.callTool({
      name: "search_catalog",
      arguments: { meta: { "ucp-agent": { profile: AGENT_PROFILE } }, catalog: { query: "jacket" } },
    });
  return { client, connect: () => client.connect(transport), search };
}

describeBrowser("console platforms", () => {
  const h = useHarness();

  it("issues a key shown once; an agent uses it; revoked, the agent is refused", async () => {
    const page = await signedInPage(await h.desktop(), h.baseUrl);
    await page.goto(`${h.baseUrl}/admin/platforms`);
    await expectNoSeriousAxeViolations(page);
    const label = `Browser agent ${Date.now()}`;
    await page.getByLabel("Label").fill(label);
    await page.getByLabel("Platform profile URL").fill(AGENT_PROFILE);
    await page.getByRole("button", { name: "Issue key" }).click();
    await page.locator("h1", { hasText: "API key issued" }).waitFor();
    const key = await page.locator("input[data-api-key]").inputValue();
    expect(key).toMatch(/^ucpk_[A-Za-z0-9_-]{43}$/);
    await expectNoSeriousAxeViolations(page);

    const agent = agentWith(h.baseUrl, key);
    await agent.connect();
    const found = await agent.search();
    expect(found.isError).toBeFalsy();
    expect((found.structuredContent as { products: unknown[] }).products.length).toBeGreaterThan(0);

    await page.goto(`${h.baseUrl}/admin/platforms`);
    expect(await page.content()).not.toContain(key);
    const row = page.locator("tr", { hasText: label });
    expect(await row.innerText()).toContain(AGENT_PROFILE);
    expect(await row.locator("td").nth(3).innerText()).toMatch(
      /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d [AP]M UTC$/,
    );
    await screenshot(page, "console-platforms");

    await row.getByRole("button", { name: /^Revoke/ }).click();
    await page.locator("p.notice", { hasText: "revoked" }).waitFor();
    expect(await page.locator("tr", { hasText: label }).innerText()).toMatch(/Revoked/);
    await expectNoSeriousAxeViolations(page);

    await expect(agent.search()).rejects.toThrow(/401|invalid_api_key|unknown or revoked/);
    await agent.client.close();
  });
});
