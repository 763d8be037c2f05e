/** Prices for people: integer minor units → the store's currency in the store's locale. */

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string, locale: string): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: "currency", currency });
    // One store, one currency and locale: the bound only matters to tests that vary them.
    if (formatters.size >= 16) formatters.clear();
    formatters.set(key, f);
  }
  return f;
}

/** Digits after the decimal point for `currency` (USD 2, JPY 0, KWD 3), per ISO 4217 as Intl knows it. */
export function minorDigits(currency: string): number {
  return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** `formatMoney(1999, "USD", "en-US")` → "$19.99". Integer arithmetic until the final division. */
export function formatMoney(minor: number, currency: string, locale: string): string {
  const f = formatter(currency, locale);
  const digits = f.resolvedOptions().maximumFractionDigits ?? 2;
  return f.format(minor / 10 ** digits);
}
