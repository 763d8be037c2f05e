/**
 * Exact integer arithmetic on minor units for the pricing engine: half-up rates and
 * largest-remainder splits. BigInt keeps products exact past 2^53; no floats touch money
 * except in `formatMinor`, which only renders text.
 */

/** round_half_up(amount × numerator / denominator) for non-negative integers. */
export function mulDivHalfUp(amount: number, numerator: number, denominator: number): number {
  const den = BigInt(denominator);
  return Number((BigInt(amount) * BigInt(numerator) * 2n + den) / (2n * den));
}

/**
 * Splits `total` across `weights` in proportion, by largest remainder: every share is the
 * floor or the ceiling of its exact share, shares sum to exactly `total`, and no share
 * exceeds its weight when `total` ≤ Σweights. Ties go to the earlier index.
 */
export function allocateLargestRemainder(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, w) => a + w, 0);
  if (sum <= 0 || total <= 0) return weights.map(() => 0);
  const big = BigInt(total);
  const den = BigInt(sum);
  const parts = weights.map((w, index) => {
    const exact = big * BigInt(w);
    return { index, share: Number(exact / den), remainder: exact % den };
  });
  let left = total - parts.reduce((a, p) => a + p.share, 0);
  const byRemainder = [...parts].sort((a, b) =>
    a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
  );
  for (const part of byRemainder) {
    if (left === 0) break;
    part.share += 1;
    left -= 1;
  }
  return parts.map((p) => p.share);
}

/** "$25.00" for (2500, "USD"); bare minor units when no valid currency is known. */
export function formatMinor(amount: number, currency: string | undefined, locale = "en-US"): string {
  if (!currency) return `${amount} (minor units)`;
  try {
    const format = currencyFormat(locale, currency);
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(amount / 10 ** digits);
  } catch {
    return `${amount} ${currency} (minor units)`;
  }
}

const formats = new Map<string, Intl.NumberFormat>();

/** One store has one currency and locale: the cache stays tiny (bounded for tests that vary them). */
function currencyFormat(locale: string, currency: string): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: "currency", currency });
    if (formats.size >= 16) formats.clear();
    formats.set(key, format);
  }
  return format;
}
