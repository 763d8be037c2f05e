/**
 * "incl. VAT (19%)" under a page's total when the store's prices include tax: the total
 * entry's tax sub-lines as the API gives them (src/checkout/included-tax.ts).
 */
import { INCLUDED_TAX_TEXT, includedTaxesOf, type TotalLine } from "../checkout/included-tax";
import { commerceConfig } from "../checkout/merchant-commerce";
import { html, type SafeHtml } from "./html";

type Totals = Parameters<typeof includedTaxesOf>[0];

/** One table row per included tax; `header`: the label cell is a row header (th), as the checkout's summary has it. */
export function includedTaxRows(totals: Totals, price: (minor: number) => string, header = false): SafeHtml[] {
  return includedTaxesOf(totals).map((line: TotalLine) =>
    header
      ? html`<tr class="included" data-total="included_tax"><th scope="row">${line.display_text}</th><td class="num">${price(line.amount)}</td></tr>`
      : html`<tr class="included" data-total="included_tax"><td>${line.display_text}</td><td class="num">${price(line.amount)}</td></tr>`,
  );
}

/** The cart's note under its summary: tax is already in its prices, or added at checkout. */
export function cartTaxNote(env: Env): string {
  let inclusive = false;
  try {
    inclusive = commerceConfig(env).tax.prices_include_tax;
  } catch {
    // The store's settings do not parse: checkout will say so; the cart keeps the plain note.
  }
  return inclusive ? INCLUDED_TAX_TEXT.cartNote : "Shipping and tax are worked out at checkout.";
}
