/**
 * Discount codes on the checkout, inside its one form: the codes applied (with what each
 * takes off), the codes sent but rejected (the checkout's messages say why), a remove button
 * for each, and the field to add one. Every button here sends the whole form, so nothing
 * typed elsewhere is lost. Codes are matched case-insensitively by the store.
 */
import { type Translate, translator } from "../i18n/translate";
import type { PageApplied, PageCheckout } from "./checkout-data";
import { type Feedback, fieldAttrs, fieldError } from "./checkout-feedback";
import { CODE_FIELD, type FormValues, REMOVE_CODE_FIELD } from "./checkout-fields";
import { money } from "./checkout-summary";
import type { PageContext } from "./context";
import { html, type SafeHtml } from "./html";

export function sameCode(a: string, b: string): boolean {
  return a.trim().toUpperCase() === b.trim().toUpperCase();
}

function appliedFor(checkout: PageCheckout, code: string): PageApplied | undefined {
  return checkout.discounts?.applied?.find((a) => typeof a.code === "string" && sameCode(a.code, code));
}

function codeRow(ctx: PageContext, t: Translate, checkout: PageCheckout, code: string): SafeHtml {
  const applied = appliedFor(checkout, code);
  const what = applied
    ? html`<strong>${code}</strong>: ${applied.title}${applied.amount > 0 ? html` (−${money(ctx, checkout, applied.amount)})` : ""}`
    : html`<strong>${code}</strong> <span class="status">${t("checkout.codeNotApplied")}</span>`;
  return html`<li class="row code"><span>${what}</span>
<button class="link" type="submit" name="${REMOVE_CODE_FIELD}" value="${code}">${t("checkout.remove")}<span class="visually-hidden"> ${t("checkout.removeCode", { code })}</span></button></li>`;
}

export function discountSection(
  ctx: PageContext,
  checkout: PageCheckout,
  values: FormValues,
  feedback: Feedback | undefined,
): SafeHtml {
  const t = translator(ctx);
  const codes = checkout.discounts?.codes ?? [];
  return html`<div class="discounts" id="discounts">
${codes.length > 0 ? html`<ul class="plain codes">${codes.map((c) => codeRow(ctx, t, checkout, c))}</ul>` : ""}
<label for="${CODE_FIELD}">${t("checkout.discountCode")}</label>
${fieldError(feedback, CODE_FIELD)}<div class="row"><input id="${CODE_FIELD}" name="${CODE_FIELD}" autocomplete="off" autocapitalize="characters" maxlength="64" value="${values[CODE_FIELD] ?? ""}"${fieldAttrs(feedback, CODE_FIELD)}>
<button type="submit" name="action" value="apply" class="secondary">${t("checkout.applyCode")}</button></div>
</div>`;
}
