/**
 * One checkout computation: lines (priced by the Worker), discounts, fulfillment, tax and
 * totals, what is missing, and the status. Pure and deterministic (UCP: checkout logic MUST
 * be deterministic); the Checkout object runs it inside its transaction.
 */
import type { CheckoutBuyer, FulfillmentRequest, PaymentInstrument } from "../../schemas/ucp/checkout";
import type { Message } from "../../schemas/ucp/common";
import { assignLineIds } from "../cart/cart-state";
import type { PricedLine } from "../cart/pricing";
import type { CheckoutExtensions } from "../ucp/negotiate";
import { asAddress, type FulfillmentResult, resolveFulfillment, SELECTED_OPTION_PATH } from "./checkout-fulfillment";
import { type CheckoutState, type Context, type SavedInstrument, statusFrom, withoutConsent } from "./checkout-state";
import type { CommerceConfig } from "./commerce-config";
import { applyDiscounts, finalizeFreeShipping } from "./discounts";
import { taxFor } from "./tax";
import { checkoutTotals, lineTotals } from "./totals";

export interface CheckoutInput {
  readonly lines: readonly PricedLine[];
  /** Messages from pricing the lines (unknown items, stock). */
  readonly lineMessages: readonly Message[];
  readonly buyer: CheckoutBuyer | undefined;
  readonly context: Context | undefined;
  /** Absent: keep the previous fulfillment. */
  readonly fulfillment: FulfillmentRequest | undefined;
  /** Absent: keep the previous codes. */
  readonly discountCodes: readonly string[] | undefined;
  /** Absent: keep the previous instruments. Credentials are never kept. */
  readonly instruments: readonly PaymentInstrument[] | undefined;
  /** What the platform negotiated: an extension it did not is neither applied nor asked for. */
  readonly extensions: CheckoutExtensions;
}

export interface CheckoutBase {
  readonly id: string;
  readonly currency: string;
  readonly created_at: number;
  readonly expires_at: number;
  readonly cart_id?: string;
}

export function computeCheckout(
  previous: CheckoutState | undefined,
  base: CheckoutBase,
  input: CheckoutInput,
  config: CommerceConfig,
  now: number,
): CheckoutState {
  const ids = assignLineIds(previous ?? { line_items: [], next_line: 1 }, input.lines);
  const lines = input.lines.map((line, i) => ({
    ...line,
    id: ids.ids[i] as string,
    subtotal: line.item.price * line.quantity,
  }));
  const merchandise = lines.reduce((sum, l) => sum + l.subtotal, 0);
  const ext = input.extensions;
  const codes = ext.discount ? (input.discountCodes ?? previous?.discounts?.codes ?? []) : [];
  const buyer = input.buyer && !ext.buyerConsent ? withoutConsent(input.buyer) : input.buyer;
  const discounts = applyDiscounts({ codes, lines, config, now, currency: base.currency });
  const itemsDiscount = lines.reduce((sum, l) => sum + (discounts.lineDiscounts[l.id] ?? 0), 0);
  const afterDiscounts = merchandise - itemsDiscount - discounts.orderDiscount;

  const shipping = ext.fulfillment
    ? resolveFulfillment(input.fulfillment, previous?.fulfillment, ids.ids, {
        config,
        merchandiseAfterDiscounts: afterDiscounts,
        freeShippingCode: discounts.freeShipping,
      })
    : NO_FULFILLMENT;
  const shippingAmount = shipping.selected?.totals.find((t) => t.type === "total")?.amount;
  const applied = finalizeFreeShipping(discounts, shipping.codeSaving, SELECTED_OPTION_PATH);
  // Before an address is chosen, the buyer's context gives an estimate.
  const taxDestination = shipping.destination ? asAddress(shipping.destination) : (input.context ?? {});
  const taxPath = destinationPath(shipping);
  const taxes = taxFor(config, taxDestination, afterDiscounts, shippingAmount ?? 0, taxPath);

  const messages: Message[] = [...input.lineMessages, ...discounts.messages, ...shipping.messages];
  // A shipping address the store cannot tax is asked about; a context estimate is not.
  if (taxes.message && shipping.destination && !shipping.messages.some((m) => m.path?.startsWith(taxPath)))
    messages.push(taxes.message);
  if (lines.length === 0) messages.push(missing("$.line_items", "Add at least one item to buy."));
  if (!ext.fulfillment && lines.length > 0) messages.push(ADDRESS_FROM_BUYER);
  if (!buyer?.email) messages.push(missing("$.buyer.email", "The buyer's email is required."));
  const instruments = input.instruments ? input.instruments.map(saveInstrument) : previous?.payment?.instruments;

  return {
    id: base.id,
    status: statusFrom(messages),
    currency: base.currency,
    line_items: lines.map((l) => ({
      id: l.id,
      item: { ...l.item },
      quantity: l.quantity,
      totals: lineTotals(l.subtotal, discounts.lineDiscounts[l.id] ?? 0),
    })),
    totals: checkoutTotals({
      merchandise,
      itemsDiscount,
      orderDiscount: discounts.orderDiscount,
      ...(shippingAmount !== undefined ? { fulfillment: shippingAmount } : {}),
      ...(config.tax.prices_include_tax ? { taxes: [], includedTaxes: taxes.totals } : { taxes: taxes.totals }),
    }),
    messages,
    ...(buyer ? { buyer } : {}),
    ...(input.context ? { context: input.context } : {}),
    ...(shipping.fulfillment ? { fulfillment: shipping.fulfillment } : {}),
    ...(codes.length > 0 ? { discounts: { codes: discounts.codes, applied } } : {}),
    ...(instruments && instruments.length > 0 ? { payment: { instruments } } : {}),
    ...(base.cart_id ? { cart_id: base.cart_id } : {}),
    next_line: ids.next,
    created_at: base.created_at,
    expires_at: base.expires_at,
  };
}

/** What is kept of an instrument: never the credential (UCP: credentials are not echoed). */
export function saveInstrument(instrument: PaymentInstrument): SavedInstrument {
  return {
    id: instrument.id,
    handler_id: instrument.handler_id,
    type: instrument.type,
    ...(instrument.selected !== undefined ? { selected: instrument.selected } : {}),
    ...(instrument.display ? { display: instrument.display } : {}),
  };
}

function destinationPath(shipping: FulfillmentResult): string {
  const index = shipping.fulfillment?.methods[0]?.destinations.findIndex((d) => d.id === shipping.destination?.id);
  return `$.fulfillment.methods[0].destinations[${index ?? 0}]`;
}

const NO_FULFILLMENT: FulfillmentResult = {
  fulfillment: undefined,
  destination: undefined,
  selected: undefined,
  codeSaving: 0,
  messages: [],
};

/**
 * Every item ships, and a platform without the fulfillment extension has no field to send an
 * address in: the buyer gives it at continue_url (UCP: requires_buyer_input), no path to fix.
 */
const ADDRESS_FROM_BUYER: Message = {
  type: "error",
  code: "fulfillment_required",
  content: "A shipping address and method are needed; the buyer can give them at continue_url.",
  severity: "requires_buyer_input",
};

function missing(path: string, content: string): Message {
  return { type: "error", code: "missing", path, content, severity: "recoverable" };
}
