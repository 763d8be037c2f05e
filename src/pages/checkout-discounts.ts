/**
 * Discount codes on the checkout: the codes applied (with what each takes off), the codes
 * sent but rejected (the checkout's messages say why), a remove button for each, and a form
 * to add one. Codes are matched case-insensitively by the store.
 */
import type { PageApplied, PageCheckout } from "./checkout-data";
import { type FeedbackItem, fieldAttrs, renderFeedback } from "./checkout-feedback";
import { formOpen } from "./checkout-form";
import { money } from "./checkout-summary";
import type { PageContext } from "./context";
import { html, type SafeHtml } from "./html";

export function sameCode(a: string, b: string): boolean {
  return a.trim().toUpperCase() === b.trim().toUpperCase();
}

function appliedFor(checkout: PageCheckout, code: string): PageApplied | undefined {
  return checkout.discounts?.applied?.find((a) => typeof a.code === "string" && sameCode(a.code, code));
}

function codeRow(ctx: PageContext, token: string, checkout: PageCheckout, code: string): SafeHtml {
  const applied = appliedFor(checkout, code);
  const what = applied
    ? html`<strong>${code}</strong>: ${applied.title}${applied.amount > 0 ? html` (−${money(ctx, checkout, applied.amount)})` : ""}`
    : html`<strong>${code}</strong> <span class="status">not applied</span>`;
  return html`<li class="row code">${formOpen(ctx, token, "discount_remove")}<input type="hidden" name="code" value="${code}"><span>${what}</span>
<button class="link" type="submit">Remove<span class="visually-hidden"> code ${code}</span></button></form></li>`;
}

export function discountSection(
  ctx: PageContext,
  token: string,
  checkout: PageCheckout,
  notes: readonly FeedbackItem[],
): SafeHtml {
  const codes = checkout.discounts?.codes ?? [];
  return html`<section class="card" aria-labelledby="h-discounts">
<h2 id="h-discounts">Discount codes</h2>
${renderFeedback(notes)}
${codes.length > 0 ? html`<ul class="plain codes">${codes.map((c) => codeRow(ctx, token, checkout, c))}</ul>` : ""}
${formOpen(ctx, token, "discount_add")}
<label for="discount-code">Discount code</label>
<div class="row"><input id="discount-code" name="code" autocomplete="off" autocapitalize="characters" maxlength="64" required${fieldAttrs(notes, "code")}>
<button type="submit" class="secondary">Apply code</button></div>
</form></section>`;
}
