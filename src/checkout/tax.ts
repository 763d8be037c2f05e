/**
 * Sales tax for a destination: one `tax` total per applicable rate, each rounded half-up on
 * its own (added on top, or the part the gross prices include: included-tax.ts). The most specific match wins: when any rate names the destination's region, the
 * country-wide rates do not apply, and every rate at that level does (e.g. GST + PST).
 * Destinations are normalized first ("California", "Germany", "DEU"); one the store cannot
 * price is a message, never a silent zero.
 */
import type { Total } from "../../schemas/ucp/cart";
import type { Message } from "../../schemas/ucp/common";
import { countryCode, regionCode } from "../lib/geo/places";
import type { CommerceConfig, TaxRate } from "./commerce-config";
import type { Destination } from "./fulfillment";
import { includedTaxes } from "./included-tax";
import { mulDivHalfUp } from "./money";

export interface TaxResult {
  readonly totals: Total[];
  /** Why the destination could not be priced; absent when it could. */
  readonly message?: Message;
}

/**
 * `taxableMerchandise` is merchandise after every discount; `shipping` (the selected option's
 * amount) is added to the base only when the config says shipping is taxable. `path` points
 * at the destination in the caller's document.
 */
export function taxFor(
  config: Pick<CommerceConfig, "tax">,
  destination: Destination,
  taxableMerchandise: number,
  shipping: number,
  path: string,
): TaxResult {
  const base = Math.max(0, taxableMerchandise) + (config.tax.shipping_taxable ? Math.max(0, shipping) : 0);
  const found = applicableRates(config.tax.rates, destination);
  const totals = config.tax.prices_include_tax
    ? includedTaxes(base, found.rates)
    : found.rates.map(
        (rate): Total => ({ type: "tax", display_text: rate.label, amount: mulDivHalfUp(base, rate.rate_bps, 10_000) }),
      );
  return found.ok ? { totals } : { totals, message: unpriceable(`${path}.${found.field}`, found.content) };
}

/** Tax lines only, for an estimate (the buyer's context): country-wide rates where the region is unknown. */
export function taxTotals(
  config: Pick<CommerceConfig, "tax">,
  destination: Destination,
  taxableMerchandise: number,
  shipping: number,
): Total[] {
  return taxFor(config, destination, taxableMerchandise, shipping, "$").totals;
}

/** When not ok, `rates` is the best estimate (country-wide rates), never a final price. */
export type ApplicableRates =
  | { ok: true; rates: TaxRate[] }
  | { ok: false; rates: TaxRate[]; field: "address_country" | "address_region"; content: string };

/** Rates for the destination's region if any exist, else its country-wide rates. */
export function applicableRates(rates: readonly TaxRate[], destination: Destination): ApplicableRates {
  const written = destination.address_country?.trim();
  if (!written) return { ok: true, rates: [] };
  const country = countryCode(written);
  if (!country)
    return { ok: false, rates: [], field: "address_country", content: `"${written}" is not a country we recognize.` };
  const inCountry = rates.filter((r) => r.country === country);
  const countryWide = inCountry.filter((r) => r.region === undefined);
  const byRegion = inCountry.some((r) => r.region !== undefined);
  const region = destination.address_region?.trim();
  const field = "address_region";
  if (byRegion && !region)
    return { ok: false, rates: countryWide, field, content: "The address needs a state or province to price tax." };
  const code = region ? regionCode(country, region) : undefined;
  if (byRegion && !code)
    return { ok: false, rates: countryWide, field, content: `"${region}" is not a state or province we recognize.` };
  const regional = code ? inCountry.filter((r) => r.region === code) : [];
  return { ok: true, rates: regional.length > 0 ? regional : countryWide };
}

function unpriceable(path: string, content: string): Message {
  return { type: "error", code: "invalid", path, content, severity: "recoverable" };
}
