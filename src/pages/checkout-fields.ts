/**
 * The one checkout form's fields and the values they show: from the checkout as get_checkout
 * returned it, or, after a submit, from what the buyer sent (no submit drops a field). Input
 * names are their ids. Labels are message keys (src/i18n), in one place.
 */
import type { MessageKey } from "../i18n/messages/en";
import { TEST_CARDS } from "./card-form";
import { type PageCheckout, selectedDestination, shippingMethod } from "./checkout-data";
import { field } from "./context";

export interface TextField {
  /** The input's id and name. */
  readonly id: string;
  /** The buyer's or the destination's property it edits. */
  readonly key: string;
  readonly label: MessageKey;
  readonly autocomplete: string;
  readonly type?: string;
  readonly required?: boolean;
  readonly max?: number;
}

export const CONTACT: readonly TextField[] = [
  {
    id: "contact-email",
    key: "email",
    label: "checkout.field.email",
    autocomplete: "email",
    type: "email",
    required: true,
    max: 320,
  },
  {
    id: "contact-phone_number",
    key: "phone_number",
    label: "checkout.field.phone",
    autocomplete: "tel",
    type: "tel",
    max: 64,
  },
];

export const ADDRESS: readonly TextField[] = [
  {
    id: "address-first_name",
    key: "first_name",
    label: "checkout.field.firstName",
    autocomplete: "shipping given-name",
  },
  { id: "address-last_name", key: "last_name", label: "checkout.field.lastName", autocomplete: "shipping family-name" },
  {
    id: "address-street_address",
    key: "street_address",
    label: "checkout.field.street",
    autocomplete: "shipping address-line1",
    required: true,
    max: 300,
  },
  {
    id: "address-extended_address",
    key: "extended_address",
    label: "checkout.field.extended",
    autocomplete: "shipping address-line2",
    max: 300,
  },
  {
    id: "address-address_locality",
    key: "address_locality",
    label: "checkout.field.city",
    autocomplete: "shipping address-level2",
    required: true,
  },
  {
    id: "address-address_region",
    key: "address_region",
    label: "checkout.field.region",
    autocomplete: "shipping address-level1",
  },
  {
    id: "address-postal_code",
    key: "postal_code",
    label: "checkout.field.postalCode",
    autocomplete: "shipping postal-code",
    max: 32,
  },
];

export const COUNTRY: TextField = {
  id: "address-address_country",
  key: "address_country",
  label: "checkout.field.country",
  autocomplete: "shipping country",
  required: true,
  max: 64,
};

export const OPTION_FIELD = "option";
export const CODE_FIELD = "code";
export const REMOVE_CODE_FIELD = "remove_code";
export const REMOVE_LINE_FIELD = "remove";
export const CARD_FIELDS = ["card_number", "card_expiry", "card_cvc", "card_name"] as const;

export function quantityField(lineId: string): string {
  return `qty_${lineId}`;
}

/** What each input shows, by input name. */
export type FormValues = Readonly<Record<string, string>>;

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** The values as the checkout holds them (a first visit, or after a redirect). */
export function valuesOfCheckout(checkout: PageCheckout): FormValues {
  const buyer = checkout.buyer ?? {};
  const method = shippingMethod(checkout);
  const current = selectedDestination(method);
  const out: Record<string, string> = {};
  for (const f of CONTACT) out[f.id] = text(buyer[f.key]);
  // A recipient's name defaults to the buyer's.
  for (const f of ADDRESS) out[f.id] = text(current?.[f.key]) || (f.key.endsWith("_name") ? text(buyer[f.key]) : "");
  out[COUNTRY.id] = current?.address_country ?? text(checkout.context?.address_country);
  out[OPTION_FIELD] = method?.groups[0]?.selected_option_id ?? "";
  for (const line of checkout.line_items) out[quantityField(line.id)] = String(line.quantity);
  return out;
}

/** The submitted values, trimmed and capped; `card`: keep the card's fields too. */
export function valuesOfForm(form: FormData, checkout: PageCheckout): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of [...CONTACT, ...ADDRESS, COUNTRY]) out[f.id] = field(form, f.id, f.max ?? 200);
  out[OPTION_FIELD] = field(form, OPTION_FIELD, 64);
  out[CODE_FIELD] = field(form, CODE_FIELD, 64);
  for (const line of checkout.line_items) out[quantityField(line.id)] = field(form, quantityField(line.id), 8);
  out.card_number = field(form, "card_number", 32);
  out.card_expiry = field(form, "card_expiry", 16);
  out.card_cvc = field(form, "card_cvc", 8);
  out.card_name = field(form, "card_name", 200);
  return out;
}

/**
 * The card fields shown back after a submit: only a documented test card's (test mode has
 * nothing else). Any other number, perhaps a real card typed by mistake, is never written
 * into a page; its security code goes with it.
 */
export function cardValuesToShow(values: FormValues): FormValues {
  const digits = (values.card_number ?? "").replace(/[\s-]/g, "");
  const known = TEST_CARDS.some((c) => c.number === digits);
  return {
    card_number: known ? (values.card_number ?? "") : "",
    card_cvc: known ? (values.card_cvc ?? "") : "",
    card_expiry: values.card_expiry ?? "",
    card_name: values.card_name ?? "",
  };
}
