/**
 * The MCP Apps views in the store's language (MERCHANT_LOCALE): resources/read, through the
 * Worker with the store's env, serves each view with `lang`, title, first words and every label
 * the script shows from the message catalogs; a locale without a catalog gets English.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import type { Json } from "../helpers/checkout";

const octet = () => Math.floor(Math.random() * 254) + 1;
const IP = `10.${octet()}.${octet()}.${octet()}`;

async function viewIn(locale: string, kind: string): Promise<{ html: string; settings: Json }> {
  const request = new Request("https://shop.example.com/ucp/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "cf-connecting-ip": IP },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "resources/read",
      params: { uri: `ui://ucp-worker/${kind}` },
    }),
  });
  const res = await worker.fetch(
    request as Request<unknown, IncomingRequestCfProperties>,
    { ...env, MERCHANT_LOCALE: locale } as Env,
  );
  expect(res.status).toBe(200);
  const html: string = ((await res.json()) as Json).result.contents[0].text;
  const config = /<script type="application\/json" id="ucp-view-config">(.*?)<\/script>/s.exec(html)?.[1];
  return { html, settings: JSON.parse(config ?? "null") };
}

describe("MCP Apps views in a German store (de-DE)", () => {
  it("the checkout view: lang=de, German title, loading line, status words and pay link", async () => {
    const { html, settings } = await viewIn("de-DE", "checkout");
    expect(html).toContain('<html lang="de">');
    expect(html).toMatch(/<title>Bestellübersicht · /);
    expect(html).toContain('<p class="muted">Wird geladen …</p>');
    expect(settings.locale).toBe("de-DE");
    expect(settings.labels.checkout).toMatchObject({
      heading: "Bestellübersicht",
      pay: "Weiter zur Zahlung",
      status: { ready_for_complete: "Bereit zur Zahlung", incomplete: "Es fehlen noch Angaben" },
    });
    // Totals as the German pages name them, and the store's "inkl." for an included tax.
    expect(settings.labels.common.totals).toMatchObject({ subtotal: "Zwischensumme", total: "Gesamt" });
    expect(settings.labels.common.included).toBe("inkl. {label}");
    expect(html).not.toContain("Checkout summary");
  });

  it("search results, product and cart views: the pages' words for the same things", async () => {
    const search = (await viewIn("de-DE", "search-results")).settings.labels["search-results"];
    expect(search).toMatchObject({ heading: "Suchergebnisse", addToCart: "In den Warenkorb", from: "Ab {price}" });
    // Plural forms travel with the locale whose rules pick among them.
    expect(search.count).toEqual({ locale: "de-DE", forms: { one: "{count} Produkt", other: "{count} Produkte" } });
    const product = (await viewIn("de-DE", "product")).settings.labels.product;
    expect(product).toMatchObject({ variant: "Variante", outOfStock: "Ausverkauft" });
    const { html, settings } = await viewIn("de-DE", "cart");
    expect(html).toMatch(/<title>Warenkorb · /);
    expect(settings.labels.cart).toMatchObject({ heading: "Ihr Warenkorb", checkout: "Zur Kasse" });
  });

  it("Japanese for ja-JP; English (lang=en) for a locale without a catalog", async () => {
    const ja = await viewIn("ja-JP", "cart");
    expect(ja.html).toContain('<html lang="ja">');
    expect(ja.settings.labels.common.loading).toBe("読み込み中…");
    const pt = await viewIn("pt-BR", "search-results");
    expect(pt.html).toContain('<html lang="en">');
    expect(pt.settings.labels["search-results"].heading).toBe("Search results");
    expect(pt.settings.labels["search-results"].count.forms).toEqual({
      one: "{count} product",
      other: "{count} products",
    });
  });
});
