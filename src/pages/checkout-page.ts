/**
 * `/checkout/<token>`: the checkout's continue_url, where the buyer reviews, edits, pays and
 * places the order. GET shows the checkout as get_checkout returns it; POST runs one form's
 * action through the same tools an agent calls (checkout-actions.ts), then redirects here.
 */
import { embeddableCheckout, embeddedCall, isEmbeddedCall, keepEmbedded, readCheckoutForm } from "../embedded/hooks";
import { callAsBuyer } from "./buyer-tools";
import { runCheckoutAction } from "./checkout-actions";
import { asCheckout } from "./checkout-data";
import { checkoutResponse } from "./checkout-view";
import type { PageContext } from "./context";
import { openSession } from "./handoff";
import { messagePage } from "./layout";
import { prepareStripeCard, withStripeCsp } from "./stripe-card-form";

export async function checkoutPage(ctx: PageContext, token: string): Promise<Response> {
  const opened = await openSession(ctx, "checkout", token);
  if (!opened.ok) return opened.response;
  const read = await callAsBuyer(ctx, "get_checkout", { id: opened.id }, { handoff: true });
  if (!read.ok) {
    return messagePage(ctx, 503, "Please try again", "The checkout could not be loaded just now.", {
      "retry-after": "5",
    });
  }
  const checkout = asCheckout(read.value);
  if (!checkout) {
    return messagePage(
      ctx,
      404,
      "This checkout is no longer available",
      "Ask the assistant that sent you here to start a new checkout.",
    );
  }
  // Stripe's card form (a store charging through Stripe): the checkout's PaymentIntent and the page's wider CSP.
  const card = await prepareStripeCard(ctx, checkout);
  const response = withStripeCsp(checkoutResponse(ctx, token, checkout, card), ctx, card);
  // Embedded Checkout (ECP): framed only by the owner platform; with ec_version, the ECP page.
  return embeddableCheckout(ctx, checkout.id, checkout, response);
}

export async function checkoutAction(ctx: PageContext, token: string): Promise<Response> {
  const opened = await openSession(ctx, "checkout", token);
  if (!opened.ok) return opened.response;
  if (isEmbeddedCall(ctx.request)) return embeddedCall(ctx, opened.id);
  const form = await readCheckoutForm(ctx, opened.id);
  if (!form) return messagePage(ctx, 403, "This form has expired", "Reload the page and try again.");
  return keepEmbedded(ctx, await runCheckoutAction(ctx, token, opened.id, form));
}
