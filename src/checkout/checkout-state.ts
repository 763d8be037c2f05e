/**
 * The checkout as stored in its Durable Object, its status rules, and the response shape.
 * Pure: `now` and every input are arguments.
 */
import type * as z from "zod";
import type { LineItem, Total } from "../../schemas/ucp/cart";
import type { CheckoutBuyer } from "../../schemas/ucp/checkout";
import type { ContextSchema, Message } from "../../schemas/ucp/common";
import { handlersForCheckout } from "../payment/stripe-handlers";
import { CAPABILITY } from "../ucp/capabilities";
import { checkoutExtensions } from "../ucp/negotiate";
import type { FulfillmentOption } from "./fulfillment";

export type Context = z.infer<typeof ContextSchema>;

export type CheckoutStatus =
  | "incomplete"
  | "requires_escalation"
  | "ready_for_complete"
  | "complete_in_progress"
  | "completed"
  | "canceled";

export const TERMINAL: ReadonlySet<CheckoutStatus> = new Set(["completed", "canceled"]);

export interface DestinationState {
  readonly id: string;
  readonly [field: string]: string | undefined;
}

export interface FulfillmentState {
  readonly methods: ReadonlyArray<{
    readonly id: string;
    readonly type: "shipping";
    readonly line_item_ids: readonly string[];
    readonly destinations: readonly DestinationState[];
    readonly selected_destination_id: string | null;
    readonly groups: ReadonlyArray<{
      readonly id: string;
      readonly line_item_ids: readonly string[];
      readonly options: readonly FulfillmentOption[];
      readonly selected_option_id: string | null;
    }>;
  }>;
}

export interface SavedInstrument {
  readonly id: string;
  readonly handler_id: string;
  readonly type: string;
  readonly selected?: boolean;
  readonly display?: Record<string, unknown>;
}

export interface CheckoutState {
  readonly id: string;
  readonly status: CheckoutStatus;
  readonly currency: string;
  readonly line_items: readonly LineItem[];
  readonly totals: readonly Total[];
  readonly messages: readonly Message[];
  readonly buyer?: CheckoutBuyer;
  readonly context?: Context;
  readonly fulfillment?: FulfillmentState;
  readonly discounts?: { readonly codes: readonly string[]; readonly applied: readonly unknown[] };
  readonly payment?: { readonly instruments: readonly SavedInstrument[] };
  /** `label`: the short order number ("#1001"); absent on orders placed before it. */
  readonly order?: { readonly id: string; readonly permalink_url: string; readonly label?: string };
  readonly cart_id?: string;
  readonly next_line: number;
  readonly created_at: number;
  readonly expires_at: number;
}

/** incomplete / requires_escalation / ready_for_complete from the messages (UCP checkout §Status). */
export function statusFrom(messages: readonly Message[]): CheckoutStatus {
  const errors = messages.filter((m) => m.type === "error");
  if (errors.some((m) => m.severity === "requires_buyer_input" || m.severity === "requires_buyer_review")) {
    return "requires_escalation";
  }
  return errors.length > 0 ? "incomplete" : "ready_for_complete";
}

export function isExpired(checkout: CheckoutState, now: number): boolean {
  return now >= checkout.expires_at && !TERMINAL.has(checkout.status);
}

export interface CheckoutEnvelope {
  readonly version: string;
  readonly status: "success";
  readonly capabilities: Record<string, Array<{ version: string }>>;
  /** The embedded service binding (ECP), when the session may be embedded (src/ucp/embedded.ts). */
  readonly services?: Record<string, unknown[]>;
  readonly payment_handlers: Record<string, unknown[]>;
}

/**
 * The response: continue_url for open sessions only (UCP: omit for terminal states). Fields of
 * an extension missing from `envelope.capabilities` (not negotiated by this caller) are never
 * shown, whatever the session stored under an earlier profile. `actions`: outstanding Actions
 * (payment-verification.ts challengeActions), shown only with the extension declaring them.
 */
export function checkoutPayload(
  checkout: CheckoutState,
  envelope: CheckoutEnvelope,
  continueUrl: string,
  actions?: Readonly<Record<string, readonly unknown[]>>,
) {
  const open = !TERMINAL.has(checkout.status);
  const ext = checkoutExtensions(new Set(Object.keys(envelope.capabilities)));
  const buyer = checkout.buyer && !ext.buyerConsent ? withoutConsent(checkout.buyer) : checkout.buyer;
  const shownActions = actions && CAPABILITY.paymentAuthentication in envelope.capabilities ? actions : undefined;
  // The handlers this checkout can be paid with (spec: filtered by cart context; payment/stripe-handlers.ts).
  const total = checkout.totals.find((t) => t.type === "total")?.amount ?? 0;
  const payment_handlers = handlersForCheckout(envelope.payment_handlers, { currency: checkout.currency, total });
  return {
    ucp: { ...envelope, payment_handlers },
    id: checkout.id,
    status: checkout.status,
    line_items: checkout.line_items,
    currency: checkout.currency,
    totals: checkout.totals,
    links: [] as Array<{ type: string; url: string }>,
    ...(buyer ? { buyer } : {}),
    ...(checkout.context ? { context: checkout.context } : {}),
    ...(checkout.messages.length > 0 ? { messages: checkout.messages } : {}),
    ...(shownActions ? { actions: shownActions } : {}),
    ...(checkout.fulfillment && ext.fulfillment ? { fulfillment: checkout.fulfillment } : {}),
    ...(checkout.discounts && ext.discount ? { discounts: checkout.discounts } : {}),
    ...(checkout.payment ? { payment: checkout.payment } : {}),
    ...(checkout.order ? { order: checkout.order } : {}),
    ...(open ? { continue_url: continueUrl, expires_at: new Date(checkout.expires_at).toISOString() } : {}),
  };
}

export function withoutConsent(buyer: CheckoutBuyer): CheckoutBuyer {
  const { consent: _ignored, ...rest } = buyer;
  return rest;
}
