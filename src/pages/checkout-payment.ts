/**
 * The payment section: the handlers the checkout lists (`ucp.payment_handlers`). The test
 * handler, in test mode, gets the card form (card-form.ts); a store charging through Stripe
 * gets Stripe's Payment Element (stripe-card-form.ts); a checkout waiting on 3-D Secure
 * links to its challenge; a store with no live handler says it cannot take payments.
 */
import { groupDigits, TEST_CARDS } from "./card-form";
import { messagesOf, type PageCheckout, type PageHandler, paymentHandlers, totalOf } from "./checkout-data";
import { type FeedbackItem, fieldAttrs, renderFeedback } from "./checkout-feedback";
import { checkoutPath, formOpen } from "./checkout-form";
import { money } from "./checkout-summary";
import type { PageContext } from "./context";
import { html, type SafeHtml } from "./html";
import { type StripeCard, stripeCardBody } from "./stripe-card-form";

function cardField(
  id: string,
  label: string,
  attrs: SafeHtml,
  notes: readonly FeedbackItem[],
  hint?: string,
): SafeHtml {
  const hintId = hint ? `${id}-hint` : undefined;
  return html`<label for="${id}">${label}</label>${hint ? html`<span class="muted hint" id="${hintId}">${hint}</span>` : ""}
<input id="${id}" name="${id}" ${attrs}${fieldAttrs(notes, id, hintId)}>`;
}

function testCards(): SafeHtml {
  return html`<details class="test-cards"><summary>Test card numbers</summary><ul>${TEST_CARDS.map(
    (c) => html`<li><code>${groupDigits(c.number)}</code> ${c.outcome}</li>`,
  )}</ul><p class="muted">Any future expiry date, any 3 digit security code.</p></details>`;
}

function cardForm(
  ctx: PageContext,
  token: string,
  checkout: PageCheckout,
  handler: PageHandler,
  notes: readonly FeedbackItem[],
): SafeHtml {
  const ready = checkout.status === "ready_for_complete";
  return html`${formOpen(ctx, token, "place")}<input type="hidden" name="handler_id" value="${handler.id}">
<p class="notice">Test mode: no money moves. Pay with a test card.</p>
${testCards()}
${cardField("card_number", "Card number", html`inputmode="numeric" autocomplete="cc-number" maxlength="23" required`, notes)}
<div class="grid two">
<div>${cardField("card_expiry", "Expiry (MM/YY)", html`autocomplete="cc-exp" maxlength="7" placeholder="MM/YY" required`, notes)}</div>
<div>${cardField("card_cvc", "Security code", html`inputmode="numeric" autocomplete="cc-csc" maxlength="4" required`, notes)}</div>
</div>
${cardField("card_name", "Name on card", html`autocomplete="cc-name" maxlength="200" required`, notes)}
${ready ? "" : html`<p class="muted" id="place-blocked">Fill in the details this page asks for before placing the order.</p>`}
<p><button type="submit" class="place"${ready ? "" : html` disabled aria-describedby="place-blocked"`}>Place order · ${money(ctx, checkout, totalOf(checkout))}</button></p>
</form>`;
}

export function paymentSection(
  ctx: PageContext,
  token: string,
  checkout: PageCheckout,
  notes: readonly FeedbackItem[],
  card?: StripeCard,
): SafeHtml {
  const handlers = paymentHandlers(checkout);
  const testHandler = ctx.config.paymentTestMode ? handlers.find((h) => h.config?.test_mode === true) : undefined;
  const verifying = messagesOf(checkout).some((m) => m.code === "requires_3ds");
  let body: SafeHtml;
  if (verifying) {
    body = html`<p>Your bank asks you to confirm this payment.</p>
<p><a class="button" href="${checkoutPath(token)}/verify">Verify the payment</a></p>`;
  } else if (testHandler) {
    body = cardForm(ctx, token, checkout, testHandler, notes);
  } else if (card) {
    body = stripeCardBody(ctx, token, checkout, card);
  } else if (handlers.length > 0) {
    body = html`<p>This store takes payment through your assistant (${handlers.map((h) => h.name).join(", ")}): it cannot be paid on this page.</p>`;
  } else {
    body = html`<p>This store has not set up payments yet, so no order can be placed. Nothing will be charged.</p>`;
  }
  return html`<section class="card" aria-labelledby="h-payment">
<h2 id="h-payment">Payment</h2>
${renderFeedback(notes)}
${body}
</section>`;
}
