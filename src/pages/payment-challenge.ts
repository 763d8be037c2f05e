/**
 * `/checkout/<token>/verify`: the 3-D Secure step, the continue_url of a checkout escalated
 * with `requires_3ds` (UCP overview Scenario B). The buyer sees what is paid for and to whom.
 * In test mode the buyer chooses the bank's answer; with Stripe, Stripe.js runs the bank's
 * challenge and Stripe says how it ended (stripe-verify.ts). The answer goes to the checkout
 * object through src/tools/payment-verification.ts. A payment the buyer started on the
 * checkout page is then completed here (complete_checkout, as the buyer); one the platform
 * started is left ready_for_complete for the platform to retry, unless it was asked as a
 * payment_authentication Action: then this page is the Action's surface (action-surface.ts)
 * and the order is placed here too, for the platform to read with get_checkout.
 */
import {
  answerFromProcessor,
  answerVerification,
  buyerAnswers,
  paymentVerification,
  processorVerifies,
  retryInstrument,
  type VerificationAnswer,
  type VerificationView,
} from "../tools/payment-verification";
import {
  type ActionSurface,
  actionSurface,
  framedBy,
  SURFACE_FIELD,
  SURFACE_SCRIPT,
  type SurfacePhase,
  surfaceFormOk,
  surfaceMarker,
  surfaceProof,
} from "./action-surface";
import { callAsBuyer } from "./buyer-tools";
import { field, type PageContext, readForm } from "./context";
import { openSession } from "./handoff";
import { html, type SafeHtml, safeUrl } from "./html";
import { csrfInput, messagePage, renderPage } from "./layout";
import { formatMoney } from "./money";
import { seeOther } from "./respond";
import {
  prepareStripeStep,
  STRIPE_VERIFY_SCRIPT,
  type StripeStep,
  stripeStepCsp,
  stripeStepForm,
} from "./stripe-verify";

const KEY = /^[A-Za-z0-9_-]{16,100}$/;

export async function challengePage(ctx: PageContext, token: string): Promise<Response> {
  const opened = await openSession(ctx, "checkout", token);
  if (!opened.ok) return opened.response;
  const read = await paymentVerification({ env: ctx.env, config: ctx.config, checkoutId: opened.id });
  if (!read.ok) return failurePage(ctx, read);
  const reference = processorVerifies(ctx.config, read.view) ? read.view.processorReference : undefined;
  const step = reference ? await prepareStripeStep(ctx, reference, opened.id) : undefined;
  const surface = actionSurface(read.view);
  const shown = surface && { ...surface, proof: await surfaceProof(ctx.config, opened.id, surface) };
  const response = renderAs(ctx, token, read.view, step, shown);
  const policy = stripeStepCsp(ctx, step);
  if (policy) response.headers.set("content-security-policy", policy);
  return surface ? framedBy(ctx, surface, response) : response;
}

export async function challengeAction(ctx: PageContext, token: string): Promise<Response> {
  const opened = await openSession(ctx, "checkout", token);
  if (!opened.ok) return opened.response;
  const copy = ctx.request.clone();
  const form = (await readForm(ctx)) ?? (await surfaceForm(ctx, copy, opened.id));
  if (!form) return messagePage(ctx, 403, "This form has expired", "This form has expired; reload the page.");
  const outcome = field(form, "outcome", 10);
  const key = field(form, "key", 100);
  if ((outcome !== "pass" && outcome !== "fail" && outcome !== "bank") || !KEY.test(key)) {
    return messagePage(ctx, 400, "Something went wrong", "Reload the page and choose again.");
  }
  const session = { env: ctx.env, config: ctx.config, checkoutId: opened.id };
  const answered =
    outcome === "bank"
      ? await answerFromProcessor(session, key)
      : await answerVerification(session, outcome === "pass", key);
  // The bank's step is not finished (the window was closed): the page offers it again.
  if (!answered.ok && answered.reason === "pending") return seeOther(`/checkout/${token}/verify`);
  if (!answered.ok) return failurePage(ctx, answered);
  const instrument = retryInstrument(ctx.config, answered.view);
  if (instrument) {
    // The buyer paid on the checkout page, or the completion was accepted with a challenge
    // Action: place the order now, exactly as the checkout page would.
    const args = { id: opened.id, checkout: { payment: { instruments: [instrument] } } };
    const placed = await callAsBuyer(ctx, "complete_checkout", args, { handoff: true, idempotencyKey: `${key}-pay` });
    // Anything but an order is shown where the buyer can act on it: the checkout page (an
    // Action's surface stays here, to end the occurrence).
    const surface = actionSurface(answered.view);
    if (!surface && (!placed.ok || placed.value.status !== "completed")) return seeOther(`/checkout/${token}`);
  }
  return seeOther(`/checkout/${token}/verify`);
}

/** A framed Action surface's form, which carries the occurrence's MAC instead of the cookie's token. */
async function surfaceForm(ctx: PageContext, request: Request, checkoutId: string): Promise<FormData | undefined> {
  if (!(request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded")) return undefined;
  const form = await request.formData().catch(() => undefined);
  if (!form?.has(SURFACE_FIELD)) return undefined;
  const read = await paymentVerification({ env: ctx.env, config: ctx.config, checkoutId });
  const surface = read.ok ? actionSurface(read.view) : undefined;
  return surface && (await surfaceFormOk(request, form, ctx.config, checkoutId, surface)) ? form : undefined;
}

type ShownSurface = ActionSurface & { readonly proof: string };

function renderAs(
  ctx: PageContext,
  token: string,
  view: VerificationView,
  step: StripeStep | undefined,
  surface: ShownSurface | undefined,
): Response {
  const checkoutLink = html`<p><a href="/checkout/${token}">Back to the checkout</a></p>`;
  const { checkout, verification } = view;
  // As an Action's surface, every page ends the occurrence but the challenge itself.
  const page = (ctx: PageContext, title: string, body: SafeHtml, phase: SurfacePhase = "done") =>
    pageOf(ctx, title, body, surface && { surface, phase });
  if (checkout.status === "completed") {
    const orderUrl = safeUrl(checkout.order?.permalink_url);
    return page(
      ctx,
      "Order placed",
      html`<div class="notice ok" role="status"><p>Payment verified. Your order ${checkout.order?.id ?? ""} is placed.</p></div>
${orderUrl ? html`<p><a class="button" href="${orderUrl}">See your order</a></p>` : ""}`,
    );
  }
  if (checkout.status === "canceled") {
    return page(
      ctx,
      "This checkout is closed",
      html`<p>This checkout was canceled or has expired. Nothing was charged.</p>`,
      "action_expired",
    );
  }
  if (verification && buyerAnswers(ctx.config, view)) return challenge(ctx, view, verification, surface);
  if (verification && step) return bankStep(ctx, view, verification, step, surface);
  const agent = platformName(view.owner);
  if (verification?.status === "passed") {
    return page(
      ctx,
      "Payment verified",
      verification.startedBy === "platform"
        ? html`<div class="notice ok" role="status"><p>Verified — return to ${agent} to finish your order.</p></div>
<p class="muted">${agent} places the order now; nothing more is needed here.</p>`
        : html`<div class="notice ok" role="status"><p>Payment verified.</p></div>${checkoutLink}`,
    );
  }
  if (verification?.status === "failed") {
    return page(
      ctx,
      "Payment not verified",
      html`<div class="notice error" role="alert"><p>Your bank could not verify the payment. Nothing was charged.</p></div>
${verification.startedBy === "platform" ? html`<p>Return to ${agent} to pay another way.</p>` : html`<p><a class="button" href="/checkout/${token}">Pay with another card</a></p>`}`,
    );
  }
  return page(
    ctx,
    "Nothing to verify",
    html`<p>This checkout has no payment waiting for verification.</p>${checkoutLink}`,
    "action_unavailable",
  );
}

type Verification = NonNullable<VerificationView["verification"]>;

/** What the buyer confirms: the items, the store, the amount and the card. */
function paymentSummary(ctx: PageContext, view: VerificationView, verification: Verification): SafeHtml {
  const amount = formatMoney(verification.amount, verification.currency, ctx.config.storefront.locale);
  const display = verification.instrument.display ?? {};
  const brand =
    typeof display.brand === "string" ? display.brand.charAt(0).toUpperCase() + display.brand.slice(1) : "Card";
  const last = typeof display.last_digits === "string" ? display.last_digits : undefined;
  const lines = view.checkout.lines ?? [];
  return html`<div class="card">
<p>Your card's bank asks you to confirm this payment.</p>
${lines.length ? html`<ul class="verify-items">${lines.map((line) => html`<li>${line.quantity} × ${line.title}</li>`)}</ul>` : ""}
<table>
<tr><th scope="row">Merchant</th><td>${ctx.config.name}</td></tr>
<tr><th scope="row">Total</th><td>${amount}</td></tr>
<tr><th scope="row">Card</th><td>${brand}${last ? html` ending in ${last}` : ""}</td></tr>
</table>
</div>`;
}

/** The bank's step with Stripe: Stripe.js runs it, Stripe says how it ended. */
function bankStep(
  ctx: PageContext,
  view: VerificationView,
  verification: Verification,
  step: StripeStep,
  surface: ShownSurface | undefined,
): Response {
  const proof = surface ? html`<input type="hidden" name="${SURFACE_FIELD}" value="${surface.proof}">` : html``;
  return pageOf(
    ctx,
    "Verify your payment",
    html`${paymentSummary(ctx, view, verification)}
${stripeStepForm(ctx, step, proof)}
${verification.startedBy === "platform" && !surface ? html`<p class="muted">Afterwards, return to ${platformName(view.owner)}.</p>` : ""}`,
    surface && { surface, phase: "challenge" },
    STRIPE_VERIFY_SCRIPT,
  );
}

/** The bank's step, test mode: the buyer chooses the bank's answer. */
function challenge(
  ctx: PageContext,
  view: VerificationView,
  verification: Verification,
  surface: ShownSurface | undefined,
): Response {
  const key = crypto.randomUUID();
  return pageOf(
    ctx,
    "Verify your payment",
    html`${paymentSummary(ctx, view, verification)}
<div class="notice" role="note"><p><strong>Test mode:</strong> no bank is involved. Choose the bank's answer: verify the payment, or fail the verification (nothing is charged).</p></div>
<form method="post" class="row" data-action-gated>
${csrfInput(ctx)}
${surface ? html`<input type="hidden" name="${SURFACE_FIELD}" value="${surface.proof}">` : ""}
<input type="hidden" name="key" value="${key}">
<button type="submit" name="outcome" value="pass">Verify</button>
<button type="submit" name="outcome" value="fail" class="secondary">Fail verification</button>
</form>
${view.verification?.startedBy === "platform" && !surface ? html`<p class="muted">Afterwards, return to ${platformName(view.owner)}.</p>` : ""}`,
    surface && { surface, phase: "challenge" },
  );
}

function pageOf(
  ctx: PageContext,
  title: string,
  body: SafeHtml,
  action?: { surface: ActionSurface; phase: SurfacePhase },
  script?: string,
): Response {
  const scripts = [action ? SURFACE_SCRIPT : undefined, script].filter((s) => s !== undefined);
  return renderPage(ctx, {
    title,
    personal: true,
    body: html`<h1>${title}</h1>${body}${action ? surfaceMarker(action.surface, action.phase) : ""}`,
    ...(scripts.length ? { script: scripts.join("\n") } : {}),
  });
}

function failurePage(ctx: PageContext, failure: Extract<VerificationAnswer, { ok: false }>): Response {
  switch (failure.reason) {
    case "not_found":
      return messagePage(ctx, 404, "This link is not valid", "Check that the whole link was copied.");
    case "conflict":
      return messagePage(ctx, 409, "This form was already used", "Reload the page to see where the payment stands.");
    case "not_answerable":
      return messagePage(ctx, 409, "Nothing to verify here", "This payment is not verified on this page.");
    case "pending":
    case "unavailable":
      return messagePage(ctx, 503, "Please try again", "The store could not answer just now. Try again in a moment.");
  }
}

/** Who the buyer returns to: the owner platform's host, as its profile URL names it. */
function platformName(profile: string | undefined): string {
  try {
    return profile ? new URL(profile).host : "the assistant that sent you here";
  } catch {
    return "the assistant that sent you here";
  }
}
