/**
 * The checkout page for each state: an open session is one form (every field, one button:
 * Continue, which becomes Pay once the checkout is ready); a completed one is the order
 * confirmation; canceled, expired and in-progress sessions say so and offer nothing to edit.
 */

import { translator } from "../i18n/translate";
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
import { discountFacts } from "./discount-reasons";
import { html, type SafeHtml, safeUrl } from "./html";
import { renderPage } from "./layout";
import { orderName } from "./order-name";
import { policySection } from "./policy-links";
import { STRIPE_CARD_SCRIPT, type StripeCard, stripeNeedsScript } from "./stripe-card-form";

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
  const t = translator(ctx);
  const ready = checkout.status === "ready_for_complete";
  const total = money(ctx, checkout, totalOf(checkout));
  if (ready && way.kind === "test") return { value: "pay", label: `${t("checkout.pay")} · ${total}`, hidden: false };
  if (ready && way.kind === "stripe" && way.card.intent) {
    if (way.card.intent.paid) return { value: "pay", label: `${t("checkout.placeOrder")} · ${total}`, hidden: false };
    return { value: "pay", label: `${t("checkout.pay")} · ${total}`, hidden: true };
  }
  return { value: "continue", label: t("checkout.continue"), hidden: false };
}

function payArea(
  ctx: PageContext,
  checkout: PageCheckout,
  way: PayWay,
  feedback: Feedback,
  cartToken: string | undefined,
): SafeHtml {
  const t = translator(ctx);
  const button = primary(ctx, checkout, way);
  const needed = feedback.needed;
  return html`<div class="pay-area" id="pay-area">
${needed.length > 0 ? html`<div class="needed" id="still-needed"><p>${t("checkout.stillNeeded")}</p><ul>${needed.map((n) => html`<li>${n}</li>`)}</ul></div>` : ""}
<button type="submit" name="action" value="${button.value}" id="pay-button" class="place"${button.hidden ? html` hidden` : ""}${needed.length > 0 ? html` aria-describedby="still-needed"` : ""}>${button.label}</button>
${button.hidden ? html`<noscript><button type="submit" name="action" value="continue" class="place secondary">${t("checkout.continue")}</button></noscript>` : ""}
${cartToken ? html`<p class="back"><a href="/cart/${cartToken}">‹ ${t("checkout.backToCart")}</a></p>` : ""}
</div>`;
}

/** On a phone (one column) the buyer fills in the details, reaches the summary, then pays; on a desktop the summary sits beside them. */
function openBody(ctx: PageContext, checkout: PageCheckout, page: OpenPage, way: PayWay): SafeHtml {
  const t = translator(ctx);
  const state = page.state ?? {
    values: valuesOfCheckout(checkout),
    feedback: buildFeedback({
      t,
      checkout,
      notices: readNotices(ctx.url).map((n) => t(n.key)),
      cardInput: cardInputOf(way),
      discounts: discountFacts(ctx, checkout),
    }),
  };
  const { values, feedback } = state;
  const button = primary(ctx, checkout, way);
  // Enter in any field presses the first submit button in the form: this one, the page's own action.
  const enterDefault = html`<button type="submit" name="action" value="${button.value}" class="visually-hidden" tabindex="-1" aria-hidden="true">${button.label}</button>`;
  return html`<h1>${t("checkout.title")}</h1>
${errorSummary(feedback)}
${noticeBox(feedback)}
${formOpen(ctx, page.token, totalOf(checkout))}${enterDefault}
<div class="split">
<div>
<section class="card" aria-labelledby="h-items">
<h2 id="h-items">${t("order.items")}</h2>
${itemsTable(ctx, checkout, { values, feedback })}
</section>
${contactSection(ctx, values, feedback)}
${addressSection(ctx, values, feedback)}
${shippingSection(ctx, checkout, values, feedback)}
${paymentSection(ctx, page.token, checkout, way, values, feedback)}
</div>
<div>
<section class="card" aria-labelledby="h-summary" id="order-summary">
<h2 id="h-summary">${t("checkout.summary")}</h2>
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
  const t = translator(ctx);
  const order = checkout.order;
  const link = safeUrl(order?.permalink_url);
  const email = typeof checkout.buyer?.email === "string" ? checkout.buyer.email : undefined;
  const notices = readNotices(ctx.url);
  return html`<h1>${t("checkout.thanks")}</h1>
${notices.length > 0 ? html`<div class="notice ok" role="status"><ul class="plain">${notices.map((n) => html`<li>${t(n.key)}</li>`)}</ul></div>` : ""}
<section class="card confirmation" aria-labelledby="h-order">
<h2 id="h-order">${t("checkout.orderPlaced")}</h2>
${order ? html`<p>${t("order.number")} <strong class="order-id">${orderName(order)}</strong></p>` : ""}
<p>${t("checkout.totalPaid")} <strong>${money(ctx, checkout, totalOf(checkout))}</strong></p>
${confirmationEmailNote(t, checkout.confirmation_email ?? "none", email)}
${link ? html`<p><a class="button" href="${link}">${t("checkout.viewStatus")}</a></p>` : ""}
</section>
<section class="card" aria-labelledby="h-items">
<h2 id="h-items">${t("checkout.bought")}</h2>
${itemsTable(ctx, checkout)}
${totalsTable(ctx, checkout)}
</section>`;
}

function closedBody(ctx: PageContext, checkout: PageCheckout, title: string, text: SafeHtml): SafeHtml {
  const t = translator(ctx);
  return html`<h1>${title}</h1>
<div class="notice" role="status"><p>${text}</p></div>
<section class="card" aria-labelledby="h-items">
<h2 id="h-items">${t("order.items")}</h2>
${itemsTable(ctx, checkout)}
${totalsTable(ctx, checkout)}
</section>`;
}

function bodyFor(ctx: PageContext, checkout: PageCheckout, page: OpenPage): { title: string; body: SafeHtml } {
  const t = translator(ctx);
  switch (checkout.status) {
    case "completed":
      return { title: t("checkout.confirmed"), body: confirmationBody(ctx, checkout) };
    case "canceled":
      return isExpired(checkout)
        ? {
            title: t("checkout.expiredTitle"),
            body: closedBody(ctx, checkout, t("checkout.expired"), html`${t("checkout.expiredText")}`),
          }
        : {
            title: t("checkout.canceledTitle"),
            body: closedBody(
              ctx,
              checkout,
              t("checkout.canceled"),
              html`${t("checkout.canceledText")} <a href="/">${t("layout.continueShopping")}</a>`,
            ),
          };
    case "complete_in_progress":
      return {
        title: t("checkout.placingTitle"),
        body: closedBody(
          ctx,
          checkout,
          t("checkout.placing"),
          html`${t("checkout.placingText")} <a href="/checkout/${page.token}">${t("checkout.refresh")}</a> ${t("checkout.placingAfter")}`,
        ),
      };
    default:
      return { title: t("checkout.title"), body: openBody(ctx, checkout, page, payWay(ctx, checkout, page.card)) };
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
