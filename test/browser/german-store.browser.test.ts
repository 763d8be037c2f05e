/**
 * A German store (issue 25 items 2, 3): MERCHANT_LOCALE=de-DE with prices that include tax.
 * The buyer, in Chromium, picks Color and Size on the product page (the picker says at once
 * that a combination does not exist), adds to the cart (the header counts it), goes to the
 * checkout, and reads the order page: every label German, `lang="de"`, gross prices with
 * "inkl. VAT (19%)", axe clean. Screenshots: docs/screenshots/german-*.png (UCP_SCREENSHOTS=1).
 */
import { type Browser, type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type LocalServer, startServer } from "../e2e/server";
import { type Agent, connectAgent, type Json } from "./agent";
import { findChromium } from "./chromium";
import { describeBrowser, expectNoSeriousAxeViolations, screenshot } from "./harness";
import { placeOrder } from "./sessions";

const TAX = {
  prices_include_tax: true,
  shipping_taxable: true,
  rates: [{ country: "DE", rate_bps: 1900, label: "VAT (19%)" }],
};
const BERLIN = {
  first_name: "Robin",
  last_name: "Käufer",
  street_address: "Unter den Linden 1",
  address_locality: "Berlin",
  postal_code: "10117",
  address_country: "DE",
};

describeBrowser("a German store whose prices include tax", () => {
  let server: LocalServer | undefined;
  let browser: Browser | undefined;
  let agent: Agent | undefined;
  const base = () => server?.baseUrl ?? "";

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ vars: { MERCHANT_LOCALE: "de-DE", TAX: JSON.stringify(TAX) } }),
      chromium.launch({ executablePath: findChromium() as string, args: ["--no-sandbox"] }),
    ]);
    agent = await connectAgent(base());
  });
  afterAll(async () => {
    await agent?.close();
    await browser?.close();
    await server?.stop();
  });

  async function desktop(): Promise<BrowserContext> {
    const context = await (browser as Browser).newContext({ viewport: { width: 1280, height: 800 } });
    const origin = new URL(base()).origin;
    await context.route(
      (url) => url.origin !== origin,
      (route) => route.abort("blockedbyclient"),
    );
    return context;
  }

  it("product page → cart → checkout in German; the pickers say what exists", async () => {
    const page = await (await desktop()).newPage();
    await page.goto(`${base()}/products/runner-pro`);
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
    const add = page.getByRole("button", { name: "In den Warenkorb" });
    const status = page.locator("#choice-status");

    // Blue comes in 8, 9, 10 and 12: Blue / 11 does not exist, and the page says so at once.
    await page.getByRole("radio", { name: "Blue" }).check();
    await page.getByRole("radio", { name: "11" }).check();
    await expect.poll(() => status.innerText()).toBe("Blue / 11 gibt es nicht. Wählen Sie eine andere Kombination.");
    expect(await add.isDisabled()).toBe(true);
    await page.getByRole("radio", { name: /^Green/ }).check();
    await page.getByRole("radio", { name: "9" }).check();
    await expect.poll(() => status.innerText()).toBe("Green / 9 ist ausverkauft.");
    await page.getByRole("radio", { name: "Red" }).check();
    await expect.poll(() => status.innerText()).toMatch(/^Red \/ 9 — [\d.,]+\s\$ — Auf Lager$/);
    expect(await add.isDisabled()).toBe(false);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, "german-product");

    await Promise.all([page.waitForURL(/\/cart\/[A-Za-z0-9_-]+$/), add.click()]);
    expect(await page.locator("h1").innerText()).toBe("Ihr Warenkorb");
    expect(await page.getByRole("link", { name: "Warenkorb, 1 Artikel" }).count()).toBe(1);
    expect(await page.locator("main").innerText()).toContain("Red / 9");
    expect(await page.locator("main").innerText()).toContain("Preise inkl. MwSt.");
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, "german-cart");

    await Promise.all([
      page.waitForURL(/\/checkout\/[A-Za-z0-9_-]+$/),
      page.getByRole("button", { name: "Zur Kasse" }).click(),
    ]);
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
    expect(await page.locator("h1").innerText()).toBe("Kasse");
    expect(await page.locator("#pay-button").innerText()).toBe("Weiter");

    // The buyer fills in the one form in German and pays: the button becomes "Bezahlen · <gross>".
    await page.getByLabel("E-Mail").fill("kaeufer@example.com");
    await page.getByLabel("Vorname").fill(BERLIN.first_name);
    await page.getByLabel("Nachname").fill(BERLIN.last_name);
    await page.getByLabel("Straße und Hausnummer").fill(BERLIN.street_address);
    await page.getByLabel("Ort", { exact: true }).fill(BERLIN.address_locality);
    await page.getByLabel("Postleitzahl").fill(BERLIN.postal_code);
    await page.getByLabel("Land", { exact: true }).selectOption(BERLIN.address_country);
    await page.getByLabel("Kartennummer").fill("4242 4242 4242 4242");
    await page.getByLabel("Ablaufdatum (MM/JJ)").fill("12/34");
    await page.getByLabel("Prüfnummer").fill("123");
    await page.getByLabel("Name auf der Karte").fill("Robin Käufer");
    await page.getByRole("button", { name: "Weiter" }).click();
    await page
      .locator("#pay-button")
      .filter({ hasText: /^Bezahlen · / })
      .waitFor();
    const summary = page.locator("#order-totals");
    expect(await summary.locator("tr.total th").innerText()).toBe("Gesamt");
    expect(await summary.locator("tr.included th").innerText()).toBe("inkl. VAT (19%)");
    const gross = await summary.locator("tr.total td").innerText();
    expect(await page.locator("#pay-button").innerText()).toBe(`Bezahlen · ${gross}`);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, "german-checkout");

    await Promise.all([page.waitForURL(/\?n=placed$/), page.getByRole("button", { name: /^Bezahlen · / }).click()]);
    expect(await page.locator("h1").innerText()).toBe("Vielen Dank für Ihre Bestellung");
    await Promise.all([
      page.waitForURL(/\/orders\//),
      page.getByRole("link", { name: "Bestellstatus ansehen" }).click(),
    ]);
    expect(await page.locator("h1").innerText()).toBe("Ihre Bestellung");
    expect(await page.locator("table.totals tr.total td.num").innerText()).toBe(gross);
    expect(await page.locator("table.totals tr.included td").first().innerText()).toBe("inkl. VAT (19%)");
    await expectNoSeriousAxeViolations(page);
  });

  it("the order page: German, gross total with the VAT it includes", async () => {
    const a = agent as Agent;
    const started = await a.call("create_checkout", {
      checkout: { line_items: [{ item: { id: "var_abc123_blue_10" }, quantity: 1 }] },
    });
    const ready = await a.call("update_checkout", {
      id: started.id,
      checkout: {
        line_items: started.line_items.map((l: Json) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity })),
        buyer: { email: "kaeufer@example.com", first_name: "Robin" },
        fulfillment: { methods: [{ type: "shipping", destinations: [BERLIN] }] },
      },
    });
    expect(ready.status).toBe("ready_for_complete");
    const done = await placeOrder(a, ready);
    const total = ready.totals.find((t: Json) => t.type === "total");
    const vat = total.lines.find((l: Json) => l.type === "tax");
    expect(vat.display_text).toBe("incl. VAT (19%)");

    const page = await (await desktop()).newPage();
    await page.goto(done.order.permalink_url);
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
    expect(await page.locator("h1").innerText()).toBe("Ihre Bestellung");
    const euros = (minor: number) =>
      new Intl.NumberFormat("de-DE", { style: "currency", currency: "USD" }).format(minor / 100);
    const totals = page.locator("table.totals");
    expect(await totals.locator("tr.total").innerText()).toBe(`Gesamt\t${euros(total.amount)}`);
    expect(await totals.locator("tr.included").innerText()).toBe(`inkl. VAT (19%)\t${euros(vat.amount)}`);
    expect(await page.locator("main").innerText()).toContain("Bestätigt, Versand wird vorbereitet");
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, "german-order");
  });
});
