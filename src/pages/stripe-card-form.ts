/**
 * The buyer's card form when the store charges through Stripe (docs/payments.md "The buyer's
 * card form"): Stripe's Payment Element, loaded from Stripe.js, collects the card in Stripe's
 * own frames and confirms the checkout's PaymentIntent (src/payment/stripe-page-intent.ts) in
 * the browser, 3-D Secure included. The Worker sees no card number (PCI SAQ-A): the page gets
 * the publishable key and the intent's client_secret, and posts back only the PaymentIntent's
 * id, which the completion checks and adopts (stripe-processor.ts). Without JavaScript the
 * page says a card needs it and offers nothing that cannot work.
 */

import type { MerchantConfig } from "../config";
import { DEFAULT_STRIPE_JS_URL, type StripeSettings } from "../config/stripe";
import { pageLanguage, translator } from "../i18n/translate";
import { GOOGLE_PAY_HANDLER_ID, STRIPE_HANDLER_ID } from "../payment/stripe-handlers";
import { type PageIntent, pageIntent, pageIntentDisplay } from "../payment/stripe-page-intent";
import { messagesOf, type PageCheckout, type PageHandler, paymentHandlers, totalOf } from "./checkout-data";
import type { PageContext } from "./context";
import { html, type SafeHtml } from "./html";
import { type CspSources, contentSecurityPolicy } from "./respond";

/** The page completes with whichever Stripe handler the checkout lists: both charge through Stripe. */
const STRIPE_PAGE_HANDLERS: readonly string[] = [STRIPE_HANDLER_ID, GOOGLE_PAY_HANDLER_ID];

export interface StripeCard {
  readonly handler: PageHandler;
  readonly settings: StripeSettings & { readonly publishableKey: string };
  /** Undefined: the checkout is not ready to pay, or Stripe did not answer (`unavailable`). */
  readonly intent?: PageIntent;
  readonly unavailable?: boolean;
}

function stripeSettingsOf(config: Pick<MerchantConfig, "paymentTestMode" | "stripe">) {
  const settings = config.paymentTestMode ? undefined : config.stripe;
  return settings?.publishableKey ? (settings as StripeCard["settings"]) : undefined;
}

/** The Stripe handler a page completion names, when this store takes cards on the page through Stripe. */
export function stripePageHandler(
  config: Pick<MerchantConfig, "paymentTestMode" | "stripe">,
  checkout: PageCheckout,
): PageHandler | undefined {
  if (!stripeSettingsOf(config)) return undefined;
  const handlers = paymentHandlers(checkout);
  for (const id of STRIPE_PAGE_HANDLERS) {
    const handler = handlers.find((h) => h.id === id);
    if (handler) return handler;
  }
  return undefined;
}

/**
 * What the page needs for Stripe's card form: for a checkout ready to place, its
 * PaymentIntent (created once per checkout and total). Undefined: this store has no card form.
 */
export async function prepareStripeCard(ctx: PageContext, checkout: PageCheckout): Promise<StripeCard | undefined> {
  const settings = stripeSettingsOf(ctx.config);
  const handler = stripePageHandler(ctx.config, checkout);
  if (!settings || !handler) return undefined;
  // Waiting on an agent's 3-D Secure verification: the page links to it (checkout-payment.ts), no new form.
  if (messagesOf(checkout).some((m) => m.code === "requires_3ds")) return undefined;
  if (checkout.status !== "ready_for_complete") return { handler, settings };
  const intent = await pageIntent(settings, {
    checkoutId: checkout.id,
    amount: totalOf(checkout),
    currency: checkout.currency,
  });
  return intent ? { handler, settings, intent } : { handler, settings, unavailable: true };
}

/**
 * The origins the card form needs, from the configured URLs (a stand-in's in tests):
 * Stripe.js's origin for the script and its frames, and the API origin Stripe.js calls. For
 * Stripe itself, also what Stripe's CSP guide lists: its *.js.stripe.com hosts (scripts and
 * frames) and hooks.stripe.com (3-D Secure frames).
 */
export function stripeCspSources(settings: Pick<StripeSettings, "jsUrl" | "apiBase">): CspSources {
  const js = new URL(settings.jsUrl).origin;
  const stripeItself = js === new URL(DEFAULT_STRIPE_JS_URL).origin;
  return {
    script: stripeItself ? [js, "https://*.js.stripe.com"] : [js],
    frame: stripeItself ? [js, "https://*.js.stripe.com", "https://hooks.stripe.com"] : [js],
    connect: [new URL(settings.apiBase).origin],
  };
}

/**
 * The checkout page's policy: its own script may send the form in the background
 * (connect-src 'self', checkout-script.ts); Stripe's origins only while the Payment Element is on it.
 */
export function checkoutCsp(response: Response, ctx: PageContext, card: StripeCard | undefined): Response {
  const stripe: CspSources = card?.intent && !card.intent.paid ? stripeCspSources(card.settings) : {};
  const connect = ["'self'", ...(stripe.connect ?? [])];
  response.headers.set("content-security-policy", contentSecurityPolicy(ctx.nonce, { ...stripe, connect }));
  return response;
}

/**
 * The payment section's body for a store paid through Stripe on this page, inside the
 * checkout's one form. The page's Pay button (checkout-view.ts) is hidden until the script
 * has mounted the Payment Element; the script confirms, then sends the form with the
 * PaymentIntent's id.
 */
export function stripeCardBody(ctx: PageContext, _checkout: PageCheckout, card: StripeCard): SafeHtml {
  const { intent } = card;
  const t = translator(ctx);
  const hidden = html`<input type="hidden" name="handler_id" value="${card.handler.id}">`;
  if (card.unavailable) return html`<p>${t("stripe.unavailable")}</p>`;
  if (!intent) return html`<p class="muted">${t("stripe.notYet")}</p>`;
  if (intent.paid) {
    // Paid on an earlier visit, the order not placed yet (the page was closed): place it, no JavaScript needed.
    return html`${hidden}<input type="hidden" name="payment_intent" value="${intent.id}">
<p>${t("stripe.paid")}</p>`;
  }
  // The script's words come with the page (data-msg-*), in the store's language; so does Stripe's form (locale).
  return html`<div id="stripe-card" data-publishable-key="${card.settings.publishableKey}" data-client-secret="${intent.clientSecret}" data-locale="${pageLanguage(ctx.config.storefront.locale)}" data-msg-not-loaded="${t("stripe.notLoaded")}" data-msg-failed="${t("stripe.failed")}" data-msg-confirming="${t("stripe.confirming")}" data-msg-confirmed="${t("stripe.confirmed")}">
<p id="stripe-card-fallback">${t("stripe.needsScript")}</p>
${hidden}<input type="hidden" name="payment_intent" value="">
<div id="stripe-payment-element"></div>
<p id="stripe-card-status" role="status" aria-live="polite"></p>
</div>
<script nonce="${ctx.nonce}" src="${card.settings.jsUrl}"></script>`;
}

/** The Payment Element is on the page: the Pay button waits for the script. */
export function stripeNeedsScript(card: StripeCard | undefined): boolean {
  return Boolean(card?.intent && !card.intent.paid);
}

/**
 * Progressive enhancement (layout's nonce'd script): mounts the Payment Element, then shows
 * the Pay button. Pay confirms (3-D Secure inside Stripe.js) and only then sends the form,
 * carrying the PaymentIntent's id and nothing of the card. A form changed since the page
 * loaded is sent as Continue instead: the buyer sees the new total before any charge.
 */
export const STRIPE_CARD_SCRIPT = `(function () {
  var root = document.getElementById("stripe-card");
  var form = document.getElementById("checkout-form");
  var fallback = document.getElementById("stripe-card-fallback");
  var pay = document.getElementById("pay-button");
  if (!root || !form || !fallback || !pay) return;
  if (typeof Stripe !== "function") {
    fallback.textContent = root.dataset.msgNotLoaded;
    return;
  }
  var stripe = Stripe(root.dataset.publishableKey);
  var elements = stripe.elements({ clientSecret: root.dataset.clientSecret, locale: root.dataset.locale });
  elements.create("payment").mount("#stripe-payment-element");
  fallback.hidden = true;
  pay.hidden = false;
  var status = document.getElementById("stripe-card-status");
  var mount = document.getElementById("stripe-payment-element");
  // The buyer's fields only: not Stripe's own, nor the key or the PaymentIntent the page sets.
  var snapshot = function () {
    var parts = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || mount.contains(el) || el.type === "submit") return;
      if (el.name === "idempotency_key" || el.name === "payment_intent") return;
      if ((el.type === "radio" || el.type === "checkbox") && !el.checked) return;
      parts.push(el.name + "=" + el.value);
    });
    return parts.join("&");
  };
  var loaded = snapshot();
  var confirmed = false;
  var failed = function (message) {
    status.textContent = message || root.dataset.msgFailed;
    pay.disabled = false;
  };
  form.addEventListener("submit", function (event) {
    var button = event.submitter;
    if (confirmed || !button || button.value !== "pay") return;
    if (snapshot() !== loaded) { button.value = "continue"; return; }
    event.preventDefault();
    pay.disabled = true;
    status.textContent = root.dataset.msgConfirming;
    stripe.confirmPayment({ elements: elements, redirect: "if_required" }).then(function (result) {
      if (result.error) return failed(result.error.message);
      if (!result.paymentIntent) return failed();
      form.elements.payment_intent.value = result.paymentIntent.id;
      status.textContent = root.dataset.msgConfirmed;
      confirmed = true;
      pay.disabled = false;
      form.requestSubmit(pay);
    }, function () { failed(); });
  });
})();`;

/**
 * The page completion's instrument: the PaymentIntent the buyer confirmed, by id only, with
 * the card's brand and last four digits as Stripe reports them (the page never sees the card).
 * Undefined for anything that is not a PaymentIntent id.
 */
export async function stripeCardInstrument(
  ctx: PageContext,
  handler: PageHandler,
  paymentIntent: string,
): Promise<Record<string, unknown> | undefined> {
  const settings = stripeSettingsOf(ctx.config);
  if (!settings || !/^pi_[A-Za-z0-9_]{1,200}$/.test(paymentIntent)) return undefined;
  const display = await pageIntentDisplay(settings, paymentIntent);
  return {
    id: "instr_checkout_page",
    handler_id: handler.id,
    type: "card",
    selected: true,
    ...(display ? { display } : {}),
    credential: { type: "stripe_payment_intent", payment_intent: paymentIntent },
  };
}
