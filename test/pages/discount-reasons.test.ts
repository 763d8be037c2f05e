/**
 * The checkout page says why a discount code was not applied in the store's language
 * (MERCHANT_LOCALE=de-DE), next to the code field and in the summary, while the agent reads the
 * same checkout's messages in English (docs/decisions/pages.md "the buyer's language").
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { type Json, readyCheckout } from "../helpers/checkout";
import { decodeEntities, pathOf } from "../helpers/pages";

const octet = () => Math.floor(Math.random() * 254) + 1;
const IP = `10.${octet()}.${octet()}.${octet()}`;

async function pageIn(locale: string, path: string): Promise<string> {
  const request = new Request(`https://shop.example.com${path}`, { headers: { "cf-connecting-ip": IP } });
  const res = await worker.fetch(
    request as Request<unknown, IncomingRequestCfProperties>,
    { ...env, MERCHANT_LOCALE: locale } as Env,
  );
  expect(res.status).toBe(200);
  return decodeEntities(await res.text());
}

/** The code field's own error line (above the input), as text. */
function codeFieldError(html: string): string {
  const found = /<p class="field-error" id="err-code">(.*?)<\/p>/s.exec(html)?.[1] ?? "";
  return found.replace(/<[^>]+>/g, "").trim();
}

describe("discount code reasons on a German checkout page", () => {
  it("invalid, expired and not combinable: German on the page, English for the agent", async () => {
    const checkout: Json = await readyCheckout([{ id: "item_123", quantity: 2 }], {
      discounts: { codes: ["save10", "BOGUS", "expired20", "WELCOME5"] },
    });
    const wire = checkout.messages.filter((m: Json) => m.code?.startsWith("discount_code_"));
    expect(wire.map((m: Json) => [m.code, m.path])).toEqual([
      ["discount_code_invalid", "$.discounts.codes[1]"],
      ["discount_code_expired", "$.discounts.codes[2]"],
      ["discount_code_combination_disallowed", "$.discounts.codes[3]"],
    ]);
    expect(wire[0].content).toBe("Code 'BOGUS' is not a valid discount code.");

    const html = await pageIn("de-DE", pathOf(checkout.continue_url));
    const reasons = [
      "Der Code „BOGUS“ ist kein gültiger Rabattcode.",
      "Der Code „expired20“ ist am 1. Januar 2025 abgelaufen.",
      "Der Code „WELCOME5“ lässt sich nicht mit „SAVE10“ kombinieren: Pro Bestellung gilt nur ein solcher Code.",
    ];
    for (const reason of reasons) expect(html).toContain(`<a href="#code">${reason}</a>`);
    expect(codeFieldError(html)).toBe(`Fehler: ${reasons.join(" ")}`);
    for (const m of wire) expect(html).not.toContain(m.content);
  });

  it("a code under its minimum subtotal names the minimum in the store's money", async () => {
    const checkout: Json = await readyCheckout([{ id: "var_ccs_blue_s", quantity: 1 }], {
      discounts: { codes: ["welcome5"] },
    });
    expect(checkout.messages.map((m: Json) => m.code)).toContain("discount_code_user_ineligible");
    const html = await pageIn("de-DE", pathOf(checkout.continue_url));
    expect(html).toMatch(/Der Code „welcome5“ gilt erst ab einer Zwischensumme von 25,00\s\$\./);
  });
});
