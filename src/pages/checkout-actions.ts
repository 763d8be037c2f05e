/**
 * The checkout forms' POSTs: each becomes the update_checkout or complete_checkout call an
 * agent would make (the whole lines, buyer and context re-sent, since update replaces them),
 * then a 303 back to the page with short notice codes. Nothing the buyer typed goes into the
 * redirect or a log; the card number goes nowhere but into the choice of test token.
 */
import { type BuyerCallFailure, callAsBuyer, type ToolPayload } from "./buyer-tools";
import { testCardCredential } from "./card-form";
import { shippingCountries } from "./checkout-countries";
import { asCheckout, type PageCheckout, paymentHandlers, shippingMethod, unchangedUpdate } from "./checkout-data";
import { sameCode } from "./checkout-discounts";
import { type CheckoutAction, checkoutPath, formKey, isAction } from "./checkout-form";
import { type NoticeCode, withNotices } from "./checkout-notices";
import { field, type PageContext } from "./context";
import { seeOther } from "./respond";
import { stripeCardInstrument, stripePageHandler } from "./stripe-card-form";

type Outcome = { readonly notices: readonly NoticeCode[] } | { readonly location: string };

const OPEN = new Set(["incomplete", "requires_escalation", "ready_for_complete"]);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function runCheckoutAction(
  ctx: PageContext,
  token: string,
  id: string,
  form: FormData,
): Promise<Response> {
  const outcome = await act(ctx, id, form);
  const path = checkoutPath(token);
  return seeOther("location" in outcome ? `${path}${outcome.location}` : withNotices(path, outcome.notices));
}

async function act(ctx: PageContext, id: string, form: FormData): Promise<Outcome> {
  const action = field(form, "action", 32);
  if (!isAction(action)) return { notices: ["invalid"] };
  const key = formKey(form);
  if (!key) return { notices: ["form_expired"] };
  const read = await callAsBuyer(ctx, "get_checkout", { id }, { handoff: true });
  if (!read.ok) return { notices: [failureNotice(read.error)] };
  const checkout = asCheckout(read.value);
  // A session that is gone or closed: the page itself says which.
  if (!checkout) return { notices: [] };
  if (!OPEN.has(checkout.status)) return { notices: ["closed"] };
  if (action === "place") return place(ctx, id, checkout, form, key);
  const built = buildUpdate(ctx, action, checkout, form);
  if ("notices" in built) return built;
  const sent = await callAsBuyer(
    ctx,
    "update_checkout",
    { id, checkout: { ...unchangedUpdate(checkout), ...built.changes } },
    { handoff: true, idempotencyKey: key },
  );
  if (!sent.ok) return { notices: [failureNotice(sent.error)] };
  const updated = asCheckout(sent.value);
  if (!updated || hasCode(sent.value, "invalid_status")) return { notices: ["closed"] };
  return { notices: [savedNotice(action, updated, built.code)] };
}

function failureNotice(failure: BuyerCallFailure): NoticeCode {
  if (failure.kind === "invalid") return "invalid";
  return failure.error.httpStatus === 409 ? "form_expired" : "try_again";
}

function hasCode(payload: ToolPayload, code: string): boolean {
  return Array.isArray(payload.messages) && payload.messages.some((m) => (m as { code?: unknown })?.code === code);
}

function savedNotice(action: Exclude<CheckoutAction, "place">, updated: PageCheckout, code?: string): NoticeCode {
  switch (action) {
    case "contact":
      return "contact_saved";
    case "address":
      return "address_saved";
    case "shipping":
      return "shipping_saved";
    case "items":
      return "items_saved";
    case "discount_remove":
      return "discount_removed";
    case "discount_add":
      return code && updated.discounts?.applied?.some((a) => a.code !== undefined && sameCode(a.code, code))
        ? "discount_applied"
        : "discount_rejected";
  }
}

type Built = { readonly changes: Record<string, unknown>; readonly code?: string } | { readonly notices: NoticeCode[] };

function buildUpdate(
  ctx: PageContext,
  action: Exclude<CheckoutAction, "place">,
  checkout: PageCheckout,
  form: FormData,
): Built {
  switch (action) {
    case "contact":
      return contactChanges(checkout, form);
    case "address":
      return addressChanges(ctx, form);
    case "shipping":
      return shippingChanges(checkout, form);
    case "items":
      return itemChanges(checkout, form);
    case "discount_add": {
      const code = field(form, "code", 64);
      if (!code) return { notices: ["discount_empty"] };
      const codes = checkout.discounts?.codes ?? [];
      const next = codes.some((c) => sameCode(c, code)) ? codes : [...codes, code];
      return { changes: { discounts: { codes: next.slice(0, 10) } }, code };
    }
    case "discount_remove": {
      const code = field(form, "code", 64);
      const codes = (checkout.discounts?.codes ?? []).filter((c) => !sameCode(c, code));
      return { changes: { discounts: { codes } } };
    }
  }
}

/** Only what is filled in: an emptied field removes it from the buyer. */
function filled(form: FormData, names: readonly string[], max = 200): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = field(form, name, max);
    if (value) out[name] = value;
  }
  return out;
}

const CONTACT_FIELDS = ["email", "first_name", "last_name", "phone_number"] as const;

function contactChanges(checkout: PageCheckout, form: FormData): Built {
  const entered = filled(form, CONTACT_FIELDS, 320);
  if (!entered.email || entered.email.length > 320 || !EMAIL.test(entered.email)) return { notices: ["email"] };
  if ((entered.phone_number?.length ?? 0) > 64) return { notices: ["invalid"] };
  const kept = Object.fromEntries(
    Object.entries(checkout.buyer ?? {}).filter(([k]) => !(CONTACT_FIELDS as readonly string[]).includes(k)),
  );
  return { changes: { buyer: { ...kept, ...entered } } };
}

const ADDRESS_FIELDS = [
  "first_name",
  "last_name",
  "street_address",
  "extended_address",
  "address_locality",
  "address_region",
  "postal_code",
] as const;

function addressChanges(ctx: PageContext, form: FormData): Built {
  const address = filled(form, ADDRESS_FIELDS, 300);
  const country = field(form, "address_country", 64);
  const choices = shippingCountries(ctx.env, ctx.config.storefront.locale);
  const notices: NoticeCode[] = [];
  if (!address.street_address || !address.address_locality || !country) notices.push("address_incomplete");
  if (country && choices.length > 0 && !choices.some((c) => c.code === country)) notices.push("country");
  if (notices.length > 0) return { notices };
  const destination = { ...address, address_country: country };
  return { changes: { fulfillment: { methods: [{ type: "shipping", destinations: [destination] }] } } };
}

function shippingChanges(checkout: PageCheckout, form: FormData): Built {
  const method = shippingMethod(checkout);
  const group = method?.groups[0];
  const option = field(form, "option", 64);
  if (!method || !group?.options.some((o) => o.id === option)) return { notices: ["shipping_option"] };
  const groups = [{ id: group.id, selected_option_id: option }];
  return { changes: { fulfillment: { methods: [{ id: method.id, type: "shipping", groups }] } } };
}

function itemChanges(checkout: PageCheckout, form: FormData): Built {
  const removed = field(form, "remove", 64);
  const lines: Array<{ id: string; item: { id: string }; quantity: number }> = [];
  for (const line of checkout.line_items) {
    const written = field(form, `qty_${line.id}`, 8);
    const quantity = line.id === removed ? 0 : written === "" ? line.quantity : Number(written);
    if (!Number.isInteger(quantity) || quantity < 0 || quantity > 999) return { notices: ["quantity"] };
    if (quantity > 0) lines.push({ id: line.id, item: { id: line.item.id }, quantity });
  }
  return { changes: { line_items: lines } };
}

async function place(
  ctx: PageContext,
  id: string,
  checkout: PageCheckout,
  form: FormData,
  key: string,
): Promise<Outcome> {
  const handlerId = field(form, "handler_id", 128);
  const handler = paymentHandlers(checkout).find((h) => h.id === handlerId);
  if (!handler) return { notices: ["handler"] };
  if (stripePageHandler(ctx.config, checkout)?.id === handler.id) {
    // Stripe's card form: the browser confirmed the PaymentIntent; only its id comes here.
    const instrument = await stripeCardInstrument(ctx, handler, field(form, "payment_intent", 255));
    if (!instrument) return { notices: ["not_placed"] };
    return complete(ctx, id, key, instrument);
  }
  if (!ctx.config.paymentTestMode || handler.config?.test_mode !== true) return { notices: ["payments_off"] };
  const card = testCardCredential(
    {
      number: field(form, "card_number", 32),
      expiry: field(form, "card_expiry", 16),
      cvc: field(form, "card_cvc", 8),
      name: field(form, "card_name", 200),
    },
    ctx.now,
  );
  if (!card.ok) return { notices: card.problems };
  const instrument = {
    id: "instr_checkout_page",
    handler_id: handler.id,
    type: "card",
    selected: true,
    display: card.card.display,
    credential: { type: "token", token: card.card.token },
  };
  return complete(ctx, id, key, instrument);
}

async function complete(
  ctx: PageContext,
  id: string,
  key: string,
  instrument: Record<string, unknown>,
): Promise<Outcome> {
  const done = await callAsBuyer(
    ctx,
    "complete_checkout",
    { id, checkout: { payment: { instruments: [instrument] } } },
    { handoff: true, idempotencyKey: key },
  );
  if (!done.ok) return { notices: [failureNotice(done.error)] };
  const result = asCheckout(done.value);
  if (result?.status === "completed") return { notices: ["placed"] };
  if (hasCode(done.value, "requires_3ds")) return { location: "/verify" };
  if (hasCode(done.value, "payment_failed")) return { notices: ["declined"] };
  if (hasCode(done.value, "not_ready")) return { notices: ["not_ready"] };
  if (hasCode(done.value, "invalid_handler")) return { notices: ["handler"] };
  if (hasCode(done.value, "payments_not_configured")) return { notices: ["payments_off"] };
  if (hasCode(done.value, "invalid_status")) return { notices: ["closed"] };
  return { notices: ["not_placed"] };
}
