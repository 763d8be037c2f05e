/**
 * The countries the address form offers: those the store's shipping zones list, or every
 * country when a zone ships to "*" (src/checkout/commerce-config.ts), named in the store's
 * locale. The store still decides on the address it receives (address_undeliverable).
 */
import type { CommerceConfig } from "../checkout/commerce-config";
import { commerceConfig } from "../checkout/merchant-commerce";
import { COUNTRY_KEYS } from "../lib/geo/iso3166-table";
import { countryCode } from "../lib/geo/places";

export interface CountryChoice {
  readonly code: string;
  readonly name: string;
}

const ALL_CODES = [...new Set(Object.values(COUNTRY_KEYS))];
const cache = new Map<string, CountryChoice[]>();

function named(codes: readonly string[], locale: string): CountryChoice[] {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([locale, "en"], { type: "region" });
  } catch {
    names = undefined;
  }
  return codes
    .map((code) => ({ code, name: names?.of(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name, locale));
}

/** Empty when the shipping settings cannot be read: the form then takes the country as text. */
export function shippingCountries(env: Env, locale: string): readonly CountryChoice[] {
  let config: CommerceConfig;
  try {
    config = commerceConfig(env);
  } catch {
    return [];
  }
  const listed = config.shipping.zones.flatMap((z) => z.countries);
  const codes = listed.includes("*") ? ALL_CODES : [...new Set(listed)];
  const key = `${locale}|${codes.join(",")}`;
  let choices = cache.get(key);
  if (!choices) {
    choices = named(codes, locale);
    if (cache.size >= 8) cache.clear();
    cache.set(key, choices);
  }
  return choices;
}

/** A country as an address spells it ("Germany", "DEU", "DE") → its code, for preselecting. */
export function countryOf(written: string | undefined): string | undefined {
  return countryCode(written);
}
