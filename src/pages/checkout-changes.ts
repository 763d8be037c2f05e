/**
 * The one form, read: what the buyer sent, checked field by field (errors name their input),
 * and the update_checkout an agent would send for it (lines, buyer and context whole, since
 * update replaces them; fulfillment and codes only when they changed). Nothing that fails a
 * check is sent, and nothing that passes is held back because another field failed.
 */

import { type Translate, translator } from "../i18n/translate";
import { shippingCountries } from "./checkout-countries";
import { type PageCheckout, selectedDestination, shippingMethod, unchangedUpdate } from "./checkout-data";
import { sameCode } from "./checkout-discounts";
import type { PageError } from "./checkout-feedback";
import {
  ADDRESS,
  CODE_FIELD,
  COUNTRY,
  type FormValues,
  OPTION_FIELD,
  quantityField,
  REMOVE_CODE_FIELD,
  REMOVE_LINE_FIELD,
} from "./checkout-fields";
import type { CheckoutAction } from "./checkout-form";
import { NOTICES, type NoticeCode } from "./checkout-notices";
import { field, type PageContext } from "./context";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NAME_KEYS = new Set(["first_name", "last_name"]);
const CONTACT_KEYS = new Set(["email", "phone_number", "first_name", "last_name"]);

export interface ReadForm {
  readonly errors: PageError[];
  /** update_checkout's `checkout`, or undefined when nothing differs from the checkout. */
  readonly update?: Record<string, unknown>;
  /** A code typed into the code field (to be applied by this submit). */
  readonly addedCode?: string;
}

export function errorOf(t: Translate, code: NoticeCode): PageError {
  const notice = NOTICES[code];
  return { text: t(notice.key), ...("input" in notice ? { input: notice.input } : {}) };
}

/** Key order does not make two objects differ. */
function same(a: unknown, b: unknown): boolean {
  const canon = (v: unknown): unknown =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .sort(([x], [y]) => (x < y ? -1 : 1))
            .map(([k, inner]) => [k, canon(inner)]),
        )
      : Array.isArray(v)
        ? v.map(canon)
        : v;
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

function buyerOf(t: Translate, checkout: PageCheckout, values: FormValues, demand: boolean, errors: PageError[]) {
  const email = values["contact-email"] ?? "";
  const valid = email.length <= 320 && EMAIL.test(email);
  if (!email && demand) errors.push(errorOf(t, "email_missing"));
  if (email && !valid) errors.push(errorOf(t, "email"));
  const before = checkout.buyer ?? {};
  const buyer: Record<string, unknown> = Object.fromEntries(
    Object.entries(before).filter(([k]) => !CONTACT_KEYS.has(k)),
  );
  // A mistyped address keeps the one the checkout had: a typo never removes it.
  if (valid) buyer.email = email;
  else if (email && typeof before.email === "string") buyer.email = before.email;
  const phone = values["contact-phone_number"];
  if (phone) buyer.phone_number = phone;
  // The recipient is the buyer: the address's names are the buyer's names.
  for (const f of ADDRESS) if (NAME_KEYS.has(f.key) && values[f.id]) buyer[f.key] = values[f.id];
  return buyer;
}

function destinationOf(
  ctx: PageContext,
  checkout: PageCheckout,
  values: FormValues,
  demand: boolean,
  errors: PageError[],
): Record<string, string> | undefined {
  const typed = ADDRESS.some((f) => !NAME_KEYS.has(f.key) && values[f.id]);
  const current = selectedDestination(shippingMethod(checkout));
  if (!typed && (current || !demand)) return undefined;
  const country = values[COUNTRY.id] ?? "";
  const problems: NoticeCode[] = [];
  if (!values["address-street_address"]) problems.push("street_missing");
  if (!values["address-address_locality"]) problems.push("city_missing");
  const choices = shippingCountries(ctx.env, ctx.config.storefront.locale);
  if (!country) problems.push("country_missing");
  else if (choices.length > 0 && !choices.some((c) => c.code === country)) problems.push("country");
  if (problems.length > 0) {
    const t = translator(ctx);
    errors.push(...problems.map((p) => errorOf(t, p)));
    return undefined;
  }
  const destination: Record<string, string> = { address_country: country };
  for (const f of ADDRESS) if (values[f.id]) destination[f.key] = values[f.id] as string;
  return destination;
}

function fulfillmentOf(checkout: PageCheckout, destination: Record<string, string> | undefined, values: FormValues) {
  const method = shippingMethod(checkout);
  const current = selectedDestination(method);
  const group = method?.groups[0];
  const option = values[OPTION_FIELD] ?? "";
  const keys = [...ADDRESS.map((f) => f.key), COUNTRY.key];
  const moved = destination !== undefined && keys.some((k) => (current?.[k] ?? "") !== (destination[k] ?? ""));
  const picked = group?.options.some((o) => o.id === option) && option !== group.selected_option_id;
  if (!moved && !picked) return undefined;
  // The option goes with the address: the store keeps it if the new address offers it.
  const groups = picked && group ? [{ id: group.id, selected_option_id: option }] : undefined;
  if (moved) return { methods: [{ type: "shipping", destinations: [destination], ...(groups ? { groups } : {}) }] };
  return { methods: [{ id: method?.id, type: "shipping", groups }] };
}

function linesOf(t: Translate, checkout: PageCheckout, form: FormData, values: FormValues, errors: PageError[]) {
  const removed = field(form, REMOVE_LINE_FIELD, 64);
  const lines: Array<{ id: string; item: { id: string }; quantity: number }> = [];
  for (const line of checkout.line_items) {
    const input = quantityField(line.id);
    const written = values[input] ?? "";
    let quantity = line.id === removed ? 0 : written === "" ? line.quantity : Number(written);
    if (!Number.isInteger(quantity) || quantity < 0 || quantity > 999) {
      errors.push({ text: t(NOTICES.quantity.key), input });
      quantity = line.quantity;
    }
    if (quantity > 0) lines.push({ id: line.id, item: { id: line.item.id }, quantity });
  }
  return lines;
}

function codesOf(checkout: PageCheckout, form: FormData, values: FormValues) {
  const before = checkout.discounts?.codes ?? [];
  const removed = field(form, REMOVE_CODE_FIELD, 64);
  const typed = values[CODE_FIELD] ?? "";
  let codes = removed ? before.filter((c) => !sameCode(c, removed)) : [...before];
  const added = typed && !codes.some((c) => sameCode(c, typed)) ? typed : undefined;
  if (added) codes = [...codes, added].slice(0, 10);
  return { codes, changed: codes.length !== before.length || added !== undefined, added };
}

/** Reads the one form against the checkout it was shown for. */
export function readCheckoutForm(
  ctx: PageContext,
  checkout: PageCheckout,
  form: FormData,
  values: FormValues,
  action: CheckoutAction,
): ReadForm {
  const t = translator(ctx);
  const errors: PageError[] = [];
  const demand = action !== "apply";
  const lines = linesOf(t, checkout, form, values, errors);
  const buyer = buyerOf(t, checkout, values, demand, errors);
  const destination = destinationOf(ctx, checkout, values, demand, errors);
  const fulfillment = fulfillmentOf(checkout, destination, values);
  const codes = codesOf(checkout, form, values);
  const base = unchangedUpdate(checkout);
  const linesChanged = !same(lines, base.line_items);
  const buyerChanged = !same(buyer, checkout.buyer ?? {});
  if (!linesChanged && !buyerChanged && !fulfillment && !codes.changed) return { errors };
  const { buyer: _old, ...rest } = base;
  const update = {
    ...rest,
    line_items: lines,
    ...(Object.keys(buyer).length > 0 ? { buyer } : {}),
    ...(fulfillment ? { fulfillment } : {}),
    ...(codes.changed ? { discounts: { codes: codes.codes } } : {}),
  };
  return { errors, update, ...(codes.added ? { addedCode: codes.added } : {}) };
}
