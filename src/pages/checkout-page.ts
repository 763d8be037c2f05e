/**
 * `/checkout/<token>`: the checkout's continue_url, where the buyer reviews, edits, pays and
 * places the order in one form. GET shows the checkout as get_checkout returns it; POST runs
 * the form through the same tools an agent calls (checkout-actions.ts) and answers with the
 * page (the buyer's values kept), or redirects once the order is placed.
 */

import { embeddableCheckout, embeddedCall, isEmbeddedCall, keepEmbedded, readCheckoutForm } from "../embedded/hooks";
import { translator } from "../i18n/translate";
import { callAsBuyer } from "./buyer-tools";
import { withCartBadge } from "./cart-badge";
import { currentCart } from "./cart-page-cookie";
import { runCheckoutAction } from "./checkout-actions";
import { asCheckout, type PageCheckout } from "./checkout-data";
import { checkoutPath } from "./checkout-form";
import { checkoutResponse, type FormState } from "./checkout-view";
import { withEmailStatus } from "./confirmation-email";
import type { PageContext } from "./context";
import { openSession } from "./handoff";
import { messagePage } from "./layout";
import { seeOther } from "./respond";
import { checkoutCsp, prepareStripeCard } from "./stripe-card-form";

export async function checkoutPage(ctx: PageContext, token: string): Promise<Response> {
  const opened = await openSession(ctx, "checkout", token);
  if (!opened.ok) return opened.response;
  const read = await callAsBuyer(ctx, "get_checkout", { id: opened.id }, { handoff: true });
  if (!read.ok) {
    const t = translator(ctx);
    return messagePage(ctx, 503, t("page.unavailable.title"), t("checkout.loadFailed"), {
      "retry-after": "5",
    });
  }
  const checkout = asCheckout(read.value);
  if (!checkout) {
    const t = translator(ctx);
    return messagePage(ctx, 404, t("checkout.gone.title"), t("checkout.gone.text"));
  }
  // A placed order's confirmation says an email was sent only when one was.
  return showCheckout(ctx, token, await withEmailStatus(ctx, checkout));
}

/** The page for a checkout; `state`: after a submit, what was sent and what came of it. */
async function showCheckout(
  request: PageContext,
  token: string,
  checkout: PageCheckout,
  state?: FormState,
  status?: number,
): Promise<Response> {
  // The header's cart count: a GET read it before the page; a submit's answer reads it now.
  const ctx = await withCartBadge(request);
  // Stripe's card form (a store charging through Stripe): the checkout's PaymentIntent and the page's wider CSP.
  const card = await prepareStripeCard(ctx, checkout);
  // The way back to the browser's cart (the one it checked out from, when it came through the store's pages).
  const cart = await currentCart(ctx);
  const page = {
    token,
    ...(card ? { card } : {}),
    ...(state ? { state } : {}),
    ...(cart ? { cartToken: cart.token } : {}),
  };
  const response = checkoutCsp(checkoutResponse(ctx, checkout, page, status), ctx, card);
  // Embedded Checkout (ECP): framed only by the owner platform; with ec_version, the ECP page.
  return embeddableCheckout(ctx, checkout.id, checkout, response);
}

export async function checkoutAction(ctx: PageContext, token: string): Promise<Response> {
  const opened = await openSession(ctx, "checkout", token);
  if (!opened.ok) return opened.response;
  if (isEmbeddedCall(ctx.request)) return embeddedCall(ctx, opened.id);
  const form = await readCheckoutForm(ctx, opened.id);
  if (!form) return messagePage(ctx, 403, translator(ctx)("form.expired.title"), translator(ctx)("form.expired.text"));
  const done = await runCheckoutAction(ctx, opened.id, form);
  if ("redirect" in done) return keepEmbedded(ctx, seeOther(`${checkoutPath(token)}${done.redirect}`));
  return showCheckout(ctx, token, done.checkout, done.state, done.failed ? 422 : 200);
}
