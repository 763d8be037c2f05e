/**
 * The checkout page's one form: POST to the page itself, the CSRF field, a fresh idempotency
 * key (a resubmitted form replays its answer instead of acting twice) and the total the page
 * showed (Pay places the order only for that total). The button pressed says what to do.
 */
import { toBase64Url } from "../lib/ids";
import type { PageContext } from "./context";
import { html, type SafeHtml } from "./html";
import { csrfInput } from "./layout";

/**
 * continue: apply every field through update_checkout; pay: the same, then place the order
 * when nothing changed the total; apply: a secondary button (apply code, remove, update
 * quantities): apply what is there without asking for what is still missing.
 */
export const ACTIONS = ["continue", "pay", "apply"] as const;
export type CheckoutAction = (typeof ACTIONS)[number];

export const FORM_ID = "checkout-form";
export const KEY_FIELD = "idempotency_key";
export const SHOWN_TOTAL_FIELD = "shown_total";
const KEY_SHAPE = /^[A-Za-z0-9_-]{16,64}$/;

export function checkoutPath(token: string): string {
  return `/checkout/${token}`;
}

export function newFormKey(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(18)));
}

/** The form's key, or undefined when it is missing or not one this page made. */
export function formKey(form: FormData): string | undefined {
  const value = form.get(KEY_FIELD);
  return typeof value === "string" && KEY_SHAPE.test(value) ? value : undefined;
}

/** The button pressed; a remove button (no action of its own) applies. */
export function actionOf(value: string): CheckoutAction | undefined {
  if (value === "") return "apply";
  return (ACTIONS as readonly string[]).includes(value) ? (value as CheckoutAction) : undefined;
}

/**
 * `<form>` with its hidden fields; the caller writes the inputs and `</form>`. `novalidate`:
 * the store checks every field after a submit and says what is wrong next to it, in the
 * page's words (the browser's bubbles would block Apply code over an empty email).
 */
export function formOpen(ctx: PageContext, token: string, shownTotal: number): SafeHtml {
  return html`<form method="post" action="${checkoutPath(token)}" id="${FORM_ID}" novalidate>${csrfInput(ctx)}<input type="hidden" name="${KEY_FIELD}" value="${newFormKey()}"><input type="hidden" name="${SHOWN_TOTAL_FIELD}" value="${shownTotal}">`;
}
