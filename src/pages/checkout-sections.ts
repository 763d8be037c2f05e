/**
 * The one form's sections for the buyer's details: contact, shipping address, shipping method.
 * No section has a button of its own: the page's one button (and Enter) sends them all. Each
 * field shows its value (the checkout's, or what was just typed) and its error next to it.
 */
import { type Translate, translator } from "../i18n/translate";
import { countryOf, shippingCountries } from "./checkout-countries";
import { type PageCheckout, shippingMethod } from "./checkout-data";
import { type Feedback, fieldAttrs, fieldError } from "./checkout-feedback";
import { ADDRESS, CONTACT, COUNTRY, type FormValues, OPTION_FIELD, type TextField } from "./checkout-fields";
import { money } from "./checkout-summary";
import type { PageContext } from "./context";
import { html, type SafeHtml } from "./html";

function input(t: Translate, field: TextField, values: FormValues, feedback: Feedback | undefined): SafeHtml {
  return html`<label for="${field.id}">${t(field.label)}${field.required ? "" : html` <span class="muted">${t("checkout.optional")}</span>`}</label>
${fieldError(feedback, field.id)}<input id="${field.id}" name="${field.id}" type="${field.type ?? "text"}" autocomplete="${field.autocomplete}" value="${values[field.id] ?? ""}" maxlength="${field.max ?? 200}"${field.required ? html` aria-required="true"` : ""}${fieldAttrs(feedback, field.id)}>`;
}

export function contactSection(ctx: PageContext, values: FormValues, feedback: Feedback | undefined): SafeHtml {
  const t = translator(ctx);
  return html`<section class="card" aria-labelledby="h-contact">
<h2 id="h-contact">${t("checkout.contact")}</h2>
${CONTACT.map((f) => input(t, f, values, feedback))}
</section>`;
}

function countryField(ctx: PageContext, values: FormValues, feedback: Feedback | undefined): SafeHtml {
  const t = translator(ctx);
  const choices = shippingCountries(ctx.env, ctx.config.storefront.locale);
  const written = values[COUNTRY.id] ?? "";
  if (choices.length === 0) return input(t, COUNTRY, values, feedback);
  const chosen = countryOf(written) ?? (choices.length === 1 ? choices[0]?.code : undefined);
  return html`<label for="${COUNTRY.id}">${t(COUNTRY.label)}</label>
${fieldError(feedback, COUNTRY.id)}<select id="${COUNTRY.id}" name="${COUNTRY.id}" autocomplete="${COUNTRY.autocomplete}" aria-required="true"${fieldAttrs(feedback, COUNTRY.id)}>
${chosen ? "" : html`<option value="">${t("checkout.chooseCountry")}</option>`}
${choices.map((c) => html`<option value="${c.code}"${c.code === chosen ? html` selected` : ""}>${c.name}</option>`)}
</select>`;
}

export function addressSection(ctx: PageContext, values: FormValues, feedback: Feedback | undefined): SafeHtml {
  const t = translator(ctx);
  return html`<section class="card" aria-labelledby="h-address" id="address-section">
<h2 id="h-address">${t("checkout.address")}</h2>
<div class="grid two">${ADDRESS.slice(0, 2).map((f) => html`<div>${input(t, f, values, feedback)}</div>`)}</div>
${ADDRESS.slice(2).map((f) => input(t, f, values, feedback))}
${countryField(ctx, values, feedback)}
</section>`;
}

/** The options for the checkout's address; the one in `values` is checked (else the store's pick). */
export function shippingSection(
  ctx: PageContext,
  checkout: PageCheckout,
  values: FormValues,
  feedback: Feedback | undefined,
): SafeHtml {
  const t = translator(ctx);
  const group = shippingMethod(checkout)?.groups[0];
  const options = group?.options ?? [];
  const wanted = values[OPTION_FIELD];
  const checked = options.some((o) => o.id === wanted) ? wanted : group?.selected_option_id;
  const body =
    options.length === 0
      ? html`<p class="muted">${t("checkout.noShippingOptions")}</p>`
      : html`${fieldError(feedback, "shipping-options")}<fieldset id="shipping-options"${fieldAttrs(feedback, "shipping-options")}><legend>${t("checkout.chooseShipping")}</legend>
${options.map((o) => {
  const price = o.totals.find((t) => t.type === "total")?.amount ?? 0;
  const id = `option-${o.id}`;
  return html`<div class="choice"><input type="radio" id="${id}" name="${OPTION_FIELD}" value="${o.id}"${o.id === checked ? html` checked` : ""}>
<label for="${id}">${o.title} · ${price === 0 ? t("checkout.free") : money(ctx, checkout, price)}${o.description ? html`<span class="muted hint">${o.description}</span>` : ""}</label></div>`;
})}
</fieldset>`;
  return html`<section class="card" aria-labelledby="h-shipping" id="shipping-section">
<h2 id="h-shipping">${t("checkout.shippingMethod")}</h2>
${body}
</section>`;
}
