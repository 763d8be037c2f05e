/**
 * The payment section of the checkout's one form: the handlers the checkout lists
 * (`ucp.payment_handlers`). The test handler, in test mode, gets the card fields (card-form.ts);
 * a store charging through Stripe gets Stripe's Payment Element (stripe-card-form.ts); a
 * checkout waiting on 3-D Secure links to its challenge; a store with no live handler says it
 * cannot take payments. The section has no button: the page's one button pays.
 */
import { type Translate, translator } from "../i18n/translate";
import { groupDigits, TEST_CARDS } from "./card-form";
import { messagesOf, type PageCheckout, type PageHandler, paymentHandlers } from "./checkout-data";
import { type Feedback, fieldAttrs, fieldError } from "./checkout-feedback";
import { cardValuesToShow, type FormValues } from "./checkout-fields";
import { checkoutPath } from "./checkout-form";
import type { PageContext } from "./context";
import { html, type SafeHtml } from "./html";
import { type StripeCard, stripeCardBody } from "./stripe-card-form";

/** How this checkout can be paid on the page. */
export type PayWay =
  | { readonly kind: "test"; readonly handler: PageHandler }
  | { readonly kind: "stripe"; readonly card: StripeCard }
  | { readonly kind: "verify" | "elsewhere" | "none" };

export function payWay(ctx: PageContext, checkout: PageCheckout, card: StripeCard | undefined): PayWay {
  const handlers = paymentHandlers(checkout);
  const testHandler = ctx.config.paymentTestMode ? handlers.find((h) => h.config?.test_mode === true) : undefined;
  if (messagesOf(checkout).some((m) => m.code === "requires_3ds")) return { kind: "verify" };
  if (testHandler) return { kind: "test", handler: testHandler };
  if (card) return { kind: "stripe", card };
  return { kind: handlers.length > 0 ? "elsewhere" : "none" };
}

/** The card fields' first input: where a payment error points. */
export function cardInputOf(way: PayWay): string {
  return way.kind === "test" ? "card_number" : "payment-section";
}

function cardField(
  id: string,
  label: string,
  attrs: SafeHtml,
  value: string,
  feedback: Feedback | undefined,
  hint?: string,
): SafeHtml {
  const hintId = hint ? `${id}-hint` : undefined;
  return html`<label for="${id}">${label}</label>${hint ? html`<span class="muted hint" id="${hintId}">${hint}</span>` : ""}
${fieldError(feedback, id)}<input id="${id}" name="${id}" value="${value}" ${attrs}${fieldAttrs(feedback, id, hintId)}>`;
}

function testCards(t: Translate): SafeHtml {
  return html`<details class="test-cards"><summary>${t("checkout.testCards")}</summary><ul>${TEST_CARDS.map(
    (c) => html`<li><code>${groupDigits(c.number)}</code> ${t(c.outcome)}</li>`,
  )}</ul><p class="muted">${t("checkout.anyExpiry")}</p></details>`;
}

function cardFields(t: Translate, handler: PageHandler, values: FormValues, feedback: Feedback | undefined): SafeHtml {
  const shown = cardValuesToShow(values);
  const v = (name: string) => shown[name] ?? "";
  return html`<input type="hidden" name="handler_id" value="${handler.id}">
<p class="notice">${t("checkout.testMode")}</p>
${testCards(t)}
${cardField("card_number", t("checkout.cardNumber"), html`inputmode="numeric" autocomplete="cc-number" maxlength="23" aria-required="true"`, v("card_number"), feedback)}
<div class="grid two">
<div>${cardField("card_expiry", t("checkout.cardExpiry"), html`autocomplete="cc-exp" maxlength="7" placeholder="MM/YY" aria-required="true"`, v("card_expiry"), feedback)}</div>
<div>${cardField("card_cvc", t("checkout.cardCvc"), html`inputmode="numeric" autocomplete="cc-csc" maxlength="4" aria-required="true"`, v("card_cvc"), feedback)}</div>
</div>
${cardField("card_name", t("checkout.cardName"), html`autocomplete="cc-name" maxlength="200" aria-required="true"`, v("card_name"), feedback)}`;
}

export function paymentSection(
  ctx: PageContext,
  token: string,
  checkout: PageCheckout,
  way: PayWay,
  values: FormValues,
  feedback: Feedback | undefined,
): SafeHtml {
  const t = translator(ctx);
  let body: SafeHtml;
  switch (way.kind) {
    case "verify":
      body = html`<p>${t("checkout.verifyAsk")}</p>
<p><a class="button" href="${checkoutPath(token)}/verify">${t("checkout.verify")}</a></p>`;
      break;
    case "test":
      body = cardFields(t, way.handler, values, feedback);
      break;
    case "stripe":
      body = stripeCardBody(ctx, checkout, way.card);
      break;
    case "elsewhere":
      body = html`<p>${t("checkout.payElsewhere", {
        names: paymentHandlers(checkout)
          .map((h) => h.name)
          .join(", "),
      })}</p>`;
      break;
    default:
      body = html`<p>${t("checkout.noPayments")}</p>`;
  }
  return html`<section class="card" aria-labelledby="h-payment" id="payment-section">
<h2 id="h-payment">${t("checkout.payment")}</h2>
${way.kind === "test" ? "" : fieldError(feedback, "payment-section")}
${body}
</section>`;
}
