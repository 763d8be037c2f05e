/**
 * Tax-inclusive pricing (TAX.prices_include_tax): catalog prices and shipping amounts are
 * gross, so the tax is the part of them a rate accounts for, never an amount on top. Rounding
 * (docs/decisions/checkout.md "Tax-inclusive prices"): per order and per rate, half-up in minor units,
 * on the gross taxable base after discounts: tax = base × rate / (10000 + Σ rates at that level).
 *
 * On the wire the included taxes are not top-level `tax` entries (platforms check
 * Σ non-total entries == total and would see the tax twice): they are `lines` of the `total`
 * entry, each `type: "tax"` and labelled "incl. …", with the net remainder as the last line,
 * so the sub-lines sum to the total as the spec requires.
 */
import type { Total } from "../../schemas/ucp/cart";
import type { TaxRate } from "./commerce-config";
import { mulDivHalfUp } from "./money";

/** The words buyers and agents read (one place, for the i18n catalogs to take over). */
export const INCLUDED_TAX_TEXT = {
  included: (label: string) => `incl. ${label}`,
  net: "Net amount",
  cartNote: "Prices include tax. Shipping is worked out at checkout.",
} as const;

/** One included `tax` total per rate. Rates at one level share the gross (e.g. GST + PST). */
export function includedTaxes(grossBase: number, rates: readonly TaxRate[]): Total[] {
  const combined = rates.reduce((sum, r) => sum + r.rate_bps, 0);
  return rates.map((rate) => ({
    type: "tax",
    display_text: INCLUDED_TAX_TEXT.included(rate.label),
    amount: mulDivHalfUp(grossBase, rate.rate_bps, 10_000 + combined),
  }));
}

/** A sub-line of a totals entry (types/totals.json `lines`); `type` is our metadata. */
export interface TotalLine {
  readonly type?: string;
  readonly display_text: string;
  readonly amount: number;
}

/** The `total` entry's sub-lines: each included tax, then the net rest (they sum to the total). */
export function includedLines(total: number, taxes: readonly Total[]): TotalLine[] {
  const lines = taxes.map((t) => ({ type: "tax", display_text: t.display_text ?? "Tax", amount: t.amount }));
  const net = total - lines.reduce((sum, l) => sum + l.amount, 0);
  return [...lines, { type: "net", display_text: INCLUDED_TAX_TEXT.net, amount: net }];
}

/** What a page or email shows under the total: the included taxes of a totals list (none: prices exclude tax). */
export function includedTaxesOf(
  totals: readonly { type: string; lines?: readonly TotalLine[] }[] | undefined,
): TotalLine[] {
  const total = totals?.find((t) => t.type === "total");
  return (total?.lines ?? []).filter((l) => l.type === "tax");
}
