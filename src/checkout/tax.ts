/**
 * Sales tax for a destination: one `tax` total per applicable rate, each rounded half-up on
 * its own. The most specific match wins: when any rate names the destination's region, the
 * country-wide rates do not apply, and every rate at that level does (e.g. GST + PST).
 */
import type { Total } from "../../schemas/ucp/cart";
import { type CommerceConfig, regionCode, type TaxRate } from "./commerce-config";
import type { Destination } from "./fulfillment";
import { mulDivHalfUp } from "./money";

/**
 * `taxableMerchandise` is merchandise after every discount; `shipping` (the selected option's
 * amount) is added to the base only when the config says shipping is taxable.
 */
export function taxTotals(
  config: Pick<CommerceConfig, "tax">,
  destination: Destination,
  taxableMerchandise: number,
  shipping: number,
): Total[] {
  const base = Math.max(0, taxableMerchandise) + (config.tax.shipping_taxable ? Math.max(0, shipping) : 0);
  return applicableRates(config.tax.rates, destination).map((rate) => ({
    type: "tax",
    display_text: rate.label,
    amount: mulDivHalfUp(base, rate.rate_bps, 10_000),
  }));
}

/** Rates for the destination's region if any exist, else its country-wide rates. */
export function applicableRates(rates: readonly TaxRate[], destination: Destination): TaxRate[] {
  const country = destination.address_country?.trim().toUpperCase();
  if (!country) return [];
  const inCountry = rates.filter((r) => r.country === country);
  const region = destination.address_region ? regionCode(country, destination.address_region) : undefined;
  const regional = region ? inCountry.filter((r) => r.region === region) : [];
  return regional.length > 0 ? regional : inCountry.filter((r) => r.region === undefined);
}
