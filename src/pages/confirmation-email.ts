/**
 * What the order confirmation says about the buyer's email: only what is true. A store
 * without a mail service (docs/email.md: confirmations are then only logged) promises no
 * email; with one, the order's outbox says whether it was sent, is on its way, or failed.
 * A read of the order object's outbox, never a change: the page's own business, not a tool's.
 */
import type { MessageKey } from "../i18n/messages/en";
import type { Translate } from "../i18n/translate";
import { orderStub } from "../tools/order-stub";
import type { PageContext } from "./context";
import { html, type SafeHtml } from "./html";

export type ConfirmationEmail = "sent" | "pending" | "failed" | "none";

/** The words (one place, for the i18n catalogs to take over). */
const EMAIL_TEXT = {
  sent: "confirmation.emailSent",
  pending: "confirmation.emailPending",
  failed: "confirmation.emailFailed",
} as const satisfies Record<string, MessageKey>;

/** Where the confirmation email of `orderId` stands; "none" when the store sends no email. */
export async function confirmationEmailOf(ctx: PageContext, orderId: string | undefined): Promise<ConfirmationEmail> {
  if (!orderId || ctx.config.email.kind !== "mailgun") return "none";
  try {
    const order = await orderStub(ctx.env, ctx.config.idSecret, orderId);
    return order ? await order.confirmationEmail() : "none";
  } catch (e) {
    // Say nothing rather than something untrue; the page itself still renders.
    console.error("confirmation email status unavailable", e instanceof Error ? e.message : e);
    return "none";
  }
}

/** The confirmation's sentence about the email; nothing when no email is owed. */
export function confirmationEmailNote(
  t: Translate,
  status: ConfirmationEmail,
  email: string | undefined,
): SafeHtml | "" {
  if (!email || status === "none") return "";
  return html`<p>${t(EMAIL_TEXT[status], { email })}</p>`;
}

/** The checkout with its confirmation email's state, when it is a completed one. */
export async function withEmailStatus<C extends { status: string; order?: { id: string } }>(
  ctx: PageContext,
  checkout: C,
): Promise<C & { confirmation_email?: ConfirmationEmail }> {
  if (checkout.status !== "completed") return checkout;
  return { ...checkout, confirmation_email: await confirmationEmailOf(ctx, checkout.order?.id) };
}
