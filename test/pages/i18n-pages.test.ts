/**
 * The buyer pages in the store's language (MERCHANT_LOCALE): labels from the catalogs,
 * `<html lang>` the catalog's language, money and dates by Intl in the locale, and English
 * for a locale without a catalog. Each request runs under a fresh env (settings cache per env).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { pay, readyCheckout, tool } from "../helpers/checkout";
import { FULL_PROFILE } from "../helpers/mcp";
import { pathOf } from "../helpers/pages";
import { getOrder, placeOrder } from "../order/order-helpers";

const octet = () => Math.floor(Math.random() * 254) + 1;
const IP = `10.${octet()}.${octet()}.${octet()}`;

async function pageIn(locale: string, path: string, cookie?: string): Promise<{ status: number; html: string }> {
  const headers: Record<string, string> = { "cf-connecting-ip": IP, ...(cookie ? { cookie } : {}) };
  const request = new Request(`https://shop.example.com${path}`, { headers, redirect: "manual" });
  const res = await worker.fetch(
    request as Request<unknown, IncomingRequestCfProperties>,
    { ...env, MERCHANT_LOCALE: locale } as Env,
  );
  return { status: res.status, html: await res.text() };
}

async function cartPath(): Promise<string> {
  const reply = await tool("create_cart", {
    cart: { line_items: [{ item: { id: "var_abc123_blue_10" }, quantity: 2 }] },
  });
  return pathOf(reply.body.result.structuredContent.continue_url);
}

describe("a German store (de-DE)", () => {
  it("storefront: lang=de, German labels and euro-style digits", async () => {
    const { status, html } = await pageIn("de-DE", "/");
    expect(status).toBe(200);
    expect(html).toContain('<html lang="de">');
    expect(html).toContain("Zum Inhalt springen");
    expect(html).toContain('<label for="q">Produkte suchen</label>');
    expect(html).toContain(">Warenkorb</a>");
    expect(html).toMatch(/\d+ Produkte</);
    // Money in de-DE: comma decimals, symbol after the amount.
    expect(html).toMatch(/120,00\s\$/);
    expect(html).not.toContain("Search products");
  });

  it("product page: option pickers and Add to cart in German", async () => {
    const { html } = await pageIn("de-DE", "/products/runner-pro");
    expect(html).toContain("In den Warenkorb");
    expect(html).toContain('<label for="quantity">Menge</label>');
    expect(html).toContain("<h2>Alle Varianten</h2>");
    expect(html).toContain("(ausverkauft)");
    expect(html).toContain("Auf Lager");
    expect(html).toContain('data-missing="{choice} gibt es nicht. Wählen Sie eine andere Kombination."');
  });

  it("cart page: German headings, buttons and totals", async () => {
    const { status, html } = await pageIn("de-DE", await cartPath());
    expect(status).toBe(200);
    expect(html).toContain("<h1>Ihr Warenkorb</h1>");
    expect(html).toContain(">Zur Kasse</button>");
    expect(html).toContain(">Warenkorb aktualisieren</button>");
    expect(html).toContain("<td>Zwischensumme</td>");
    expect(html).toContain("Versand und Steuern werden an der Kasse berechnet.");
  });

  it("checkout page: German sections, fields and button", async () => {
    const started = await tool("create_checkout", {
      checkout: { line_items: [{ item: { id: "var_abc123_blue_10" }, quantity: 1 }] },
    });
    const { status, html } = await pageIn("de-DE", pathOf(started.body.result.structuredContent.continue_url));
    expect(status).toBe(200);
    expect(html).toContain('<html lang="de">');
    expect(html).toContain("<h1>Kasse</h1>");
    expect(html).toContain(">Lieferadresse</h2>");
    expect(html).toContain('<label for="address-address_locality">Ort</label>');
    expect(html).toContain('<label for="contact-phone_number">Telefon <span class="muted">(optional)</span></label>');
    expect(html).toContain(">Weiter</button>");
    expect(html).toContain(">Rabattcode</label>");
    expect(html).toContain("Testmodus: Es fließt kein Geld.");
    expect(html).not.toContain("Shipping address");
  });

  it("order page: German status, labels and a German date", async () => {
    const { orderId } = await placeOrder([{ id: "var_abc123_blue_10", quantity: 2 }]);
    const order = await getOrder(orderId);
    const { html } = await pageIn("de-DE", pathOf(order.permalink_url));
    expect(html).toContain("<h1>Ihre Bestellung</h1>");
    expect(html).toContain('<span class="status">Bestätigt, Versand wird vorbereitet</span>');
    expect(html).toContain("0 von 2 versandt");
    expect(html).toMatch(/<tr class="total"><td>Gesamt<\/td><td class="num">[\d.]+,\d\d\s\$<\/td><\/tr>/);
    expect(html).toContain("Noch wurde nichts versandt.");
  });

  it("the 3-D Secure step: what is paid for, and the test bank's buttons, in German", async () => {
    const checkout = await readyCheckout([{ id: "item_123", quantity: 1 }], {}, FULL_PROFILE);
    const answer = await tool(
      "complete_checkout",
      { id: checkout.id, checkout: pay("requires_3ds_token") },
      crypto.randomUUID(),
      FULL_PROFILE,
    );
    const { html } = await pageIn("de-DE", pathOf(answer.body.result.structuredContent.continue_url));
    expect(html).toContain("<h1>Zahlung bestätigen</h1>");
    expect(html).toContain("Die Bank Ihrer Karte bittet Sie, diese Zahlung zu bestätigen.");
    expect(html).toContain('<th scope="row">Händler</th>');
    expect(html).toContain(">Bestätigen</button>");
    expect(html).toContain(">Bestätigung scheitern lassen</button>");
  });

  it("the header's cart link: GET /cart without a cart says it is empty; with the cookie's cart it goes there", async () => {
    const empty = await pageIn("de-DE", "/cart");
    expect(empty.status).toBe(200);
    expect(empty.html).toContain("<h1>Ihr Warenkorb ist leer</h1>");
    expect(empty.html).toContain('<a href="/cart">Warenkorb</a>');
    const path = await cartPath();
    const cookie = `ucp_cart=${path.split("/").pop()}`;
    const request = new Request("https://shop.example.com/cart", {
      headers: { "cf-connecting-ip": IP, cookie },
      redirect: "manual",
    });
    const res = await worker.fetch(
      request as Request<unknown, IncomingRequestCfProperties>,
      { ...env, MERCHANT_LOCALE: "de-DE" } as Env,
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(path);
    const shop = await pageIn("de-DE", "/", cookie);
    expect(shop.html).toContain(
      `<a href="${path}" aria-label="Warenkorb, 2 Artikel">Warenkorb <span class="count" aria-hidden="true">2</span></a>`,
    );
  });

  it("message pages: a 404 and an expired form in German", async () => {
    const missing = await pageIn("de-DE", "/no/such/page");
    expect(missing.status).toBe(404);
    expect(missing.html).toContain("<h1>Seite nicht gefunden</h1>");
    expect(missing.html).toContain(">Weiter einkaufen</a>");
    const invalid = await pageIn("de-DE", "/orders/not-a-token");
    expect(invalid.html).toContain("Dieser Link ist ungültig");
  });

  it("policies: the store's default titles in German, the merchant's words as written", async () => {
    const { html } = await pageIn("de-DE", "/policies/returns");
    expect(html).toContain("<h1>Rückgabe</h1>");
    expect(html).toContain('<nav aria-label="Richtlinien des Shops"><ul><li><a href="/policies/returns">Rückgabe</a>');
    expect(html).toContain(">Datenschutz</a>");
  });
});

describe("other languages", () => {
  const cases = [
    ["fr-FR", "fr", "Ajouter au panier", "Aller au contenu"],
    ["es-ES", "es", "Añadir al carrito", "Ir al contenido"],
    ["it-IT", "it", "Aggiungi al carrello", "Vai al contenuto"],
    ["nl-NL", "nl", "In winkelwagen", "Naar de inhoud"],
    ["ja-JP", "ja", "カートに追加", "本文へ移動"],
  ] as const;
  for (const [locale, lang, add, skip] of cases)
    it(`${locale}: the product page in ${lang}`, async () => {
      const { html } = await pageIn(locale, "/products/runner-pro");
      expect(html).toContain(`<html lang="${lang}">`);
      expect(html).toContain(add);
      expect(html).toContain(skip);
    });

  it("a locale without a catalog (pt-BR) reads English, with its own money format", async () => {
    const { html } = await pageIn("pt-BR", "/products/runner-pro");
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("Add to cart");
    expect(html).toMatch(/US\$\s120,00/);
  });
});
