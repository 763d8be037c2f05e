/**
 * The checkout form's POST: one update_checkout with everything the buyer sent (the call an
 * agent would make), then, for Pay, complete_checkout. The answer is the page itself, showing
 * every value as sent (nothing typed is lost) with what went wrong next to it; only a placed
 * order, a 3-D Secure step or a closed session redirect (with short codes, never what was typed).
 * The card number goes nowhere but into the choice of test token.
 */
import { translator } from "../i18n/translate";
import { type BuyerCallFailure, callAsBuyer, type ToolPayload } from "./buyer-tools";
import { testCardCredential } from "./card-form";
import { errorOf, readCheckoutForm } from "./checkout-changes";
import { asCheckout, type PageCheckout, paymentHandlers, shippingMethod, totalOf } from "./checkout-data";
import { sameCode } from "./checkout-discounts";
import { buildFeedback, type PageError } from "./checkout-feedback";
import { CODE_FIELD, type FormValues, OPTION_FIELD, quantityField, valuesOfForm } from "./checkout-fields";
import { actionOf, type CheckoutAction, formKey, SHOWN_TOTAL_FIELD } from "./checkout-form";
import { NOTICES, type NoticeCode, withNotices } from "./checkout-notices";
import { cardInputOf, payWay } from "./checkout-payment";
import { money } from "./checkout-summary";
import type { FormState } from "./checkout-view";
import { field, type PageContext } from "./context";
import { discountFacts } from "./discount-reasons";
import { stripeCardInstrument, stripePageHandler } from "./stripe-card-form";

/** Either where to send the browser (appended to the page's path), or the page to show. */
export type Submitted =
  | { readonly redirect: string }
  | { readonly checkout: PageCheckout; readonly state: FormState; readonly failed: boolean };

const OPEN = new Set(["incomplete", "requires_escalation", "ready_for_complete"]);

export async function runCheckoutAction(ctx: PageContext, id: string, form: FormData): Promise<Submitted> {
  const action = actionOf(field(form, "action", 32));
  if (!action) return { redirect: withNotices("", ["invalid"]) };
  const key = formKey(form);
  if (!key) return { redirect: withNotices("", ["form_expired"]) };
  const read = await callAsBuyer(ctx, "get_checkout", { id }, { handoff: true });
  if (!read.ok) return { redirect: withNotices("", [failureNotice(read.error)]) };
  const checkout = asCheckout(read.value);
  // A session that is gone or closed: the page itself says which.
  if (!checkout) return { redirect: "" };
  if (!OPEN.has(checkout.status)) return { redirect: withNotices("", ["closed"]) };
  return submit(ctx, id, checkout, form, action, key);
}

async function submit(
  ctx: PageContext,
  id: string,
  checkout: PageCheckout,
  form: FormData,
  action: CheckoutAction,
  key: string,
): Promise<Submitted> {
  const t = translator(ctx);
  const values = valuesOfForm(form, checkout);
  const read = readCheckoutForm(ctx, checkout, form, values, action);
  const errors = [...read.errors];
  const notices: NoticeCode[] = [];
  let current = checkout;
  if (read.update) {
    const sent = await callAsBuyer(
      ctx,
      "update_checkout",
      { id, checkout: read.update },
      { handoff: true, idempotencyKey: key },
    );
    if (!sent.ok) errors.push(errorOf(t, failureNotice(sent.error)));
    else if (hasCode(sent.value, "invalid_status") || !asCheckout(sent.value))
      return { redirect: withNotices("", ["closed"]) };
    else current = asCheckout(sent.value) as PageCheckout;
  }
  const applied =
    read.addedCode && current.discounts?.applied?.some((a) => a.code && sameCode(a.code, read.addedCode ?? ""));
  if (applied) notices.push("code_applied");
  const testWay = payWay(ctx, current, undefined).kind === "test";
  // The card is checked once it is typed, and always to pay.
  const cardTyped = ["card_number", "card_expiry", "card_cvc", "card_name"].some((n) => values[n]);
  const card =
    testWay && (action === "pay" || (action === "continue" && cardTyped)) ? checkCard(ctx, values) : undefined;
  if (card && !card.ok) errors.push(...card.problems.map((p) => errorOf(t, p)));

  if (action === "pay" && errors.length === 0) {
    const shown = Number(field(form, SHOWN_TOTAL_FIELD, 16));
    if (current.status !== "ready_for_complete") {
      if (!(current.messages ?? []).some((m) => m.type === "error")) errors.push(errorOf(t, "not_ready"));
    } else if (read.addedCode) {
      // A new code changes what is paid: the buyer sees the new total before paying it.
      if (!applied) notices.push("saved");
    } else if (totalOf(current) !== shown) {
      errors.push({ text: t("checkout.totalChanged", { total: money(ctx, current, totalOf(current)) }) });
    } else {
      const paid = await pay(ctx, id, current, form, key, card?.ok ? card.instrument : undefined);
      if ("redirect" in paid) return paid;
      errors.push(...paid.errors);
      current = paid.checkout ?? current;
    }
  } else if (action === "continue" && errors.length === 0 && current.status === "ready_for_complete") {
    notices.push("ready");
  }
  return {
    checkout: current,
    failed: errors.length > 0,
    state: {
      values: shownValues(values, current, errors),
      feedback: buildFeedback({
        t,
        checkout: current,
        pageErrors: errors,
        notices: notices.map((n) => t(NOTICES[n].key)),
        demand: action !== "apply",
        submitted: true,
        cardInput: cardInputOf(payWay(ctx, current, undefined)),
        discounts: discountFacts(ctx, current),
      }),
    },
  };
}

/** What the fields show after a submit: as sent, except what the store now decides (lines, option, a used code). */
function shownValues(values: FormValues, checkout: PageCheckout, errors: readonly PageError[]): FormValues {
  const out: Record<string, string> = { ...values };
  const flagged = new Set(errors.map((e) => e.input));
  for (const line of checkout.line_items) {
    const input = quantityField(line.id);
    if (!flagged.has(input)) out[input] = String(line.quantity);
  }
  const selected = shippingMethod(checkout)?.groups[0]?.selected_option_id;
  if (selected) out[OPTION_FIELD] = selected;
  const code = values[CODE_FIELD] ?? "";
  if (code && (checkout.discounts?.codes ?? []).some((c) => sameCode(c, code))) out[CODE_FIELD] = "";
  return out;
}

function checkCard(ctx: PageContext, values: FormValues) {
  const result = testCardCredential(
    {
      number: values.card_number ?? "",
      expiry: values.card_expiry ?? "",
      cvc: values.card_cvc ?? "",
      name: values.card_name ?? "",
    },
    ctx.now,
  );
  return result.ok ? { ok: true as const, instrument: result.card } : { ok: false as const, problems: result.problems };
}

function failureNotice(failure: BuyerCallFailure): NoticeCode {
  if (failure.kind === "invalid") return "invalid";
  return failure.error.httpStatus === 409 ? "form_expired" : "try_again";
}

function hasCode(payload: ToolPayload, code: string): boolean {
  return Array.isArray(payload.messages) && payload.messages.some((m) => (m as { code?: unknown })?.code === code);
}

type Paid = { readonly redirect: string } | { readonly errors: PageError[]; readonly checkout?: PageCheckout };

async function pay(
  ctx: PageContext,
  id: string,
  checkout: PageCheckout,
  form: FormData,
  key: string,
  card: { token: string; display: { brand: string; last_digits: string } } | undefined,
): Promise<Paid> {
  const t = translator(ctx);
  const handlerId = field(form, "handler_id", 128);
  const handler = paymentHandlers(checkout).find((h) => h.id === handlerId);
  if (!handler) return { errors: [errorOf(t, "handler")] };
  if (stripePageHandler(ctx.config, checkout)?.id === handler.id) {
    // Stripe's card form: the browser confirmed the PaymentIntent; only its id comes here.
    const intent = field(form, "payment_intent", 255);
    if (!intent) return { errors: [errorOf(t, "card_needs_script")] };
    const instrument = await stripeCardInstrument(ctx, handler, intent);
    if (!instrument) return { errors: [errorOf(t, "not_placed")] };
    return complete(ctx, id, key, instrument, "payment-section");
  }
  if (!ctx.config.paymentTestMode || handler.config?.test_mode !== true)
    return { errors: [errorOf(t, "payments_off")] };
  if (!card) return { errors: [errorOf(t, "card_number")] };
  const instrument = {
    id: "instr_checkout_page",
    handler_id: handler.id,
    type: "card",
    selected: true,
    display: card.display,
    credential: { type: "token", token: card.token },
  };
  return complete(ctx, id, key, instrument, "card_number");
}

async function complete(
  ctx: PageContext,
  id: string,
  key: string,
  instrument: Record<string, unknown>,
  cardInput: string,
): Promise<Paid> {
  const done = await callAsBuyer(
    ctx,
    "complete_checkout",
    { id, checkout: { payment: { instruments: [instrument] } } },
    { handoff: true, idempotencyKey: key },
  );
  const t = translator(ctx);
  if (!done.ok) return { errors: [errorOf(t, failureNotice(done.error))] };
  const result = asCheckout(done.value);
  if (result?.status === "completed") return { redirect: withNotices("", ["placed"]) };
  if (hasCode(done.value, "requires_3ds")) return { redirect: "/verify" };
  if (hasCode(done.value, "invalid_status")) return { redirect: withNotices("", ["closed"]) };
  const code: NoticeCode = hasCode(done.value, "payment_failed")
    ? "declined"
    : hasCode(done.value, "not_ready")
      ? "not_ready"
      : hasCode(done.value, "invalid_handler")
        ? "handler"
        : hasCode(done.value, "payments_not_configured")
          ? "payments_off"
          : "not_placed";
  const error = errorOf(t, code);
  // The decline points at the card the buyer can change.
  const shown = code === "declined" ? { ...error, input: cardInput } : error;
  return { errors: [shown], ...(result ? { checkout: result } : {}) };
}
