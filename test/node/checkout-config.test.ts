import { describe, expect, it } from "vitest";
import { type CommerceVars, DEMO_COMMERCE_CONFIG, parseCommerceConfig } from "../../src/checkout/commerce-config";

function problemsOf(vars: CommerceVars): string[] {
  const result = parseCommerceConfig(vars);
  if (result.ok) throw new Error("expected problems");
  return result.problems;
}

function configOf(vars: CommerceVars) {
  const result = parseCommerceConfig(vars);
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.config;
}

const OPTION = { id: "standard", title: "Standard Shipping", amount: 500 };

describe("parseCommerceConfig", () => {
  it("parses the demo config, resolving defaults", () => {
    const config = configOf(DEMO_COMMERCE_CONFIG);
    expect(config.shipping.free_shipping_threshold).toBe(7500);
    expect(config.shipping.zones.map((z) => z.countries)).toEqual([["US"], ["CA"], ["*"]]);
    const eligible = config.shipping.zones.map((z) => z.options.filter((o) => o.free_eligible).map((o) => o.id));
    expect(eligible).toEqual([["standard"], ["standard"], []]);
    expect(config.tax.shipping_taxable).toBe(false);
    expect(config.tax.rates).toHaveLength(9);
    expect(config.discounts.map((d) => d.code)).toEqual(["SAVE10", "WELCOME5", "FREESHIP", "EXPIRED20"]);
    expect(config.discounts[3]?.expires_at).toBe(Date.UTC(2025, 0, 1));
  });

  it("reads JSON strings exactly as it reads objects (wrangler [vars] may hold either)", () => {
    const asStrings = {
      SHIPPING: JSON.stringify(DEMO_COMMERCE_CONFIG.SHIPPING),
      TAX: JSON.stringify(DEMO_COMMERCE_CONFIG.TAX),
      DISCOUNTS: JSON.stringify(DEMO_COMMERCE_CONFIG.DISCOUNTS),
    };
    expect(configOf(asStrings)).toEqual(configOf(DEMO_COMMERCE_CONFIG));
  });

  it("treats absent or empty vars as nothing configured", () => {
    const empty = {
      shipping: { zones: [] },
      tax: { rates: [], shipping_taxable: false, prices_include_tax: false },
      discounts: [],
    };
    expect(configOf({})).toEqual(empty);
    expect(configOf({ SHIPPING: "", TAX: "", DISCOUNTS: "" })).toEqual(empty);
  });

  it("normalizes country and region case and region prefixes", () => {
    const config = configOf({
      SHIPPING: { zones: [{ countries: ["us", "*"], options: [OPTION] }] },
      TAX: { rates: [{ country: "us", region: "us-ca", rate_bps: 725, label: "CA" }] },
    });
    expect(config.shipping.zones[0]?.countries).toEqual(["US", "*"]);
    expect(config.tax.rates[0]).toMatchObject({ country: "US", region: "CA" });
  });

  it("makes only the cheapest option free-eligible by default (first on a tie); explicit values win", () => {
    const options = [
      { id: "a", title: "A", amount: 900 },
      { id: "b", title: "B", amount: 300 },
      { id: "c", title: "C", amount: 300 },
      { id: "d", title: "D", amount: 2000, free_eligible: true },
    ];
    const config = configOf({ SHIPPING: { zones: [{ countries: ["US"], options }] } });
    expect(config.shipping.zones[0]?.options.map((o) => o.free_eligible)).toEqual([false, true, false, true]);
    const off = configOf({
      SHIPPING: { zones: [{ countries: ["US"], options: [{ ...OPTION, free_eligible: false }] }] },
    });
    expect(off.shipping.zones[0]?.options[0]?.free_eligible).toBe(false);
  });

  it("accepts RFC 3339 offsets and converts them to epoch ms", () => {
    const config = configOf({
      DISCOUNTS: [{ code: "X", title: "X", type: "free_shipping", starts_at: "2026-01-01T02:00:00+02:00" }],
    });
    expect(config.discounts[0]?.starts_at).toBe(Date.UTC(2026, 0, 1));
  });
});

describe("parseCommerceConfig problems", () => {
  const cases: Array<[string, CommerceVars, string]> = [
    ["invalid JSON", { SHIPPING: "{zones:" }, "SHIPPING: not valid JSON"],
    [
      "a fractional amount",
      { SHIPPING: { zones: [{ countries: ["US"], options: [{ ...OPTION, amount: 4.5 }] }] } },
      "SHIPPING.zones[0].options[0].amount",
    ],
    [
      "a negative threshold",
      { SHIPPING: { free_shipping_threshold: -1, zones: [] } },
      "SHIPPING.free_shipping_threshold",
    ],
    [
      "an unknown key",
      { SHIPPING: { zones: [], free_shiping_threshold: 5 } },
      'SHIPPING: Unrecognized key: "free_shiping_threshold"',
    ],
    [
      "a bad country",
      { SHIPPING: { zones: [{ countries: ["USA"], options: [OPTION] }] } },
      "SHIPPING.zones[0].countries[0]: expected an ISO 3166-1 alpha-2 code",
    ],
    [
      "a zone without options",
      { SHIPPING: { zones: [{ countries: ["US"], options: [] }] } },
      "SHIPPING.zones[0].options",
    ],
    [
      "a country in two zones",
      {
        SHIPPING: {
          zones: [
            { countries: ["US"], options: [OPTION] },
            { countries: ["CA", "us"], options: [OPTION] },
          ],
        },
      },
      "SHIPPING.zones[1].countries[1]: US is already listed",
    ],
    [
      "two * zones",
      {
        SHIPPING: {
          zones: [
            { countries: ["*"], options: [OPTION] },
            { countries: ["*"], options: [OPTION] },
          ],
        },
      },
      'SHIPPING.zones[1].countries[0]: "*" is already listed',
    ],
    [
      "duplicate option ids",
      { SHIPPING: { zones: [{ countries: ["US"], options: [OPTION, { ...OPTION, title: "Other" }] }] } },
      "SHIPPING.zones[0].options[1].id: duplicate option id",
    ],
    [
      "duplicate titles",
      {
        SHIPPING: {
          zones: [{ countries: ["US"], options: [OPTION, { ...OPTION, id: "x", title: "standard shipping" }] }],
        },
      },
      "SHIPPING.zones[0].options[1].title: duplicate option title",
    ],
    [
      "min_days > max_days",
      { SHIPPING: { zones: [{ countries: ["US"], options: [{ ...OPTION, min_days: 5, max_days: 2 }] }] } },
      "SHIPPING.zones[0].options[0].min_days: min_days is greater than max_days",
    ],
    [
      "a description repeating the title",
      {
        SHIPPING: {
          zones: [{ countries: ["US"], options: [{ ...OPTION, description: "Standard shipping, 5 days" }] }],
        },
      },
      "SHIPPING.zones[0].options[0].description: description repeats the title",
    ],
    [
      "a description stating the price",
      { SHIPPING: { zones: [{ countries: ["US"], options: [{ ...OPTION, description: "Only $5" }] }] } },
      "SHIPPING.zones[0].options[0].description: description states a price",
    ],
    ["a rate over 100%", { TAX: { rates: [{ country: "US", rate_bps: 10001, label: "T" }] } }, "TAX.rates[0].rate_bps"],
    [
      "a fractional rate",
      { TAX: { rates: [{ country: "CA", region: "QC", rate_bps: 997.5, label: "QST" }] } },
      "TAX.rates[0].rate_bps",
    ],
    ["a rate without label", { TAX: { rates: [{ country: "US", rate_bps: 5 }] } }, "TAX.rates[0].label"],
    [
      "duplicate rates",
      {
        TAX: {
          rates: [
            { country: "US", region: "CA", rate_bps: 5, label: "T" },
            { country: "us", region: "US-CA", rate_bps: 6, label: "t" },
          ],
        },
      },
      "TAX.rates[1]: duplicate rate label",
    ],
    ["a non-array DISCOUNTS", { DISCOUNTS: { code: "X" } }, "DISCOUNTS: Invalid input"],
    [
      "duplicate codes",
      {
        DISCOUNTS: [
          { code: "SAVE", title: "A", type: "free_shipping" },
          { code: "save", title: "B", type: "free_shipping" },
        ],
      },
      "DISCOUNTS[1].code: duplicate code",
    ],
    [
      "a code with spaces",
      { DISCOUNTS: [{ code: "SAVE 10", title: "A", type: "free_shipping" }] },
      "DISCOUNTS[0].code",
    ],
    [
      "a percentage over 100",
      { DISCOUNTS: [{ code: "X", title: "X", type: "percentage", value: 101 }] },
      "DISCOUNTS[0].value: a percentage discount needs a value from 1 to 100",
    ],
    [
      "a percentage without value",
      { DISCOUNTS: [{ code: "X", title: "X", type: "percentage" }] },
      "DISCOUNTS[0].value",
    ],
    [
      "a fixed amount without value",
      { DISCOUNTS: [{ code: "X", title: "X", type: "fixed_amount" }] },
      "DISCOUNTS[0].value: a fixed_amount discount needs a value",
    ],
    [
      "a zero fixed amount",
      { DISCOUNTS: [{ code: "X", title: "X", type: "fixed_amount", value: 0 }] },
      "DISCOUNTS[0].value",
    ],
    [
      "free shipping with a value",
      { DISCOUNTS: [{ code: "X", title: "X", type: "free_shipping", value: 5 }] },
      "DISCOUNTS[0].value: a free_shipping discount takes no value",
    ],
    ["an unknown type", { DISCOUNTS: [{ code: "X", title: "X", type: "bogo" }] }, "DISCOUNTS[0].type"],
    [
      "a date without time",
      { DISCOUNTS: [{ code: "X", title: "X", type: "free_shipping", expires_at: "2025-01-01" }] },
      "DISCOUNTS[0].expires_at",
    ],
    [
      "an empty window",
      {
        DISCOUNTS: [
          {
            code: "X",
            title: "X",
            type: "free_shipping",
            starts_at: "2025-01-02T00:00:00Z",
            expires_at: "2025-01-01T00:00:00Z",
          },
        ],
      },
      "DISCOUNTS[0].expires_at: expires_at is not after starts_at",
    ],
  ];

  it.each(cases)("names %s", (_name, vars, expected) => {
    const problems = problemsOf(vars);
    expect(
      problems.some((p) => p.startsWith(expected)),
      problems.join("\n"),
    ).toBe(true);
  });

  it("reports problems in every var at once", () => {
    const problems = problemsOf({ SHIPPING: "nope", TAX: { rates: "x" }, DISCOUNTS: [{}] });
    expect(problems.filter((p) => p.startsWith("SHIPPING"))).toHaveLength(1);
    expect(problems.some((p) => p.startsWith("TAX.rates"))).toBe(true);
    expect(problems.some((p) => p.startsWith("DISCOUNTS[0].code"))).toBe(true);
  });
});
