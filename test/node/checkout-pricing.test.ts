import { describe, expect, it } from "vitest";
import { type CommerceVars, DEMO_COMMERCE_CONFIG, parseCommerceConfig } from "../../src/checkout/commerce-config";
import { applyDiscounts, finalizeFreeShipping } from "../../src/checkout/discounts";
import { shippingOptions } from "../../src/checkout/fulfillment";
import { taxTotals } from "../../src/checkout/tax";
import { checkoutTotals, lineTotals } from "../../src/checkout/totals";
import { validateOfficial } from "../helpers/official-schema";

const NOW = Date.UTC(2026, 3, 15, 12);
const DEST_PATH = "$.fulfillment.methods[0].destinations[0]";
const SCHEMA = {
  totals: "https://ucp.dev/schemas/shopping/types/totals.json",
  total: "https://ucp.dev/schemas/shopping/types/total.json",
  option: "https://ucp.dev/schemas/shopping/types/fulfillment_option.json",
  applied: "https://ucp.dev/schemas/shopping/discount.json#/$defs/applied_discount",
  message: "https://ucp.dev/schemas/shopping/types/message.json",
} as const;

function configOf(vars: CommerceVars) {
  const result = parseCommerceConfig(vars);
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.config;
}

const DEMO = configOf(DEMO_COMMERCE_CONFIG);

function expectValid(ref: string, value: unknown) {
  const result = validateOfficial(ref, value);
  expect(result.errors, JSON.stringify(value)).toEqual([]);
  expect(result.valid).toBe(true);
}

function optionsFor(country: string | undefined, merchandise: number, code = false, config = DEMO) {
  const result = shippingOptions(config, { address_country: country }, merchandise, code, DEST_PATH);
  if (!result.ok) throw new Error(result.message.content);
  return result;
}

const amounts = (options: Array<{ id: string; totals: Array<{ amount: number }> }>) =>
  Object.fromEntries(options.map((o) => [o.id, o.totals[0]?.amount]));

describe("shippingOptions", () => {
  it("lists the zone's options cheapest first, with timing and carrier in the description", () => {
    const { options } = optionsFor("US", 3000);
    expect(options).toEqual([
      {
        id: "standard",
        title: "Standard Shipping",
        description: "Arrives in 5-7 business days via USPS",
        carrier: "USPS",
        totals: [{ type: "total", amount: 500 }],
      },
      {
        id: "express",
        title: "Express Shipping",
        description: "Arrives in 2-3 business days via UPS",
        carrier: "UPS",
        totals: [{ type: "total", amount: 1500 }],
      },
    ]);
    for (const option of options) expectValid(SCHEMA.option, option);
  });

  it("makes eligible options free from the threshold (merchandise after discounts) on", () => {
    expect(amounts(optionsFor("US", 7499).options)).toEqual({ standard: 500, express: 1500 });
    expect(amounts(optionsFor("US", 7500).options)).toEqual({ standard: 0, express: 1500 });
    expect(optionsFor("US", 7500).codeSavings).toEqual({ standard: 0, express: 0 });
  });

  it("makes eligible options free with a free_shipping code, reporting what the code saved", () => {
    const result = optionsFor("US", 1000, true);
    expect(amounts(result.options)).toEqual({ standard: 0, express: 1500 });
    expect(result.codeSavings).toEqual({ standard: 500, express: 0 });
    expect(optionsFor("CA", 1000, true).codeSavings).toEqual({ standard: 1200, express: 0 });
  });

  it("uses the * zone for unlisted countries, where nothing is free-eligible", () => {
    const result = optionsFor("jp", 100_000, true);
    expect(amounts(result.options)).toEqual({ international: 2500, "international-express": 4500 });
    expect(result.options[0]?.description).toBe("Arrives in 10-20 business days via DHL");
  });

  it("sorts by what the buyer pays, then list price, then config order", () => {
    const config = configOf({
      SHIPPING: {
        free_shipping_threshold: 1000,
        zones: [
          {
            countries: ["US"],
            options: [
              { id: "express", title: "Express", amount: 1500, free_eligible: true },
              { id: "economy", title: "Economy", amount: 300, max_days: 1 },
              { id: "pickup-point", title: "Pickup Point", amount: 300, min_days: 4 },
              { id: "courier", title: "Courier", amount: 900, carrier: "Bikes", min_days: 1, max_days: 1 },
            ],
          },
        ],
      },
    });
    const cheap = optionsFor("US", 10, false, config).options;
    expect(cheap.map((o) => o.id)).toEqual(["economy", "pickup-point", "courier", "express"]);
    expect(cheap.map((o) => o.description)).toEqual([
      "Arrives within 1 business day",
      "Arrives in 4 business days or more",
      "Arrives in 1 business day via Bikes",
      undefined,
    ]);
    const free = optionsFor("US", 1000, false, config).options;
    expect(free.map((o) => [o.id, o.totals[0]?.amount])).toEqual([
      ["economy", 0],
      ["express", 0],
      ["pickup-point", 300],
      ["courier", 900],
    ]);
  });

  it("never repeats the title or the price in a description", () => {
    for (const country of ["US", "CA", "FR"]) {
      for (const option of optionsFor(country, 0).options) {
        const price = option.totals[0]?.amount ?? 0;
        expect(option.description?.toLowerCase()).not.toContain(option.title.toLowerCase());
        expect(option.description).not.toMatch(new RegExp(`\\$|${(price / 100).toFixed(2)}`));
      }
    }
  });

  it("rejects a destination without a zone as address_undeliverable at the caller's path", () => {
    const config = configOf({
      SHIPPING: { zones: [{ countries: ["US"], options: [{ id: "s", title: "S", amount: 1 }] }] },
    });
    const result = shippingOptions(config, { address_country: "DE" }, 0, false, DEST_PATH);
    expect(result).toEqual({
      ok: false,
      message: {
        type: "error",
        code: "address_undeliverable",
        path: DEST_PATH,
        content: "We don't ship to DE. Choose a destination in another country.",
        severity: "recoverable",
      },
    });
    if (!result.ok) expectValid(SCHEMA.message, result.message);
    const none = shippingOptions(configOf({}), { address_country: "US" }, 0, false, DEST_PATH);
    expect(none.ok ? undefined : none.message.code).toBe("address_undeliverable");
  });

  it("asks for a country when the destination has none", () => {
    const result = shippingOptions(DEMO, { postal_code: "94103" }, 0, false, DEST_PATH);
    expect(result.ok ? undefined : result.message).toMatchObject({
      code: "field_required",
      path: `${DEST_PATH}.address_country`,
      severity: "recoverable",
    });
  });
});

const LINES = [
  { id: "li_1", subtotal: 1000 },
  { id: "li_2", subtotal: 2000 },
  { id: "li_3", subtotal: 3333 },
];

function discounts(codes: string[], lines = LINES, config = DEMO, currency: string | null = "USD") {
  return applyDiscounts({ codes, lines, config, now: NOW, ...(currency ? { currency } : {}) });
}

describe("applyDiscounts", () => {
  it("applies a percentage to every line, rounding half-up and splitting by largest remainder", () => {
    const outcome = discounts(["SAVE10"]);
    // 10% of 6333 = 633.3 → 633; exact shares 100, 200, 333.3.
    expect(outcome.applied).toEqual([
      {
        code: "SAVE10",
        title: "10% off your order",
        amount: 633,
        automatic: false,
        method: "each",
        priority: 1,
        allocations: [
          { path: "$.line_items[0]", amount: 100 },
          { path: "$.line_items[1]", amount: 200 },
          { path: "$.line_items[2]", amount: 333 },
        ],
      },
    ]);
    expect(outcome.lineDiscounts).toEqual({ li_1: 100, li_2: 200, li_3: 333 });
    expect(outcome).toMatchObject({ orderDiscount: 0, freeShipping: false, messages: [], codes: ["SAVE10"] });
    expectValid(SCHEMA.applied, outcome.applied[0]);
  });

  it("gives leftover units to the largest remainders, earlier lines first on a tie", () => {
    const lines = [
      { id: "a", subtotal: 5 },
      { id: "b", subtotal: 5 },
      { id: "c", subtotal: 5 },
    ];
    // 10% of 15 = 1.5 → 2; each exact share is 0.5.
    expect(discounts(["SAVE10"], lines).lineDiscounts).toEqual({ a: 1, b: 1, c: 0 });
    const uneven = [
      { id: "a", subtotal: 101 },
      { id: "b", subtotal: 109 },
      { id: "c", subtotal: 0 },
    ];
    // 21 split 10.1 / 10.9 / 0.
    expect(discounts(["SAVE10"], uneven).lineDiscounts).toEqual({ a: 10, b: 11, c: 0 });
    expect(discounts(["SAVE10"], uneven).applied[0]?.allocations.map((a) => a.path)).toEqual([
      "$.line_items[0]",
      "$.line_items[1]",
    ]);
  });

  it("matches case-insensitively, ignoring surrounding spaces, and echoes codes as sent", () => {
    const outcome = discounts([" save10 "]);
    expect(outcome.codes).toEqual([" save10 "]);
    expect(outcome.applied[0]?.code).toBe("SAVE10");
    expect(outcome.messages).toEqual([]);
  });

  it("spreads a fixed amount across lines and caps it at the merchandise", () => {
    const outcome = discounts(["WELCOME5"]);
    expect(outcome.applied[0]).toMatchObject({ code: "WELCOME5", amount: 500, method: "across", priority: 1 });
    expect(outcome.lineDiscounts).toEqual({ li_1: 79, li_2: 158, li_3: 263 });
    const config = configOf({ DISCOUNTS: [{ code: "BIG", title: "$100 off", type: "fixed_amount", value: 10_000 }] });
    const capped = discounts(["BIG"], [{ id: "a", subtotal: 1200 }], config);
    expect(capped.applied[0]?.amount).toBe(1200);
    expect(lineTotals(1200, capped.lineDiscounts.a ?? 0).at(-1)).toEqual({ type: "total", amount: 0 });
  });

  it("warns about unknown, expired and not-yet-valid codes at their path", () => {
    const config = configOf({
      DISCOUNTS: [
        ...DEMO_COMMERCE_CONFIG.DISCOUNTS,
        { code: "SOON", title: "Soon", type: "free_shipping", starts_at: "2026-05-01T00:00:00Z" },
      ],
    });
    const outcome = discounts(["NOPE", "expired20", "SOON"], LINES, config);
    expect(outcome.applied).toEqual([]);
    expect(outcome.messages).toEqual([
      {
        type: "warning",
        code: "discount_code_invalid",
        path: "$.discounts.codes[0]",
        content: "Code 'NOPE' is not a valid discount code.",
      },
      {
        type: "warning",
        code: "discount_code_expired",
        path: "$.discounts.codes[1]",
        content: "Code 'expired20' expired on 2025-01-01.",
      },
      {
        type: "warning",
        code: "discount_code_expired",
        path: "$.discounts.codes[2]",
        content: "Code 'SOON' is not valid until 2026-05-01.",
      },
    ]);
    for (const message of outcome.messages) expectValid(SCHEMA.message, message);
  });

  it("treats expires_at as exclusive and starts_at as inclusive", () => {
    const config = configOf({
      DISCOUNTS: [
        { code: "W", title: "W", type: "percentage", value: 5, starts_at: "2026-04-15T12:00:00Z" },
        { code: "X", title: "X", type: "free_shipping", expires_at: "2026-04-15T12:00:00Z" },
      ],
    });
    const outcome = discounts(["W", "X"], LINES, config);
    expect(outcome.applied.map((a) => a.code)).toEqual(["W"]);
    expect(outcome.messages.map((m) => m.code)).toEqual(["discount_code_expired"]);
  });

  it("warns about a code sent twice", () => {
    const outcome = discounts(["SAVE10", "Save10"]);
    expect(outcome.applied).toHaveLength(1);
    expect(outcome.messages).toEqual([
      {
        type: "warning",
        code: "discount_code_already_applied",
        path: "$.discounts.codes[1]",
        content: "Code 'Save10' is already applied.",
      },
    ]);
  });

  it("allows one amount-off code plus one free_shipping code; later ones are disallowed", () => {
    const config = configOf({
      DISCOUNTS: [...DEMO_COMMERCE_CONFIG.DISCOUNTS, { code: "SHIPFREE", title: "Ship free", type: "free_shipping" }],
    });
    const outcome = discounts(["SAVE10", "FREESHIP", "WELCOME5", "SHIPFREE"], LINES, config);
    expect(outcome.applied.map((a) => [a.code, a.priority])).toEqual([
      ["SAVE10", 1],
      ["FREESHIP", 2],
    ]);
    expect(outcome.freeShipping).toBe(true);
    expect(outcome.messages.map((m) => [m.code, m.path])).toEqual([
      ["discount_code_combination_disallowed", "$.discounts.codes[2]"],
      ["discount_code_combination_disallowed", "$.discounts.codes[3]"],
    ]);
    expect(outcome.messages[0]?.content).toBe(
      "Code 'WELCOME5' can't be combined with 'SAVE10'; only one such code applies per order.",
    );
  });

  it("says the minimum when the subtotal is below it, and leaves the slot to later codes", () => {
    const small = [{ id: "a", subtotal: 2499 }];
    const outcome = discounts(["WELCOME5", "SAVE10"], small);
    expect(outcome.messages).toEqual([
      {
        type: "warning",
        code: "discount_code_user_ineligible",
        path: "$.discounts.codes[0]",
        content: "Code 'WELCOME5' needs a subtotal of at least $25.00.",
      },
    ]);
    expect(outcome.applied.map((a) => a.code)).toEqual(["SAVE10"]);
    expect(discounts(["WELCOME5"], small, DEMO, null).messages[0]?.content).toBe(
      "Code 'WELCOME5' needs a subtotal of at least 2500 (minor units).",
    );
    expect(discounts(["WELCOME5"], [{ id: "a", subtotal: 2500 }]).applied[0]?.amount).toBe(500);
  });

  it("flags free shipping with an entry finalized once the saving is known", () => {
    const outcome = discounts(["FREESHIP"]);
    expect(outcome.freeShipping).toBe(true);
    expect(outcome.lineDiscounts).toEqual({ li_1: 0, li_2: 0, li_3: 0 });
    const pending = {
      code: "FREESHIP",
      title: "Free shipping",
      amount: 0,
      automatic: false,
      priority: 2,
      allocations: [],
    };
    expect(outcome.applied).toEqual([pending]);
    const path = "$.fulfillment.methods[0].groups[0]";
    const done = finalizeFreeShipping(outcome, 500, path);
    expect(done).toEqual([{ ...pending, amount: 500, allocations: [{ path, amount: 500 }] }]);
    expect(finalizeFreeShipping(outcome, 0, path)).toEqual([pending]);
    for (const applied of done) expectValid(SCHEMA.applied, applied);
    const withPercent = discounts(["FREESHIP", "SAVE10"]);
    expect(finalizeFreeShipping(withPercent, 1200, path).map((a) => [a.code, a.amount])).toEqual([
      ["SAVE10", 633],
      ["FREESHIP", 1200],
    ]);
    const none = discounts(["SAVE10"]);
    expect(finalizeFreeShipping(none, 500, path)).toEqual(none.applied);
  });

  it("returns nothing applied for no codes, and never discounts an empty cart below zero", () => {
    expect(discounts([])).toEqual({
      codes: [],
      applied: [],
      lineDiscounts: { li_1: 0, li_2: 0, li_3: 0 },
      orderDiscount: 0,
      freeShipping: false,
      messages: [],
    });
    const empty = discounts(["SAVE10"], [{ id: "a", subtotal: 0 }]);
    expect(empty.applied[0]).toMatchObject({ amount: 0, allocations: [] });
    const all = configOf({ DISCOUNTS: [{ code: "ALL", title: "All free", type: "percentage", value: 100 }] });
    expect(discounts(["ALL"], LINES, all).lineDiscounts).toEqual({ li_1: 1000, li_2: 2000, li_3: 3333 });
  });
});

describe("taxTotals", () => {
  const tax = (country: string | undefined, region: string | undefined, base: number, shipping = 0, config = DEMO) =>
    taxTotals(config, { address_country: country, address_region: region }, base, shipping);

  it("applies the region's rate, rounding half-up", () => {
    expect(tax("US", "CA", 10_000)).toEqual([{ type: "tax", display_text: "California Sales Tax", amount: 725 }]);
    expect(tax("US", "CA", 1000)[0]?.amount).toBe(73); // 72.5
    expect(tax("US", "CA", 1006)[0]?.amount).toBe(73); // 72.935
    expect(tax("US", "CA", 993)[0]?.amount).toBe(72); // 71.9925
    expect(tax("US", "NY", 12_345)[0]?.amount).toBe(494); // 493.8
    expect(tax("US", "CA", 0)).toEqual([{ type: "tax", display_text: "California Sales Tax", amount: 0 }]);
  });

  it("accepts region codes in any case and with the country prefix", () => {
    expect(tax("us", "ca", 10_000)[0]?.amount).toBe(725);
    expect(tax("US", "US-CA", 10_000)[0]?.amount).toBe(725);
  });

  it("is empty when no rate applies", () => {
    expect(tax("US", "TX", 10_000)).toEqual([]);
    expect(tax("US", undefined, 10_000)).toEqual([]);
    expect(tax("JP", undefined, 10_000)).toEqual([]);
    expect(tax(undefined, "CA", 10_000)).toEqual([]);
  });

  it("prefers region rates over country-wide ones and applies every rate at that level, each rounded", () => {
    expect(tax("CA", "ON", 1000).map((t) => [t.display_text, t.amount])).toEqual([["HST", 130]]);
    expect(tax("CA", "AB", 1000).map((t) => [t.display_text, t.amount])).toEqual([["GST", 50]]);
    expect(tax("CA", undefined, 1000).map((t) => [t.display_text, t.amount])).toEqual([["GST", 50]]);
    // 150 × 5% = 7.5 → 8 and 150 × 7% = 10.5 → 11: 19, where one combined 12% would give 18.
    expect(tax("CA", "BC", 150).map((t) => [t.display_text, t.amount])).toEqual([
      ["GST", 8],
      ["PST", 11],
    ]);
    expect(tax("DE", "BY", 10_000)).toEqual([{ type: "tax", display_text: "VAT (19%)", amount: 1900 }]);
  });

  it("taxes shipping only when configured", () => {
    expect(tax("DE", undefined, 1000, 500)[0]?.amount).toBe(190);
    const config = configOf({
      TAX: { shipping_taxable: true, rates: [{ country: "DE", rate_bps: 1900, label: "VAT" }] },
    });
    expect(tax("DE", undefined, 1000, 500, config)[0]?.amount).toBe(285);
  });

  it("stays exact for amounts whose product with the rate passes 2^53", () => {
    const base = 9_007_199_254_740_000;
    expect(tax("DE", undefined, base)[0]?.amount).toBe(Number((BigInt(base) * 1900n + 5000n) / 10000n));
  });
});

describe("lineTotals and checkoutTotals", () => {
  it("builds line totals with items_discount only when positive", () => {
    expect(lineTotals(5000, 0)).toEqual([
      { type: "subtotal", amount: 5000 },
      { type: "total", amount: 5000 },
    ]);
    expect(lineTotals(5000, 800)).toEqual([
      { type: "subtotal", amount: 5000 },
      { type: "items_discount", amount: -800 },
      { type: "total", amount: 4200 },
    ]);
    for (const t of lineTotals(5000, 800)) expectValid(SCHEMA.total, t);
  });

  it("orders subtotal, discounts, shipping, taxes, total (the spec's mixed discount example)", () => {
    const totals = checkoutTotals({
      merchandise: 4000,
      itemsDiscount: 800,
      orderDiscount: 599,
      fulfillment: 0,
      taxes: [],
    });
    expect(totals).toEqual([
      { type: "subtotal", display_text: "Subtotal", amount: 4000 },
      { type: "items_discount", display_text: "Item Discounts", amount: -800 },
      { type: "discount", display_text: "Order Discounts", amount: -599 },
      { type: "fulfillment", display_text: "Shipping", amount: 0 },
      { type: "total", display_text: "Total", amount: 2601 },
    ]);
    expectValid(SCHEMA.totals, totals);
  });

  it("reproduces the spec's multi-tax example", () => {
    const taxes = [
      { type: "tax", display_text: "Federal Tax", amount: 332 },
      { type: "tax", display_text: "State Tax", amount: 465 },
    ];
    const totals = checkoutTotals({ merchandise: 5750, itemsDiscount: 0, orderDiscount: 0, fulfillment: 899, taxes });
    expect(totals.map((t) => [t.type, t.amount])).toEqual([
      ["subtotal", 5750],
      ["fulfillment", 899],
      ["tax", 332],
      ["tax", 465],
      ["total", 7446],
    ]);
    expectValid(SCHEMA.totals, totals);
  });

  it("omits shipping until an option is selected, and zero discounts", () => {
    const totals = checkoutTotals({ merchandise: 1000, itemsDiscount: 0, orderDiscount: 0, taxes: [] });
    expect(totals.map((t) => t.type)).toEqual(["subtotal", "total"]);
    expectValid(SCHEMA.totals, totals);
  });

  it("caps discounts so the total is never negative", () => {
    const totals = checkoutTotals({
      merchandise: 1000,
      itemsDiscount: 1500,
      orderDiscount: 900,
      fulfillment: 300,
      taxes: [],
    });
    expect(totals.map((t) => [t.type, t.amount])).toEqual([
      ["subtotal", 1000],
      ["items_discount", -1000],
      ["discount", -300],
      ["fulfillment", 300],
      ["total", 0],
    ]);
    expect(lineTotals(100, 500).at(-1)?.amount).toBe(0);
    expectValid(SCHEMA.totals, totals);
  });
});
