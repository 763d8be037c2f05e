/**
 * check:config's warning for a fixed-amount discount that looks like major units: amounts are
 * integer minor units, so `value = 15.00` reads as 15 (0.15 USD), which is almost never meant.
 * Two signs, either enough: the TOML spells the number with a decimal point (TOML floats reach
 * the Worker as plain numbers, so only the source text tells), or the amount is below one
 * major unit. A warning, not an error: a merchant may really mean 15 cents off.
 */
import { readFileSync } from "node:fs";

interface Discount {
  readonly type?: unknown;
  readonly value?: unknown;
  readonly min_subtotal?: unknown;
}

/**
 * `at` locates a var (`[vars.DISCOUNTS]`, `[env.b.vars.DISCOUNTS]`); `tomlPath` is read for the
 * decimal points of `[[vars.DISCOUNTS]]` tables (inline and JSON forms get the amount check only).
 */
export function discountUnitWarnings(
  discounts: unknown,
  currency: string,
  at: string,
  tomlPath: string | undefined,
  env: string | undefined,
): string[] {
  if (!Array.isArray(discounts)) return [];
  const digits = fractionDigits(currency);
  const unit = 10 ** digits;
  const decimals = tomlPath ? decimalFields(readFileSync(tomlPath, "utf8"), env) : [];
  const warnings: string[] = [];
  for (const [i, d] of (discounts as Discount[]).entries()) {
    const written = decimals[i] ?? new Set<string>();
    for (const field of ["value", "min_subtotal"] as const) {
      const amount = d?.[field];
      if (typeof amount !== "number" || !Number.isInteger(amount) || amount <= 0) continue;
      if (field === "value" && d.type !== "fixed_amount") continue;
      const small = field === "value" && digits > 0 && amount < unit;
      if (!written.has(field) && !small) continue;
      const means = (amount / unit).toFixed(digits);
      const how = written.has(field) ? `written with a decimal point, it is read as ${amount}` : `${amount}`;
      warnings.push(
        `${at}[${i}].${field}: ${how} = ${means} ${currency}: amounts are whole minor units of ${currency}; for ${amount.toFixed(digits)} ${currency} write ${amount * unit}`,
      );
    }
  }
  return warnings;
}

function fractionDigits(currency: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** Per `[[…vars.DISCOUNTS]]` table of the store, in order: the fields written as decimals. */
function decimalFields(toml: string, env: string | undefined): Set<string>[] {
  const header = env ? `[[env.${env}.vars.DISCOUNTS]]` : "[[vars.DISCOUNTS]]";
  const tables: Set<string>[] = [];
  let current: Set<string> | undefined;
  for (const line of toml.split("\n")) {
    const trimmed = line.trim();
    if (trimmed.startsWith("[")) {
      current = trimmed.replace(/\s+/g, "") === header ? new Set() : undefined;
      if (current) tables.push(current);
      continue;
    }
    const decimal = /^(value|min_subtotal)\s*=\s*[+]?\d[\d_]*\.\d/.exec(trimmed);
    if (current && decimal?.[1]) current.add(decimal[1]);
  }
  return tables;
}
