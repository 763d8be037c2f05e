/**
 * What every checkout form carries: POST to the page itself, the CSRF field, the `action`
 * naming the section, and a fresh idempotency key (a resubmitted form replays its answer
 * instead of acting twice).
 */
import { toBase64Url } from "../lib/ids";
import type { PageContext } from "./context";
import { html, type SafeHtml } from "./html";
import { csrfInput } from "./layout";

export const ACTIONS = ["contact", "address", "shipping", "items", "discount_add", "discount_remove", "place"] as const;
export type CheckoutAction = (typeof ACTIONS)[number];

export const KEY_FIELD = "idempotency_key";
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

export function isAction(value: string): value is CheckoutAction {
  return (ACTIONS as readonly string[]).includes(value);
}

/** `<form>` with its hidden fields; the caller writes the inputs and `</form>`. */
export function formOpen(ctx: PageContext, token: string, action: CheckoutAction, id?: string): SafeHtml {
  return html`<form method="post" action="${checkoutPath(token)}"${id ? html` id="${id}"` : ""}>${csrfInput(ctx)}<input type="hidden" name="action" value="${action}"><input type="hidden" name="${KEY_FIELD}" value="${newFormKey()}">`;
}
