/**
 * complete_checkout's pure parts: whether a session may be completed and with what payment
 * (plan), and the session after the attempt (settle). The object runs them around the
 * awaits of reserving stock, charging and placing the order.
 */
import type { CheckoutComplete, PaymentInstrument } from "../../schemas/ucp/checkout";
import type { Message } from "../../schemas/ucp/common";
import { err, ok, type Result } from "../lib/result";
import type { CheckoutState } from "./checkout-state";
import { REQUIRES_3DS } from "./payment-verification";

export interface CompletionPlan {
  readonly instrument: PaymentInstrument;
  readonly instrumentPath: string;
  readonly amount: number;
  readonly currency: string;
  readonly lines: ReadonlyArray<{ variantId: string; quantity: number }>;
}

export type CompletionOutcome =
  | { readonly kind: "completed"; readonly order: { id: string; permalink_url: string; label?: string } }
  /** Nobody finished the attempt by its recovery deadline and no money was kept: undone. */
  | { readonly kind: "abandoned" }
  | { readonly kind: "out_of_stock"; readonly variants: ReadonlyArray<{ variantId: string; available: number }> }
  | { readonly kind: "declined"; readonly reason: string; readonly instrumentPath: string }
  /** The buyer must verify the payment; `authenticationId`: the processor's reference, if it gave one. */
  | { readonly kind: "requires_action"; readonly reason: string; readonly authenticationId?: string };

/**
 * How many instruments one submission may carry. `one`: exactly one (2026-08-25 overview
 * §Payment Handlers, without split payments); `selected`: several, the selected one pays
 * (2026-04-08). The wire says which (src/ucp/wire/current-checkout.ts), the model enforces it.
 */
export type InstrumentCardinality = "one" | "selected";

export function planCompletion(
  checkout: CheckoutState,
  request: CheckoutComplete,
  handlerIds: readonly string[],
  cardinality: InstrumentCardinality = "selected",
): Result<CompletionPlan, Message[]> {
  if (checkout.status === "completed" || checkout.status === "canceled") {
    return err([
      {
        type: "error",
        code: "invalid_status",
        content: `This checkout is ${checkout.status}; it cannot be completed.`,
        severity: "unrecoverable",
      },
    ]);
  }
  if (cardinality === "one" && request.payment.instruments.length !== 1) {
    return err([
      {
        type: "error",
        code: "payment_failed",
        path: "$.payment.instruments",
        content: `Pay with exactly one payment instrument (this submission has ${request.payment.instruments.length}).`,
        severity: "recoverable",
      },
    ]);
  }
  if (checkout.status !== "ready_for_complete" && checkout.status !== "complete_in_progress") {
    return err([
      {
        type: "error",
        code: "not_ready",
        content: "The checkout is not ready: resolve the errors in messages first.",
        severity: "recoverable",
      },
    ]);
  }
  const instruments = request.payment.instruments;
  const index = Math.max(
    0,
    instruments.findIndex((i) => i.selected === true),
  );
  const instrument = instruments[index] as PaymentInstrument;
  const path = `$.payment.instruments[${index}]`;
  if (!handlerIds.includes(instrument.handler_id)) {
    return err([
      {
        type: "error",
        code: "invalid_handler",
        path: `${path}.handler_id`,
        content: `No payment handler ${instrument.handler_id} is offered; use one from ucp.payment_handlers.`,
        severity: "recoverable",
      },
    ]);
  }
  if (!instrument.credential) {
    return err([
      {
        type: "error",
        code: "payment_required",
        path: `${path}.credential`,
        content: "The instrument has no credential.",
        severity: "recoverable",
      },
    ]);
  }
  const total = checkout.totals.find((t) => t.type === "total")?.amount ?? 0;
  return ok({
    instrument,
    instrumentPath: path,
    amount: total,
    currency: checkout.currency,
    lines: checkout.line_items.map((l) => ({ variantId: l.item.id, quantity: l.quantity })),
  });
}

/**
 * The session after a completion attempt. Failures leave it open and say why. `asAction`:
 * the platform negotiated payment_authentication, so a verification keeps the completion
 * accepted (complete_in_progress, the challenge shown as an Action) instead of escalating.
 */
export function settleCompletion(checkout: CheckoutState, outcome: CompletionOutcome, asAction = false): CheckoutState {
  switch (outcome.kind) {
    case "completed":
      return { ...checkout, status: "completed", messages: [], order: outcome.order };
    case "out_of_stock":
      return {
        ...checkout,
        status: "incomplete",
        messages: outcome.variants.map((short) => {
          const index = checkout.line_items.findIndex((l) => l.item.id === short.variantId);
          return {
            type: "error" as const,
            code: "out_of_stock",
            path: `$.line_items[${index}]`,
            content: `Only ${short.available} left of ${checkout.line_items[index]?.item.title ?? short.variantId}.`,
            severity: "recoverable" as const,
          };
        }),
      };
    case "declined":
      // The session stays open: another instrument may be tried (no money was taken).
      return {
        ...checkout,
        status: "ready_for_complete",
        messages: [
          {
            type: "error",
            code: "payment_failed",
            path: outcome.instrumentPath,
            content: outcome.reason,
            severity: "recoverable",
          },
        ],
      };
    case "abandoned":
      return {
        ...checkout,
        status: "ready_for_complete",
        messages: [
          {
            type: "error",
            code: "completion_abandoned",
            content:
              "An earlier completion was interrupted and undone: nothing was charged. Complete the checkout again.",
            severity: "recoverable",
          },
        ],
      };
    case "requires_action":
      if (asAction) {
        const waiting: Message = {
          type: "info",
          code: "payment_authentication_required",
          content: `${outcome.reason} The buyer completes it in the dev.ucp.payment.three_ds_challenge Action; the order is then placed.`,
        };
        return { ...checkout, status: "complete_in_progress", messages: [waiting] };
      }
      return {
        ...checkout,
        status: "requires_escalation",
        messages: [{ type: "error", code: REQUIRES_3DS, content: outcome.reason, severity: "requires_buyer_input" }],
      };
  }
}
