/**
 * Why a discount code was not applied, as the checkout page says it (src/pages/discount-reasons.ts):
 * named from the message's code, the code its path points at and the store's definition of it,
 * in the store's language; the tool's English words when the page cannot name it.
 */
import { describe, expect, it } from "vitest";
import type { DiscountDefinition } from "../../src/checkout/commerce-config";
import { translatorFor } from "../../src/i18n/translate";
import { type DiscountFacts, discountReason } from "../../src/pages/discount-reasons";
import { messageText } from "../../src/pages/tool-messages";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 27);
const DEFINITIONS: DiscountDefinition[] = [
  { code: "SAVE10", title: "10% off", type: "percentage", value: 10 },
  { code: "WELCOME5", title: "$5 off", type: "fixed_amount", value: 500, min_subtotal: 2500 },
  { code: "FREESHIP", title: "Free shipping", type: "free_shipping" },
  { code: "SHIPFREE", title: "Free shipping too", type: "free_shipping" },
  { code: "OLD", title: "Gone", type: "percentage", value: 5, expires_at: Date.UTC(2025, 0, 1) },
  { code: "SOON", title: "Later", type: "percentage", value: 5, starts_at: NOW + 10 * DAY },
];

function facts(codes: string[], applied: string[], definitions = DEFINITIONS): DiscountFacts {
  return {
    codes,
    applied,
    definition: (code) => definitions.find((d) => d.code.toUpperCase() === code.trim().toUpperCase()),
    money: (minor) => new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" }).format(minor / 100),
    date: (ms) => new Intl.DateTimeFormat("de-DE", { dateStyle: "long", timeZone: "UTC" }).format(ms),
    now: NOW,
  };
}

const de = translatorFor("de-DE");
const at = (code: string, i: number) => ({ code, path: `$.discounts.codes[${i}]`, content: "English for agents" });

describe("discountReason", () => {
  it("names each reason in German with the code as the buyer typed it", () => {
    const f = facts(["save10", "bogus", "old", "soon", "welcome5", "save10"], ["SAVE10"]);
    expect(discountReason(de, at("discount_code_invalid", 1), f)).toBe(
      "Der Code „bogus“ ist kein gültiger Rabattcode.",
    );
    expect(discountReason(de, at("discount_code_expired", 2), f)).toBe(
      "Der Code „old“ ist am 1. Januar 2025 abgelaufen.",
    );
    expect(discountReason(de, at("discount_code_expired", 3), f)).toBe(
      "Der Code „soon“ gilt erst ab dem 7. Dezember 2026.",
    );
    expect(discountReason(de, at("discount_code_combination_disallowed", 4), f)).toBe(
      "Der Code „welcome5“ lässt sich nicht mit „SAVE10“ kombinieren: Pro Bestellung gilt nur ein solcher Code.",
    );
    expect(discountReason(de, at("discount_code_already_applied", 5), f)).toBe(
      "Der Code „save10“ ist bereits eingelöst.",
    );
  });

  it("a minimum subtotal in the store's money; a free-shipping code is combined only against free shipping", () => {
    const f = facts(["WELCOME5", "FREESHIP", "SHIPFREE"], ["FREESHIP"]);
    expect(discountReason(de, at("discount_code_user_ineligible", 0), f)).toBe(
      "Der Code „WELCOME5“ gilt erst ab einer Zwischensumme von 25,00\u00a0€.",
    );
    expect(discountReason(de, at("discount_code_combination_disallowed", 2), f)).toContain("nicht mit „FREESHIP“");
  });

  it("without the store's definition (changed since) it still says what kind of reason it is", () => {
    const f = facts(["OLD", "WELCOME5", "SAVE10"], [], []);
    expect(discountReason(de, at("discount_code_expired", 0), f)).toBe("Der Code „OLD“ ist derzeit nicht gültig.");
    expect(discountReason(de, at("discount_code_user_ineligible", 1), f)).toBe(
      "Der Code „WELCOME5“ kann für diese Bestellung nicht verwendet werden.",
    );
    expect(discountReason(de, at("discount_code_combination_disallowed", 2), f)).toContain(
      "nicht mit dem bereits eingelösten Code",
    );
  });

  it("messageText keeps the tool's words for a path it cannot follow or a code it does not know", () => {
    const f = facts(["SAVE10"], []);
    expect(messageText(de, { code: "discount_code_invalid", path: "$.discounts.codes[4]", content: "X" }, [], f)).toBe(
      "X",
    );
    expect(
      messageText(de, { code: "discount_code_new_reason", path: "$.discounts.codes[0]", content: "Y" }, [], f),
    ).toBe("Y");
    expect(messageText(de, at("discount_code_invalid", 0), [], f)).toBe(
      "Der Code „SAVE10“ ist kein gültiger Rabattcode.",
    );
    // English words match the agents' content, so an English page reads as before.
    expect(messageText(translatorFor("en-US"), at("discount_code_invalid", 0), [], f)).toBe(
      "Code 'SAVE10' is not a valid discount code.",
    );
  });
});
