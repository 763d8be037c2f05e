/**
 * The editable sections of an open checkout: contact details, shipping address, shipping
 * method. Each is one form prefilled from the checkout as get_checkout returned it; its
 * notices and the checkout's messages about it are shown above its fields.
 */
import { countryOf, shippingCountries } from "./checkout-countries";
import { type PageCheckout, type PageDestination, selectedDestination, shippingMethod } from "./checkout-data";
import { type FeedbackItem, fieldAttrs, renderFeedback } from "./checkout-feedback";
import { formOpen } from "./checkout-form";
import { money } from "./checkout-summary";
import type { PageContext } from "./context";
import { html, type SafeHtml } from "./html";

interface TextField {
  readonly name: string;
  readonly label: string;
  readonly autocomplete: string;
  readonly type?: string;
  readonly required?: boolean;
  readonly max?: number;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function input(field: TextField, value: string, notes: readonly FeedbackItem[], prefix: string): SafeHtml {
  const id = `${prefix}-${field.name}`;
  return html`<label for="${id}">${field.label}${field.required ? "" : html` <span class="muted">(optional)</span>`}</label>
<input id="${id}" name="${field.name}" type="${field.type ?? "text"}" autocomplete="${field.autocomplete}" value="${value}" maxlength="${field.max ?? 200}"${field.required ? html` required` : ""}${fieldAttrs(notes, field.name)}>`;
}

const CONTACT: readonly TextField[] = [
  { name: "email", label: "Email", autocomplete: "email", type: "email", required: true, max: 320 },
  { name: "first_name", label: "First name", autocomplete: "given-name" },
  { name: "last_name", label: "Last name", autocomplete: "family-name" },
  { name: "phone_number", label: "Phone", autocomplete: "tel", type: "tel", max: 64 },
];

export function contactSection(
  ctx: PageContext,
  token: string,
  checkout: PageCheckout,
  notes: readonly FeedbackItem[],
): SafeHtml {
  const buyer = checkout.buyer ?? {};
  return html`<section class="card" aria-labelledby="h-contact">
<h2 id="h-contact">Contact</h2>
${renderFeedback(notes)}
${formOpen(ctx, token, "contact")}
${CONTACT.map((f) => input(f, text(buyer[f.name]), notes, "contact"))}
<p><button type="submit">Save contact details</button></p>
</form></section>`;
}

const ADDRESS: readonly TextField[] = [
  { name: "first_name", label: "First name", autocomplete: "shipping given-name" },
  { name: "last_name", label: "Last name", autocomplete: "shipping family-name" },
  { name: "street_address", label: "Street address", autocomplete: "shipping address-line1", required: true, max: 300 },
  { name: "extended_address", label: "Apartment, suite, floor", autocomplete: "shipping address-line2", max: 300 },
  { name: "address_locality", label: "City", autocomplete: "shipping address-level2", required: true },
  { name: "address_region", label: "State, province or region", autocomplete: "shipping address-level1" },
  { name: "postal_code", label: "Postal code", autocomplete: "shipping postal-code", max: 32 },
];

function countryField(
  ctx: PageContext,
  checkout: PageCheckout,
  current: PageDestination | undefined,
  notes: readonly FeedbackItem[],
): SafeHtml {
  const choices = shippingCountries(ctx.env, ctx.config.storefront.locale);
  const written = current?.address_country ?? text(checkout.context?.address_country);
  if (choices.length === 0) {
    return input(
      { name: "address_country", label: "Country", autocomplete: "shipping country", required: true, max: 64 },
      written,
      notes,
      "address",
    );
  }
  const chosen = countryOf(written) ?? (choices.length === 1 ? choices[0]?.code : undefined);
  return html`<label for="address-address_country">Country</label>
<select id="address-address_country" name="address_country" autocomplete="shipping country" required${fieldAttrs(notes, "address_country")}>
${chosen ? "" : html`<option value="">Choose a country</option>`}
${choices.map((c) => html`<option value="${c.code}"${c.code === chosen ? html` selected` : ""}>${c.name}</option>`)}
</select>`;
}

export function addressSection(
  ctx: PageContext,
  token: string,
  checkout: PageCheckout,
  notes: readonly FeedbackItem[],
): SafeHtml {
  const current = selectedDestination(shippingMethod(checkout));
  const buyer = checkout.buyer ?? {};
  // A recipient's name defaults to the buyer's.
  const value = (name: string) => text(current?.[name]) || (name.endsWith("_name") ? text(buyer[name]) : "");
  return html`<section class="card" aria-labelledby="h-address">
<h2 id="h-address">Shipping address</h2>
${renderFeedback(notes)}
${formOpen(ctx, token, "address")}
${ADDRESS.map((f) => input(f, value(f.name), notes, "address"))}
${countryField(ctx, checkout, current, notes)}
<p><button type="submit">Save shipping address</button></p>
</form></section>`;
}

export function shippingSection(
  ctx: PageContext,
  token: string,
  checkout: PageCheckout,
  notes: readonly FeedbackItem[],
): SafeHtml {
  const group = shippingMethod(checkout)?.groups[0];
  const options = group?.options ?? [];
  const body =
    options.length === 0
      ? html`<p class="muted">Shipping methods appear once the shipping address is saved.</p>`
      : html`${formOpen(ctx, token, "shipping")}
<fieldset${fieldAttrs(notes, "option")}><legend>Choose how to ship</legend>
${options.map((o) => {
  const price = o.totals.find((t) => t.type === "total")?.amount ?? 0;
  const id = `option-${o.id}`;
  return html`<div class="choice"><input type="radio" id="${id}" name="option" value="${o.id}"${o.id === group?.selected_option_id ? html` checked` : ""}>
<label for="${id}">${o.title} · ${price === 0 ? "Free" : money(ctx, checkout, price)}${o.description ? html`<span class="muted hint">${o.description}</span>` : ""}</label></div>`;
})}
</fieldset>
<p><button type="submit">Use this shipping method</button></p>
</form>`;
  return html`<section class="card" aria-labelledby="h-shipping">
<h2 id="h-shipping">Shipping method</h2>
${renderFeedback(notes)}
${body}
</section>`;
}
