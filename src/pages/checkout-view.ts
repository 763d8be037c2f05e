/**
 * The checkout page for each state: open sessions are editable section by section; a
 * completed one is the order confirmation; canceled, expired and in-progress sessions say
 * so and offer nothing to edit.
 */
import { isExpired, messagesOf, type PageCheckout } from "./checkout-data";
import { discountSection } from "./checkout-discounts";
import { buildFeedback, type Feedback, renderFeedback } from "./checkout-feedback";
import { readNotices } from "./checkout-notices";
import { paymentSection } from "./checkout-payment";
import { addressSection, contactSection, shippingSection } from "./checkout-sections";
import { itemsTable, money, totalsTable } from "./checkout-summary";
import type { PageContext } from "./context";
import { html, type SafeHtml, safeUrl } from "./html";
import { renderPage } from "./layout";
import { policySection } from "./policy-links";
import { STRIPE_CARD_SCRIPT, type StripeCard } from "./stripe-card-form";

const STATUS_TEXT: Readonly<Record<string, string>> = {
  incomplete: "Some details are still needed",
  requires_escalation: "Your input is needed",
  ready_for_complete: "Ready to place",
};

function summaryCard(ctx: PageContext, checkout: PageCheckout, editable?: { token: string; feedback: Feedback }) {
  return html`<section class="card" aria-labelledby="h-summary">
<h2 id="h-summary">Order summary</h2>
${totalsTable(ctx, checkout)}
</section>
${editable ? discountSection(ctx, editable.token, checkout, editable.feedback.discounts) : ""}`;
}

/** On a phone (one column) the buyer reaches the summary, then pays; on a desktop both sit beside the forms. */
function openBody(
  ctx: PageContext,
  token: string,
  checkout: PageCheckout,
  feedback: Feedback,
  card: StripeCard | undefined,
): SafeHtml {
  return html`<h1>Checkout</h1>
<p><span class="status">${STATUS_TEXT[checkout.status] ?? checkout.status}</span></p>
${renderFeedback(feedback.top)}
<div class="split">
<div>
<section class="card" aria-labelledby="h-items">
<h2 id="h-items">Items</h2>
${renderFeedback(feedback.items)}
${itemsTable(ctx, checkout, feedback.items, token)}
</section>
${contactSection(ctx, token, checkout, feedback.contact)}
${addressSection(ctx, token, checkout, feedback.address)}
${shippingSection(ctx, token, checkout, feedback.shipping)}
</div>
<div>${summaryCard(ctx, checkout, { token, feedback })}
${paymentSection(ctx, token, checkout, feedback.payment, card)}
${policySection(ctx)}</div>
</div>`;
}

function confirmationBody(ctx: PageContext, checkout: PageCheckout, feedback: Feedback): SafeHtml {
  const order = checkout.order;
  const link = safeUrl(order?.permalink_url);
  const email = typeof checkout.buyer?.email === "string" ? checkout.buyer.email : undefined;
  const total = checkout.totals.find((t) => t.type === "total")?.amount ?? 0;
  return html`<h1>Thank you for your order</h1>
${renderFeedback(feedback.top)}
<section class="card confirmation" aria-labelledby="h-order">
<h2 id="h-order">Order placed</h2>
${order ? html`<p>Order number <strong class="order-id">${order.id}</strong></p>` : ""}
<p>Total paid <strong>${money(ctx, checkout, total)}</strong></p>
${email ? html`<p>A confirmation is sent to ${email}.</p>` : ""}
${link ? html`<p><a class="button" href="${link}">View your order status</a></p>` : ""}
</section>
<section class="card" aria-labelledby="h-items">
<h2 id="h-items">What you bought</h2>
${itemsTable(ctx, checkout, [])}
${totalsTable(ctx, checkout)}
</section>`;
}

function closedBody(ctx: PageContext, checkout: PageCheckout, title: string, text: SafeHtml): SafeHtml {
  return html`<h1>${title}</h1>
<div class="notice" role="status"><p>${text}</p></div>
<section class="card" aria-labelledby="h-items">
<h2 id="h-items">Items</h2>
${itemsTable(ctx, checkout, [])}
${totalsTable(ctx, checkout)}
</section>`;
}

function bodyFor(
  ctx: PageContext,
  token: string,
  checkout: PageCheckout,
  card: StripeCard | undefined,
): { title: string; body: SafeHtml } {
  // The closed states' own note (expired) is said by the page itself, not repeated.
  const feedback = buildFeedback(
    messagesOf(checkout).filter((m) => m.code !== "expired"),
    readNotices(ctx.url),
  );
  switch (checkout.status) {
    case "completed":
      return { title: "Order confirmed", body: confirmationBody(ctx, checkout, feedback) };
    case "canceled":
      return isExpired(checkout)
        ? {
            title: "Checkout expired",
            body: closedBody(
              ctx,
              checkout,
              "This checkout has expired",
              html`Nothing was ordered or charged. Ask the assistant that sent you here to start a new checkout.`,
            ),
          }
        : {
            title: "Checkout canceled",
            body: closedBody(
              ctx,
              checkout,
              "This checkout was canceled",
              html`Nothing was ordered or charged. <a href="/">Continue shopping</a>`,
            ),
          };
    case "complete_in_progress":
      return {
        title: "Placing your order",
        body: closedBody(
          ctx,
          checkout,
          "Your order is being placed",
          html`This takes a moment. <a href="/checkout/${token}">Refresh this page</a> to see the result; do not pay again.`,
        ),
      };
    default:
      return { title: "Checkout", body: openBody(ctx, token, checkout, feedback, card) };
  }
}

/** `card`: Stripe's card form for this checkout (stripe-card-form.ts), when the store has one. */
export function checkoutResponse(ctx: PageContext, token: string, checkout: PageCheckout, card?: StripeCard): Response {
  const { title, body } = bodyFor(ctx, token, checkout, card);
  const script = card?.intent && !card.intent.paid ? { script: STRIPE_CARD_SCRIPT } : {};
  return renderPage(ctx, { title, body, personal: true, ...script });
}
