/**
 * The confirmation email in the store's language (MERCHANT_LOCALE, issue 25: "a German
 * checkout, email and order page with gross prices"): subject, text and HTML in German with
 * `lang="de"`, amounts by Intl in de-DE, the included VAT as "inkl. …"; English for a locale
 * without a catalog.
 */
import { describe, expect, it } from "vitest";
import { orderConfirmation } from "../../src/notify/order-confirmation";
import type { OrderState } from "../../src/order/order-state";

const order = {
  id: "ord_de1",
  number: 1001,
  checkout_id: "chk_1",
  permalink_url: "https://shop.example/orders/t",
  currency: "EUR",
  line_items: [
    {
      id: "li_1",
      item: { id: "tee", title: "Laufshirt", price: 2380 },
      quantity: { original: 2, total: 2, fulfilled: 0 },
      totals: [{ type: "total", amount: 4760 }],
    },
  ],
  totals: [
    { type: "subtotal", amount: 4760 },
    { type: "fulfillment", amount: 595 },
    {
      type: "total",
      amount: 5355,
      lines: [
        { type: "tax", display_text: "incl. VAT (19%)", amount: 855 },
        { type: "net", display_text: "Net amount", amount: 4500 },
      ],
    },
  ],
  expectations: [
    {
      id: "exp_1",
      destination: {
        first_name: "Robin",
        street_address: "Unter den Linden 1",
        address_locality: "Berlin",
        postal_code: "10117",
        address_country: "DE",
      },
    },
  ],
  events: [],
  adjustments: [],
  owner: "https://platform.example/profile.json",
  created_at: 0,
} as unknown as OrderState;

describe("the confirmation email in the store's language", () => {
  it("de-DE: German words, German money, the VAT it includes", () => {
    const message = orderConfirmation(order, "kaeufer@example.com", "Laufladen", "de-DE");
    // Intl puts a no-break space between amount and symbol.
    const text = message.text.replace(/\u00a0/g, " ");
    expect(message.subject).toBe("Laufladen: Bestellung #1001 bestätigt");
    expect(text).toContain("Vielen Dank für Ihre Bestellung bei Laufladen.");
    expect(text).toContain("- 2 × Laufshirt: 47,60 €");
    expect(text).toContain("Zwischensumme: 47,60 €");
    expect(text).toContain("Versand: 5,95 €");
    expect(text).toContain("Gesamt: 53,55 €");
    expect(text).toContain("inkl. VAT (19%): 8,55 €");
    expect(text).toContain("Lieferung an:");
    expect(text).toContain("Bestellstatus und Sendungsverfolgung: https://shop.example/orders/t");
    expect(message.html).toContain('<html lang="de">');
    expect(message.html).toContain("<th");
    expect(message.html).toMatch(/>Artikel<\/th><th [^>]*>Menge<\/th><th [^>]*>Gesamt<\/th>/);
    expect(message.html).not.toMatch(/Thank you|Shipping to|Order status/);
  });

  it("ja-JP and a locale without a catalog (pt-BR)", () => {
    expect(orderConfirmation(order, "a@example.com", "Shop", "ja-JP").subject).toBe("Shop：ご注文 #1001 を承りました");
    const pt = orderConfirmation(order, "a@example.com", "Loja", "pt-BR");
    expect(pt.subject).toBe("Loja: order #1001 confirmed");
    expect(pt.html).toContain('<html lang="en">');
    expect(pt.text.replace(/\u00a0/g, " ")).toContain("Total: € 53,55");
  });
});
