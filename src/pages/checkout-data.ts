/**
 * The checkout as the page reads it: get_checkout's payload (the tool's own output, already
 * checked against its schema on the way out), typed for rendering, plus the pieces the forms
 * send back whole (update_checkout replaces lines, buyer and context).
 */

import type { ToolPayload } from "./buyer-tools";
import type { ConfirmationEmail } from "./confirmation-email";

export interface PageTotal {
  readonly type: string;
  readonly amount: number;
  readonly display_text?: string;
  /** On the total: the taxes the prices include (src/checkout/included-tax.ts). */
  readonly lines?: readonly { type?: string; display_text: string; amount: number }[];
}

export interface PageLine {
  readonly id: string;
  readonly item: { readonly id: string; readonly title: string; readonly price: number; readonly image_url?: string };
  readonly quantity: number;
  readonly totals: readonly PageTotal[];
}

export interface PageMessage {
  readonly type: string;
  readonly code?: string;
  readonly path?: string;
  readonly content?: string;
  readonly severity?: string;
}

export interface PageDestination {
  readonly id: string;
  readonly [field: string]: string | undefined;
}

export interface PageOption {
  readonly id: string;
  readonly title: string;
  readonly description?: string;
  readonly totals: readonly PageTotal[];
}

export interface PageMethod {
  readonly id: string;
  readonly destinations: readonly PageDestination[];
  readonly selected_destination_id: string | null;
  readonly groups: ReadonlyArray<{
    readonly id: string;
    readonly options: readonly PageOption[];
    readonly selected_option_id: string | null;
  }>;
}

export interface PageApplied {
  readonly code?: string;
  readonly title: string;
  readonly amount: number;
}

export interface PageHandler {
  readonly id: string;
  readonly name: string;
  readonly config?: Record<string, unknown>;
}

export interface PageCheckout {
  readonly id: string;
  readonly status: string;
  readonly currency: string;
  readonly line_items: readonly PageLine[];
  readonly totals: readonly PageTotal[];
  readonly messages?: readonly PageMessage[];
  readonly buyer?: Record<string, unknown>;
  readonly context?: Record<string, unknown>;
  readonly fulfillment?: { readonly methods: readonly PageMethod[] };
  readonly discounts?: { readonly codes?: readonly string[]; readonly applied?: readonly PageApplied[] };
  /** `label`: the short order number ("#1001"). */
  readonly order?: { readonly id: string; readonly permalink_url: string; readonly label?: string };
  /** The page's own: where the confirmation email stands (confirmation-email.ts), once completed. */
  readonly confirmation_email?: ConfirmationEmail;
  readonly ucp: { readonly payment_handlers?: Record<string, ReadonlyArray<Record<string, unknown>>> };
}

/** The payload as a checkout, or undefined for an error response (not_found and the like). */
export function asCheckout(payload: ToolPayload): PageCheckout | undefined {
  if (typeof payload.id !== "string" || typeof payload.status !== "string") return undefined;
  if (!Array.isArray(payload.line_items) || !Array.isArray(payload.totals)) return undefined;
  return payload as unknown as PageCheckout;
}

export function messagesOf(checkout: PageCheckout): readonly PageMessage[] {
  return checkout.messages ?? [];
}

/** The one shipping method the store offers (src/checkout/checkout-fulfillment.ts). */
export function shippingMethod(checkout: PageCheckout): PageMethod | undefined {
  return checkout.fulfillment?.methods[0];
}

export function selectedDestination(method: PageMethod | undefined): PageDestination | undefined {
  if (!method) return undefined;
  return method.destinations.find((d) => d.id === method.selected_destination_id) ?? method.destinations[0];
}

/** Handlers as `ucp.payment_handlers` lists them (keyed by handler name). */
export function paymentHandlers(checkout: PageCheckout): PageHandler[] {
  return Object.entries(checkout.ucp.payment_handlers ?? {}).flatMap(([name, entries]) =>
    entries.flatMap((entry) =>
      typeof entry.id === "string"
        ? [
            {
              id: entry.id,
              name,
              ...(typeof entry.config === "object" && entry.config !== null
                ? { config: entry.config as Record<string, unknown> }
                : {}),
            },
          ]
        : [],
    ),
  );
}

export function totalOf(checkout: PageCheckout): number {
  return checkout.totals.find((t) => t.type === "total")?.amount ?? 0;
}

/** Expired sessions read as canceled with an `expired` note (durable-objects/checkout-object.ts). */
export function isExpired(checkout: PageCheckout): boolean {
  return checkout.status === "canceled" && messagesOf(checkout).some((m) => m.code === "expired");
}

/**
 * What update_checkout must be sent so that only the section a form edits changes: it
 * replaces lines, buyer and context whole (fulfillment and discount codes left out are kept).
 */
export function unchangedUpdate(checkout: PageCheckout): Record<string, unknown> {
  return {
    line_items: checkout.line_items.map((l) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity })),
    ...(checkout.buyer ? { buyer: checkout.buyer } : {}),
    ...(checkout.context ? { context: checkout.context } : {}),
  };
}
