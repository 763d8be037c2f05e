/**
 * Addresses as buyers and agents spell them, to the codes the store prices by: a country
 * name, alias or alpha-3 code to ISO 3166-1 alpha-2, and a region name to its ISO 3166-2
 * subdivision code. The table is generated (npm run geo:table) from i18n-iso-countries and
 * iso-3166; it names regions only for the countries a store taxes by region.
 */
import { geoKey } from "./geo-key";
import { COUNTRY_KEYS, REGION_KEYS } from "./iso3166-table";

const ALPHA2 = new Set(Object.values(COUNTRY_KEYS));

/** "Germany", "deu", "DE" → "DE"; undefined for what names no country. */
export function countryCode(input: string | undefined): string | undefined {
  const key = geoKey(input ?? "");
  if (key.length === 2 && ALPHA2.has(key.toUpperCase())) return key.toUpperCase();
  return COUNTRY_KEYS[key];
}

/**
 * The subdivision code within `country` ("CA" for "California", "ca" or "US-CA"), or
 * undefined when it names none. For a country without region names in the table, only
 * something shaped like a code (1-3 letters or digits) is taken, as written.
 */
export function regionCode(country: string, input: string | undefined): string | undefined {
  const trimmed = (input ?? "").trim();
  const prefix = `${country.toUpperCase()}-`;
  const bare = trimmed.toUpperCase().startsWith(prefix) ? trimmed.slice(prefix.length) : trimmed;
  const names = REGION_KEYS[country.toUpperCase()];
  if (names) return names[geoKey(bare)];
  return /^[A-Za-z0-9]{1,3}$/.test(bare) ? bare.toUpperCase() : undefined;
}
