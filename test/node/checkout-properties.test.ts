/**
 * Property-style checks of the pricing engine over generated carts and configs (seeded, so
 * failures reproduce): allocations sum exactly, totals add up, nothing goes negative, and
 * every produced array validates against the official schemas.
 */
import { describe, expect, it } from "vitest";
import { type CommerceConfig, parseCommerceConfig } from "../../src/checkout/commerce-config";
import { applyDiscounts, finalizeFreeShipping } from "../../src/checkout/discounts";
import { shippingOptions } from "../../src/checkout/fulfillment";
import { allocateLargestRemainder, mulDivHalfUp } from "../../src/checkout/money";
import { taxTotals } from "../../src/checkout/tax";
import { checkoutTotals, lineTotals } from "../../src/checkout/totals";
import { validateOfficial } from "../helpers/official-schema";

const NOW = Date.UTC(2026, 3, 15);
const RUNS = 400;

/** mulberry32: a small seeded PRNG. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)] as T;
  return { next, int, pick };
}
type Rng = ReturnType<typeof rng>;

function randomConfig(r: Rng): CommerceConfig {
  const option = (id: string) => ({ id, title: `Option ${id}`, amount: r.int(0, 3000), carrier: "Post", min_days: 1 });
  const result = parseCommerceConfig({
    SHIPPING: {
      ...(r.next() < 0.7 ? { free_shipping_threshold: r.int(0, 20_000) } : {}),
      zones: [{ countries: ["US"], options: ["a", "b", "c"].slice(0, r.int(1, 3)).map(option) }],
    },
    TAX: {
      shipping_taxable: r.next() < 0.5,
      rates: [
        { country: "US", rate_bps: r.int(0, 2500), label: "Country" },
        { country: "US", region: "CA", rate_bps: r.int(0, 1500), label: "State" },
        { country: "US", region: "CA", rate_bps: r.int(0, 500), label: "District" },
      ],
    },
    DISCOUNTS: [
      { code: "PCT", title: "Percent", type: "percentage", value: r.int(1, 100) },
      { code: "FIX", title: "Fixed", type: "fixed_amount", value: r.int(1, 50_000), min_subtotal: r.int(0, 5000) },
      { code: "SHIP", title: "Ship", type: "free_shipping" },
      { code: "OLD", title: "Old", type: "percentage", value: 50, expires_at: "2026-01-01T00:00:00Z" },
    ],
  });
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.config;
}

function randomCart(r: Rng) {
  return Array.from({ length: r.int(1, 8) }, (_, i) => {
    const price = r.next() < 0.1 ? 0 : r.int(1, 20_000);
    const quantity = r.int(1, 5);
    return { id: `li_${i + 1}`, subtotal: price * quantity };
  });
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

function expectValid(ref: string, value: unknown) {
  const result = validateOfficial(ref, value);
  expect(result.errors, JSON.stringify(value)).toEqual([]);
}

describe("pricing properties over generated carts", () => {
  it(`holds for ${RUNS} carts`, () => {
    const r = rng(20260408);
    for (let run = 0; run < RUNS; run++) {
      const config = randomConfig(r);
      const lines = randomCart(r);
      const codes = Array.from({ length: r.int(0, 4) }, () => r.pick(["PCT", "fix", "SHIP", "OLD", "NOPE", "pct"]));
      const merchandise = sum(lines.map((l) => l.subtotal));
      const outcome = applyDiscounts({ codes, lines, config, now: NOW, currency: "USD" });

      // Discounts: allocations sum to the amount, and no line goes below zero.
      expect(outcome.codes).toEqual(codes);
      for (const applied of outcome.applied) {
        expect(sum(applied.allocations.map((a) => a.amount))).toBe(applied.amount);
        expectValid("https://ucp.dev/schemas/shopping/discount.json#/$defs/applied_discount", applied);
      }
      const amountOff = outcome.applied.find((a) => a.priority === 1);
      const itemsDiscount = sum(Object.values(outcome.lineDiscounts));
      expect(itemsDiscount).toBe(amountOff?.amount ?? 0);
      expect(itemsDiscount).toBeLessThanOrEqual(merchandise);
      lines.forEach((line, i) => {
        const share = outcome.lineDiscounts[line.id] ?? -1;
        expect(share).toBeGreaterThanOrEqual(0);
        expect(share).toBeLessThanOrEqual(line.subtotal);
        const allocated = amountOff?.allocations.find((a) => a.path === `$.line_items[${i}]`)?.amount ?? 0;
        expect(allocated).toBe(share);
        if (amountOff && merchandise > 0) {
          // Largest remainder: each share is the floor or the ceiling of the exact share.
          const exact = (amountOff.amount * line.subtotal) / merchandise;
          expect(Math.abs(share - exact)).toBeLessThan(1);
        }
      });
      if (amountOff?.method === "each") {
        const value = config.discounts.find((d) => d.code === "PCT")?.value ?? 0;
        expect(amountOff.amount).toBe(Math.floor((merchandise * value + 50) / 100));
      }
      for (const message of outcome.messages) expect(message.path).toMatch(/^\$\.discounts\.codes\[\d+\]$/);
      expect(outcome.applied.length + outcome.messages.length).toBe(codes.length);

      // Shipping: cheapest first; free exactly where eligible and earned.
      const after = merchandise - itemsDiscount - outcome.orderDiscount;
      const shipping = shippingOptions(config, { address_country: "US" }, after, outcome.freeShipping, "$.d");
      if (!shipping.ok) throw new Error(shipping.message.content);
      const paid = shipping.options.map((o) => o.totals[0]?.amount ?? -1);
      expect(paid).toEqual([...paid].sort((a, b) => a - b));
      const threshold = config.shipping.free_shipping_threshold;
      for (const option of shipping.options) {
        const configured = config.shipping.zones[0]?.options.find((o) => o.id === option.id);
        const earned = (threshold !== undefined && after >= threshold) || outcome.freeShipping;
        expect(option.totals[0]?.amount).toBe(configured?.free_eligible && earned ? 0 : configured?.amount);
        expectValid("https://ucp.dev/schemas/shopping/types/fulfillment_option.json", option);
      }

      // Selection (or none), free-shipping finalization, tax, totals.
      const selected = r.next() < 0.8 ? r.pick(shipping.options) : undefined;
      const fulfillment = selected?.totals[0]?.amount;
      const saved = selected ? (shipping.codeSavings[selected.id] ?? 0) : 0;
      const applied = finalizeFreeShipping(outcome, saved, "$.fulfillment.methods[0].groups[0]");
      for (const entry of applied) expect(sum(entry.allocations.map((a) => a.amount))).toBe(entry.amount);
      const region = r.pick(["CA", "NY", undefined]);
      const taxes = taxTotals(config, { address_country: "US", address_region: region }, after, fulfillment ?? 0);
      const base = after + (config.tax.shipping_taxable ? (fulfillment ?? 0) : 0);
      for (const tax of taxes) {
        const rate = config.tax.rates.find((t) => t.label === tax.display_text)?.rate_bps ?? -1;
        expect(tax.amount).toBe(Math.floor((base * rate + 5000) / 10_000));
      }
      expect(taxes.length).toBe(region === "CA" ? 2 : 1);

      const totals = checkoutTotals({
        merchandise,
        itemsDiscount,
        orderDiscount: outcome.orderDiscount,
        ...(fulfillment === undefined ? {} : { fulfillment }),
        taxes,
      });
      const total = totals.at(-1);
      expect(total?.type).toBe("total");
      expect(sum(totals.slice(0, -1).map((t) => t.amount))).toBe(total?.amount);
      expect(total?.amount).toBe(after + (fulfillment ?? 0) + sum(taxes.map((t) => t.amount)));
      expect(total?.amount).toBeGreaterThanOrEqual(0);
      expect(totals.filter((t) => t.type === "fulfillment")).toHaveLength(selected ? 1 : 0);
      expectValid("https://ucp.dev/schemas/shopping/types/totals.json", totals);

      // Lines: each adds up, and their items_discount entries sum to the checkout's.
      const perLine = lines.map((line) => lineTotals(line.subtotal, outcome.lineDiscounts[line.id] ?? 0));
      for (const lt of perLine) {
        expect(sum(lt.slice(0, -1).map((t) => t.amount))).toBe(lt.at(-1)?.amount);
        expect(lt.at(-1)?.amount).toBeGreaterThanOrEqual(0);
        expectValid("https://ucp.dev/schemas/shopping/types/totals.json", lt);
      }
      const lineItemsDiscount = sum(
        perLine.flatMap((lt) => lt.filter((t) => t.type === "items_discount")).map((t) => t.amount),
      );
      const top = totals.find((t) => t.type === "items_discount")?.amount ?? 0;
      expect(lineItemsDiscount).toBe(top);
    }
  });
});

describe("money helpers", () => {
  it("allocates exactly by largest remainder, within one unit of the exact share, never above a weight", () => {
    const r = rng(7);
    for (let run = 0; run < 2000; run++) {
      const big = r.next() < 0.2;
      const weights = Array.from({ length: r.int(1, 12) }, () =>
        r.next() < 0.15 ? 0 : r.int(1, big ? 2 ** 40 : 10_000),
      );
      const total = r.int(0, sum(weights));
      const shares = allocateLargestRemainder(total, weights);
      expect(sum(shares)).toBe(total);
      const W = BigInt(sum(weights));
      weights.forEach((w, i) => {
        const share = BigInt(shares[i] ?? -1);
        const floor = W === 0n ? 0n : (BigInt(total) * BigInt(w)) / W;
        expect(share === floor || share === floor + 1n).toBe(true);
        expect(share <= BigInt(w)).toBe(true);
      });
    }
    expect(allocateLargestRemainder(10, [0, 0])).toEqual([0, 0]);
    expect(allocateLargestRemainder(0, [3, 4])).toEqual([0, 0]);
  });

  it("rounds half-up exactly, even past 2^53", () => {
    const r = rng(11);
    for (let run = 0; run < 2000; run++) {
      const amount = r.next() < 0.3 ? r.int(0, Number.MAX_SAFE_INTEGER) : r.int(0, 100_000);
      const numerator = r.int(0, 10_000);
      const denominator = r.pick([100, 10_000, 3, 7]);
      const product = BigInt(amount) * BigInt(numerator);
      const d = BigInt(denominator);
      const expected = product / d + (2n * (product % d) >= d ? 1n : 0n);
      expect(mulDivHalfUp(amount, numerator, denominator)).toBe(Number(expected));
    }
    expect(mulDivHalfUp(15, 10, 100)).toBe(2);
    expect(mulDivHalfUp(14, 10, 100)).toBe(1);
    expect(mulDivHalfUp(25, 1, 10)).toBe(3);
  });
});
