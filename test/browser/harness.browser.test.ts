/**
 * The harness itself: axe runs under a page's strict Content-Security-Policy and fails on a
 * serious violation (else the sweep's "no serious violation" could pass without axe having
 * run), and the phone context is the phone the pages are judged on.
 */
import type { BrowserContext } from "playwright-core";
import { expect, it } from "vitest";
import { describeBrowser, expectNoSeriousAxeViolations, useHarness } from "./harness";

const STRICT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";
const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Probe</title></head><body><main><h1>Probe</h1>${body}</main></body></html>`;

describeBrowser("browser harness", () => {
  const h = useHarness();

  /** `html` served at the real server's origin with a script-forbidding CSP. */
  async function probe(html: string, context?: BrowserContext) {
    context ??= await h.desktop();
    const tab = await context.newPage();
    await tab.route(`${h.baseUrl}/__probe`, (route) =>
      route.fulfill({
        status: 200,
        contentType: "text/html",
        headers: { "content-security-policy": STRICT_CSP },
        body: html,
      }),
    );
    await tab.goto(`${h.baseUrl}/__probe`);
    return { tab, close: () => context.close() };
  }

  it("axe runs under a strict CSP and passes a clean page", async () => {
    const { tab, close } = await probe(page("<p>Nothing wrong here.</p>"));
    try {
      await expectNoSeriousAxeViolations(tab);
      // The CSP held: a page script would have been refused.
      expect(await tab.evaluate(() => document.querySelectorAll("script").length)).toBe(0);
    } finally {
      await close();
    }
  });

  it("axe fails a page with serious or critical violations, naming them", async () => {
    const { tab, close } = await probe(page('<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><input>'));
    try {
      await expect(expectNoSeriousAxeViolations(tab)).rejects.toThrow(/image-alt[\s\S]*label|label[\s\S]*image-alt/);
    } finally {
      await close();
    }
  });

  it("phone() is a 390 px wide touch screen", async () => {
    const { tab, close } = await probe(page("<p>Small.</p>"), await h.phone());
    try {
      const screen = await tab.evaluate(() => [innerWidth, navigator.maxTouchPoints > 0, devicePixelRatio]);
      expect(screen).toEqual([390, true, 2]);
    } finally {
      await close();
    }
  });
});
