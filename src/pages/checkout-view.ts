/**
 * The checkout page for each state: an open session is one form (every field, one button:
 * Continue, which becomes Pay once the checkout is ready); a completed one is the order
 * confirmation; canceled, expired and in-progress sessions say so and offer nothing to edit.
 */

import { isExpired, type PageCheckout, totalOf } from "./checkout-data";
import { discountSection } from "./checkout-discounts";
import { buildFeedback, errorSummary, type Feedback, noticeBox } from "./checkout-feedback";
import { type FormValues, valuesOfCheckout } from "./checkout-fields";
import { formOpen } from "./checkout-form";
import { readNotices } from "./checkout-notices";
import { cardInputOf, type PayWay, paymentSection, payWay } from "./checkout-payment";
import { CHECKOUT_SCRIPT } from "./checkout-script";
import { addressSection, contactSection, shippingSection } from "./checkout-sections";
import { itemsTable, money, totalsTable } from "./checkout-summary";
import { confirmationEmailNote } from "./confirmation-email";
import type { PageContext } from "./context";
import { html, type SafeHtml, safeUrl } from "./html";
import { renderPage } from "./layout";
import { orderName } from "./order-name";
import { policySection } from "./policy-links";
import { STRIPE_CARD_SCRIPT, type StripeCard, stripeNeedsScript } from "./stripe-card-form";

const TEXT = {
  checkout: "Checkout",
  items: "Items",
  summary: "Order summary",
  continue: "Continue",
  pay: "Pay",
  placeOrder: "Place order",
  stillNeeded: "Before you can pay, the store still needs:",
  backToCart: "Back to cart",
  thanks: "Thank you for your order",
  orderPlaced: "Order placed",
  orderNumber: "Order number",
  totalPaid: "Total paid",
  viewStatus: "View your order status",
  bought: "What you bought",
  expiredTitle: "Checkout expired",
  expired: "This checkout has expired",
  expiredText: "Nothing was ordered or charged. Ask the assistant that sent you here to start a new checkout.",
  canceledTitle: "Checkout canceled",
  canceled: "This checkout was canceled",
  canceledText: "Nothing was ordered or charged.",
  continueShopping: "Continue shopping",
  placingTitle: "Placing your order",
  placing: "Your order is being placed",
  placingText: "This takes a moment.",
  refresh: "Refresh this page",
  placingAfter: "to see the result; do not pay again.",
  confirmed: "Order confirmed",
};

/** What the open form shows: the checkout's values, or after a submit what was sent, and what is said about them. */
export interface FormState {
  readonly values: FormValues;
  readonly feedback: Feedback;
}

export interface OpenPage {
  readonly token: string;
  readonly card?: StripeCard;
  /** After a submit: the buyer's values and the outcome. Else the checkout's own. */
  readonly state?: FormState;
  /** The browser's cart (its hand-off token), for the way back. */
  readonly cartToken?: string;
}

/** The one button: Pay once the checkout is ready and this page can take the payment. */
function primary(
  ctx: PageContext,
  checkout: PageCheckout,
  way: PayWay,
): { value: "pay" | "continue"; label: string; hidden: boolean } {
  const ready = checkout.status === "ready_for_complete";
  const total = money(ctx, checkout, totalOf(checkout));
  if (ready && way.kind === "test") return { value: "pay", label: `${TEXT.pay} · ${total}`, hidden: false };
  if (ready && way.kind === "stripe" && way.card.intent) {
    if (way.card.intent.paid) return { value: "pay", label: `${TEXT.placeOrder} · ${total}`, hidden: false };
    return { value: "pay", label: `${TEXT.pay} · ${total}`, hidden: true };
  }
  return { value: "continue", label: TEXT.continue, hidden: false };
}

function payArea(
  ctx: PageContext,
  checkout: PageCheckout,
  way: PayWay,
  feedback: Feedback,
  cartToken: string | undefined,
): SafeHtml {
  const button = primary(ctx, checkout, way);
  const needed = feedback.needed;
  return html`<div class="pay-area" id="pay-area">
${needed.length > 0 ? html`<div class="needed" id="still-needed"><p>${TEXT.stillNeeded}</p><ul>${needed.map((n) => html`<li>${n}</li>`)}</ul></div>` : ""}
<button type="submit" name="action" value="${button.value}" id="pay-button" class="place"${button.hidden ? html` hidden` : ""}${needed.length > 0 ? html` aria-describedby="still-needed"` : ""}>${button.label}</button>
${button.hidden ? html`<noscript><button type="submit" name="action" value="continue" class="place secondary">${TEXT.continue}</button></noscript>` : ""}
${cartToken ? html`<p class="back"><a href="/cart/${cartToken}">‹ ${TEXT.backToCart}</a></p>` : ""}
</div>`;
}

/** On a phone (one column) the buyer fills in the details, reaches the summary, then pays; on a desktop the summary sits beside them. */
function openBody(ctx: PageContext, checkout: PageCheckout, page: OpenPage, way: PayWay): SafeHtml {
  const state = page.state ?? {
    values: valuesOfCheckout(checkout),
    feedback: buildFeedback({
      checkout,
      notices: readNotices(ctx.url).map((n) => n.text),
      cardInput: cardInputOf(way),
    }),
  };
  const { values, feedback } = state;
  const button = primary(ctx, checkout, way);
  // Enter in any field presses the first submit button in the form: this one, the page's own action.
  const enterDefault = html`<button type="submit" name="action" value="${button.value}" class="visually-hidden" tabindex="-1" aria-hidden="true">${button.label}</button>`;
  return html`<h1>${TEXT.checkout}</h1>
${errorSummary(feedback)}
${noticeBox(feedback)}
${formOpen(ctx, page.token, totalOf(checkout))}${enterDefault}
<div class="split">
<div>
<section class="card" aria-labelledby="h-items">
<h2 id="h-items">${TEXT.items}</h2>
${itemsTable(ctx, checkout, { values, feedback })}
</section>
${contactSection(values, feedback)}
${addressSection(ctx, values, feedback)}
${shippingSection(ctx, checkout, values, feedback)}
${paymentSection(ctx, page.token, checkout, way, values, feedback)}
</div>
<div>
<section class="card" aria-labelledby="h-summary" id="order-summary">
<h2 id="h-summary">${TEXT.summary}</h2>
<div id="order-totals" aria-live="polite">${totalsTable(ctx, checkout)}</div>
${discountSection(ctx, checkout, values, feedback)}
</section>
${payArea(ctx, checkout, way, feedback, page.cartToken)}
</div>
</div>
</form>
${policySection(ctx)}`;
}

function confirmationBody(ctx: PageContext, checkout: PageCheckout): SafeHtml {
  const order = checkout.order;
  const link = safeUrl(order?.permalink_url);
  const email = typeof checkout.buyer?.email === "string" ? checkout.buyer.email : undefined;
  const notices = readNotices(ctx.url);
  return html`<h1>${TEXT.thanks}</h1>
${notices.length > 0 ? html`<div class="notice ok" role="status"><ul class="plain">${notices.map((n) => html`<li>${n.text}</li>`)}</ul></div>` : ""}
<section class="card confirmation" aria-labelledby="h-order">
<h2 id="h-order">${TEXT.orderPlaced}</h2>
${order ? html`<p>${TEXT.orderNumber} <strong class="order-id">${orderName(order)}</strong></p>` : ""}
<p>${TEXT.totalPaid} <strong>${money(ctx, checkout, totalOf(checkout))}</strong></p>
${confirmationEmailNote(checkout.confirmation_email ?? "none", email)}
${link ? html`<p><a class="button" href="${link}">${TEXT.viewStatus}</a></p>` : ""}
</section>
<section class="card" aria-labelledby="h-items">
<h2 id="h-items">${TEXT.bought}</h2>
${itemsTable(ctx, checkout)}
${totalsTable(ctx, checkout)}
</section>`;
}

function closedBody(ctx: PageContext, checkout: PageCheckout, title: string, text: SafeHtml): SafeHtml {
  return html`<h1>${title}</h1>
<div class="notice" role="status"><p>${text}</p></div>
<section class="card" aria-labelledby="h-items">
<h2 id="h-items">${TEXT.items}</h2>
${itemsTable(ctx, checkout)}
${totalsTable(ctx, checkout)}
</section>`;
}

function bodyFor(ctx: PageContext, checkout: PageCheckout, page: OpenPage): { title: string; body: SafeHtml } {
  switch (checkout.status) {
    case "completed":
      return { title: TEXT.confirmed, body: confirmationBody(ctx, checkout) };
    case "canceled":
      return isExpired(checkout)
        ? {
            title: TEXT.expiredTitle,
            body: closedBody(ctx, checkout, TEXT.expired, html`${TEXT.expiredText}`),
          }
        : {
            title: TEXT.canceledTitle,
            body: closedBody(
              ctx,
              checkout,
              TEXT.canceled,
              html`${TEXT.canceledText} <a href="/">${TEXT.continueShopping}</a>`,
            ),
          };
    case "complete_in_progress":
      return {
        title: TEXT.placingTitle,
        body: closedBody(
          ctx,
          checkout,
          TEXT.placing,
          html`${TEXT.placingText} <a href="/checkout/${page.token}">${TEXT.refresh}</a> ${TEXT.placingAfter}`,
        ),
      };
    default:
      return { title: TEXT.checkout, body: openBody(ctx, checkout, page, payWay(ctx, checkout, page.card)) };
  }
}

const OPEN = new Set(["incomplete", "requires_escalation", "ready_for_complete"]);

/** `page.card`: Stripe's card form for this checkout (stripe-card-form.ts), when the store has one. */
export function checkoutResponse(ctx: PageContext, checkout: PageCheckout, page: OpenPage, status = 200): Response {
  const { title, body } = bodyFor(ctx, checkout, page);
  const open = OPEN.has(checkout.status);
  const scripts = [
    ...(open ? [CHECKOUT_SCRIPT] : []),
    ...(open && stripeNeedsScript(page.card) ? [STRIPE_CARD_SCRIPT] : []),
  ];
  return renderPage(ctx, {
    title,
    body,
    personal: true,
    status,
    ...(scripts.length > 0 ? { script: scripts.join("\n") } : {}),
  });
}
