/** Prices for people: integer minor units → the store's currency in the store's locale. */
import { formatMinor } from "../checkout/money";

/** `formatMoney(1999, "USD", "en-US")` → "$19.99" (the same formatting as emails and messages). */
export function formatMoney(minor: number, currency: string, locale: string): string {
  return formatMinor(minor, currency, locale);
}
