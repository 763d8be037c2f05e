/**
 * "incl. VAT (19%)" under a page's total when the store's prices include tax: the total
 * entry's tax sub-lines as the API gives them (src/checkout/included-tax.ts).
 */
import { includedTaxesOf, type TotalLine } from "../checkout/included-tax";
import { commerceConfig } from "../checkout/merchant-commerce";
import { includedLabel } from "../i18n/total-labels";
import type { Translate } from "../i18n/translate";
import { html, type SafeHtml } from "./html";

type Totals = Parameters<typeof includedTaxesOf>[0];

/**
 * One table row per included tax; `header`: the label cell is a row header (th), as the
 * checkout's summary has it; `t`: in the store's words ("inkl. …"), else the API's.
 */
export function includedTaxRows(
  totals: Totals,
  price: (minor: number) => string,
  header = false,
  t?: Translate,
): SafeHtml[] {
  return includedTaxesOf(totals).map((line: TotalLine) => {
    const label = t ? includedLabel(t, line.display_text) : line.display_text;
    return header
      ? html`<tr class="included" data-total="included_tax"><th scope="row">${label}</th><td class="num">${price(line.amount)}</td></tr>`
      : html`<tr class="included" data-total="included_tax"><td>${label}</td><td class="num">${price(line.amount)}</td></tr>`;
  });
}

/** The cart's note under its summary: tax is already in its prices, or added at checkout. */
export function cartTaxNote(t: Translate, env: Env): string {
  let inclusive = false;
  try {
    inclusive = commerceConfig(env).tax.prices_include_tax;
  } catch {
    // The store's settings do not parse: checkout will say so; the cart keeps the plain note.
  }
  return t(inclusive ? "cart.taxIncludedNote" : "cart.taxNote");
}
