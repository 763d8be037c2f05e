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
import { type Translate, translator } from "../i18n/translate";
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
  const t = translator(ctx);
  if (!form) return messagePage(ctx, 403, t("form.expired.title"), t("form.expired.text"));
  const outcome = field(form, "outcome", 10);
  const key = field(form, "key", 100);
  if ((outcome !== "pass" && outcome !== "fail" && outcome !== "bank") || !KEY.test(key)) {
    return messagePage(ctx, 400, t("page.failed.title"), t("verify.chooseAgain"));
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
  const t = translator(ctx);
  const checkoutLink = html`<p><a href="/checkout/${token}">${t("verify.backToCheckout")}</a></p>`;
  const { checkout, verification } = view;
  // As an Action's surface, every page ends the occurrence but the challenge itself.
  const page = (ctx: PageContext, title: string, body: SafeHtml, phase: SurfacePhase = "done") =>
    pageOf(ctx, title, body, surface && { surface, phase });
  if (checkout.status === "completed") {
    const orderUrl = safeUrl(checkout.order?.permalink_url);
    return page(
      ctx,
      t("checkout.orderPlaced"),
      html`<div class="notice ok" role="status"><p>${t("verify.orderPlaced", { order: checkout.order?.id ?? "" })}</p></div>
${orderUrl ? html`<p><a class="button" href="${orderUrl}">${t("verify.seeOrder")}</a></p>` : ""}`,
    );
  }
  if (checkout.status === "canceled") {
    return page(ctx, t("verify.closed.title"), html`<p>${t("verify.closed.text")}</p>`, "action_expired");
  }
  if (verification && buyerAnswers(ctx.config, view)) return challenge(ctx, view, verification, surface);
  if (verification && step) return bankStep(ctx, view, verification, step, surface);
  const agent = platformName(t, view.owner);
  if (verification?.status === "passed") {
    return page(
      ctx,
      t("verify.passed.title"),
      verification.startedBy === "platform"
        ? html`<div class="notice ok" role="status"><p>${t("verify.passed.returnTo", { agent })}</p></div>
<p class="muted">${t("verify.passed.agentPlaces", { agent })}</p>`
        : html`<div class="notice ok" role="status"><p>${t("verify.passed.text")}</p></div>${checkoutLink}`,
    );
  }
  if (verification?.status === "failed") {
    return page(
      ctx,
      t("verify.failed.title"),
      html`<div class="notice error" role="alert"><p>${t("verify.failed.text")}</p></div>
${verification.startedBy === "platform" ? html`<p>${t("verify.failed.returnTo", { agent })}</p>` : html`<p><a class="button" href="/checkout/${token}">${t("verify.failed.anotherCard")}</a></p>`}`,
    );
  }
  return page(
    ctx,
    t("verify.nothing.title"),
    html`<p>${t("verify.nothing.text")}</p>${checkoutLink}`,
    "action_unavailable",
  );
}

type Verification = NonNullable<VerificationView["verification"]>;

/** What the buyer confirms: the items, the store, the amount and the card. */
function paymentSummary(ctx: PageContext, view: VerificationView, verification: Verification): SafeHtml {
  const t = translator(ctx);
  const amount = formatMoney(verification.amount, verification.currency, ctx.config.storefront.locale);
  const display = verification.instrument.display ?? {};
  const brand =
    typeof display.brand === "string"
      ? display.brand.charAt(0).toUpperCase() + display.brand.slice(1)
      : t("verify.card");
  const last = typeof display.last_digits === "string" ? display.last_digits : undefined;
  const lines = view.checkout.lines ?? [];
  return html`<div class="card">
<p>${t("verify.bankAsks")}</p>
${lines.length ? html`<ul class="verify-items">${lines.map((line) => html`<li>${line.quantity} × ${line.title}</li>`)}</ul>` : ""}
<table>
<tr><th scope="row">${t("verify.merchant")}</th><td>${ctx.config.name}</td></tr>
<tr><th scope="row">${t("totals.total")}</th><td>${amount}</td></tr>
<tr><th scope="row">${t("verify.card")}</th><td>${last ? t("verify.cardEnding", { brand, last }) : brand}</td></tr>
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
  const t = translator(ctx);
  const proof = surface ? html`<input type="hidden" name="${SURFACE_FIELD}" value="${surface.proof}">` : html``;
  return pageOf(
    ctx,
    t("verify.title"),
    html`${paymentSummary(ctx, view, verification)}
${stripeStepForm(ctx, step, proof)}
${verification.startedBy === "platform" && !surface ? html`<p class="muted">${t("verify.afterwards", { agent: platformName(t, view.owner) })}</p>` : ""}`,
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
  const t = translator(ctx);
  const key = crypto.randomUUID();
  return pageOf(
    ctx,
    t("verify.title"),
    html`${paymentSummary(ctx, view, verification)}
<div class="notice" role="note"><p><strong>${t("verify.testMode")}</strong> ${t("verify.testModeText")}</p></div>
<form method="post" class="row" data-action-gated>
${csrfInput(ctx)}
${surface ? html`<input type="hidden" name="${SURFACE_FIELD}" value="${surface.proof}">` : ""}
<input type="hidden" name="key" value="${key}">
<button type="submit" name="outcome" value="pass">${t("verify.pass")}</button>
<button type="submit" name="outcome" value="fail" class="secondary">${t("verify.fail")}</button>
</form>
${view.verification?.startedBy === "platform" && !surface ? html`<p class="muted">${t("verify.afterwards", { agent: platformName(t, view.owner) })}</p>` : ""}`,
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
  const t = translator(ctx);
  switch (failure.reason) {
    case "not_found":
      return messagePage(ctx, 404, t("link.invalid.title"), t("link.invalid.text"));
    case "conflict":
      return messagePage(ctx, 409, t("verify.used.title"), t("verify.used.text"));
    case "not_answerable":
      return messagePage(ctx, 409, t("verify.notHere.title"), t("verify.notHere.text"));
    case "pending":
    case "unavailable":
      return messagePage(ctx, 503, t("page.unavailable.title"), t("verify.unavailable"));
  }
}

/** Who the buyer returns to: the owner platform's host, as its profile URL names it. */
function platformName(t: Translate, profile: string | undefined): string {
  try {
    return profile ? new URL(profile).host : t("verify.theAssistant");
  } catch {
    return t("verify.theAssistant");
  }
}
