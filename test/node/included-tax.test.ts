/**
 * Tax-inclusive totals (TAX.prices_include_tax) over generated orders: the total is the gross
 * (merchandise after discounts plus shipping), never more; the included taxes are the total's
 * sub-lines with the net rest, summing to it; each tax is round-half-up of gross × rate /
 * (10000 + Σ rates); and the arrays are valid against both versions' official totals schema.
 */
import { describe, expect, it } from "vitest";
import { parseCommerceConfig } from "../../src/checkout/commerce-config";
import { taxFor } from "../../src/checkout/tax";
import { checkoutTotals } from "../../src/checkout/totals";
import { confirmationView } from "../../src/notify/order-confirmation";
import type { OrderState } from "../../src/order/order-state";
import { validateOfficial } from "../helpers/official-schema";
import { validateCurrent } from "../helpers/official-schema-current";

function seeded(seed: number) {
  let a = seed >>> 0;
  return (min: number, max: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return min + Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * (max - min + 1));
  };
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

describe("tax-inclusive totals", () => {
  it("hold for 500 generated orders", () => {
    const int = seeded(25);
    for (let run = 0; run < 500; run++) {
      const parsed = parseCommerceConfig({
        TAX: {
          prices_include_tax: true,
          shipping_taxable: int(0, 1) === 1,
          rates: [
            { country: "CA", region: "BC", rate_bps: int(0, 2500), label: "GST" },
            { country: "CA", region: "BC", rate_bps: int(0, 1500), label: "PST" },
          ],
        },
      });
      if (!parsed.ok) throw new Error(parsed.problems.join("\n"));
      const config = parsed.config;
      const merchandise = int(0, 500_000);
      const orderDiscount = int(0, 1) === 1 ? int(0, merchandise) : 0;
      const shipping = int(0, 4000);
      const after = merchandise - orderDiscount;
      const taxes = taxFor(config, { address_country: "CA", address_region: "BC" }, after, shipping, "$").totals;
      const totals = checkoutTotals({
        merchandise,
        itemsDiscount: 0,
        orderDiscount,
        fulfillment: shipping,
        taxes: [],
        includedTaxes: taxes,
      });

      const total = totals.at(-1);
      expect(totals.some((t) => t.type === "tax")).toBe(false);
      expect(total?.amount).toBe(after + shipping);
      expect(sum(totals.slice(0, -1).map((t) => t.amount))).toBe(total?.amount);
      expect(sum((total?.lines ?? []).map((l) => l.amount))).toBe(total?.amount);
      expect(total?.lines?.at(-1)?.amount).toBeGreaterThanOrEqual(0);
      const base = after + (config.tax.shipping_taxable ? shipping : 0);
      const combined = sum(config.tax.rates.map((r) => r.rate_bps));
      for (const [i, rate] of config.tax.rates.entries()) {
        const exact = (base * rate.rate_bps) / (10_000 + combined);
        expect(total?.lines?.[i]).toEqual({
          type: "tax",
          display_text: `incl. ${rate.label}`,
          amount: Math.floor(exact + 0.5),
        });
      }
      expect(validateOfficial("https://ucp.dev/schemas/shopping/types/totals.json", totals).errors).toEqual([]);
      expect(validateCurrent("https://ucp.dev/schemas/common/types/totals.json", totals).errors).toEqual([]);
    }
  });

  it("prices that exclude tax keep the top-level tax entries and no sub-lines", () => {
    const parsed = parseCommerceConfig({ TAX: { rates: [{ country: "DE", rate_bps: 1900, label: "VAT" }] } });
    if (!parsed.ok) throw new Error("config");
    const taxes = taxFor(parsed.config, { address_country: "DE" }, 10_000, 0, "$").totals;
    const totals = checkoutTotals({ merchandise: 10_000, itemsDiscount: 0, orderDiscount: 0, taxes });
    expect(totals).toEqual([
      { type: "subtotal", display_text: "Subtotal", amount: 10_000 },
      { type: "tax", display_text: "VAT", amount: 1900 },
      { type: "total", display_text: "Total", amount: 11_900 },
    ]);
  });
});

describe("the confirmation email of a tax-inclusive order", () => {
  it("shows the included tax under the total, not as an amount added to it", () => {
    const parsed = parseCommerceConfig({
      TAX: { prices_include_tax: true, rates: [{ country: "DE", rate_bps: 1900, label: "VAT (19%)" }] },
    });
    if (!parsed.ok) throw new Error("config");
    const taxes = taxFor(parsed.config, { address_country: "DE" }, 11_900, 0, "$").totals;
    const totals = checkoutTotals({
      merchandise: 11_900,
      itemsDiscount: 0,
      orderDiscount: 0,
      taxes: [],
      includedTaxes: taxes,
    });
    const order = {
      id: "ord_1",
      currency: "USD",
      totals,
      line_items: [],
      expectations: [],
      permalink_url: "https://shop.example.com/orders/t",
    };
    const view = confirmationView(order as unknown as OrderState, "Shop", "en-US");
    expect(view.totals.map((t) => [t.label, t.amount, t.grand])).toEqual([
      ["Subtotal", "$119.00", false],
      ["Total", "$119.00", true],
      ["incl. VAT (19%)", "$19.00", false],
    ]);
  });
});
