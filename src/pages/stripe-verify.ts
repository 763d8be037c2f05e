/**
 * The verify page's bank step when the store charges through Stripe (docs/payments.md
 * "3-D Secure"): an agent's charge waits in `requires_action`; here Stripe.js runs the bank's
 * challenge on that PaymentIntent (`handleNextAction`, in Stripe's own frames), then the form
 * posts and the server asks Stripe how it ended (src/tools/payment-verification.ts,
 * answerFromProcessor). The browser's word decides nothing. Without JavaScript the page says
 * the bank's step needs it.
 */

import type { StripeSettings } from "../config/stripe";
import { translator } from "../i18n/translate";
import { verificationSecret } from "../payment/stripe-verification";
import type { PageContext } from "./context";
import { html, type SafeHtml } from "./html";
import { csrfInput } from "./layout";
import { contentSecurityPolicy } from "./respond";
import { stripeCspSources } from "./stripe-card-form";

export interface StripeStep {
  readonly settings: StripeSettings & { readonly publishableKey: string };
  /** Undefined: Stripe did not answer, or the PaymentIntent no longer waits for the buyer. */
  readonly clientSecret?: string;
}

export async function prepareStripeStep(
  ctx: PageContext,
  reference: string,
  checkoutId: string,
): Promise<StripeStep | undefined> {
  const settings = ctx.config.stripe;
  if (!settings?.publishableKey) return undefined;
  const withKey = settings as StripeStep["settings"];
  const secret = await verificationSecret(settings, reference, checkoutId);
  return secret ? { settings: withKey, clientSecret: secret.clientSecret } : { settings: withKey };
}

/** The page's policy with Stripe's origins added, only when the bank's step is on it. */
export function stripeStepCsp(ctx: PageContext, step: StripeStep | undefined): string | undefined {
  return step?.clientSecret ? contentSecurityPolicy(ctx.nonce, stripeCspSources(step.settings)) : undefined;
}

/** The form: `outcome=bank` asks Stripe; `surfaceField` carries an Action surface's proof when framed. */
export function stripeStepForm(ctx: PageContext, step: StripeStep, surfaceField: SafeHtml): SafeHtml {
  const t = translator(ctx);
  if (!step.clientSecret) {
    return html`<p>${t("verify.bankUnavailable")}</p>`;
  }
  // The script's words come with the page (data-msg-*), in the store's language.
  return html`<div id="stripe-verify" data-publishable-key="${step.settings.publishableKey}" data-client-secret="${step.clientSecret}" data-msg-not-loaded="${t("verify.bankNotLoaded")}" data-msg-waiting="${t("verify.bankWaiting")}" data-msg-checking="${t("verify.bankChecking")}">
<p id="stripe-verify-fallback">${t("verify.bankNeedsScript")}</p>
<form method="post" id="stripe-verify-form" data-action-gated hidden>
${csrfInput(ctx)}
${surfaceField}
<input type="hidden" name="key" value="${crypto.randomUUID()}">
<input type="hidden" name="outcome" value="bank">
<p id="stripe-verify-status" role="status" aria-live="polite"></p>
<button type="submit">${t("verify.withBank")}</button>
</form>
</div>
<script nonce="${ctx.nonce}" src="${step.settings.jsUrl}"></script>`;
}

/**
 * Progressive enhancement: once Stripe.js is there, the button runs the bank's step and then
 * posts the form however it ended; the server reads the result from Stripe.
 */
export const STRIPE_VERIFY_SCRIPT = `(function () {
  var root = document.getElementById("stripe-verify");
  var form = document.getElementById("stripe-verify-form");
  var fallback = document.getElementById("stripe-verify-fallback");
  if (!root || !form || !fallback) return;
  if (typeof Stripe !== "function") {
    fallback.textContent = root.dataset.msgNotLoaded;
    return;
  }
  var stripe = Stripe(root.dataset.publishableKey);
  var status = document.getElementById("stripe-verify-status");
  var button = form.querySelector("button[type=submit]");
  fallback.hidden = true;
  form.hidden = false;
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    button.disabled = true;
    status.textContent = root.dataset.msgWaiting;
    var done = function () { status.textContent = root.dataset.msgChecking; form.submit(); };
    stripe.handleNextAction({ clientSecret: root.dataset.clientSecret }).then(done, done);
  });
})();`;
