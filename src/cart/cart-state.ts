/**
 * The cart as stored in its Durable Object, and the pure transitions on it. Takes `now`
 * as an argument; storage and the clock stay in the object.
 */

import type * as z from "zod";
import type { Buyer, LineItem, Total } from "../../schemas/ucp/cart";
import type { ContextSchema, Message } from "../../schemas/ucp/common";
import type { CommerceConfig } from "../checkout/commerce-config";
import { applyDiscounts } from "../checkout/discounts";
import { checkoutTotals, lineTotals } from "../checkout/totals";
import type { PricedLine } from "./pricing";

export type Context = z.infer<typeof ContextSchema>;

export interface CartState {
  readonly id: string;
  readonly line_items: readonly LineItem[];
  readonly currency: string;
  readonly context?: Context;
  readonly buyer?: Buyer;
  /** Discount extension (it extends carts too): codes as sent, and what they took off. */
  readonly discounts?: { readonly codes: readonly string[]; readonly applied: readonly unknown[] };
  /** Positive discount per line id, from the codes. */
  readonly line_discounts?: Readonly<Record<string, number>>;
  /** Next number for `li_<n>` ids: line ids are never reused within a cart. */
  readonly next_line: number;
  readonly created_at: number;
  readonly expires_at: number;
}

export interface CartContent {
  readonly lines: readonly PricedLine[];
  readonly context?: Context;
  readonly buyer?: Buyer;
  readonly discountCodes?: readonly string[];
}

/** What pricing a cart needs besides its content. */
export interface CartPricing {
  readonly config: Pick<CommerceConfig, "discounts">;
  readonly now: number;
  readonly ttlMs: number;
}

/** A cart and the warnings its discount codes raised (rejected codes). */
export interface Priced {
  readonly cart: CartState;
  readonly messages: Message[];
}

export function newCart(id: string, currency: string, content: CartContent, pricing: CartPricing): Priced {
  const now = pricing.now;
  const base: CartState = {
    id,
    line_items: [],
    currency,
    next_line: 1,
    created_at: now,
    expires_at: now + pricing.ttlMs,
  };
  return replaceContent(base, content, pricing);
}

/**
 * Full replacement (UCP update semantics). A line keeps its id when the request names it,
 * or else when it asks for the same item as an existing line; other lines get fresh ids.
 * Activity extends the expiry.
 */
export function replaceContent(cart: CartState, content: CartContent, pricing: CartPricing): Priced {
  const ids = assignLineIds(cart, content.lines);
  const codes = content.discountCodes ?? [];
  const subtotals = content.lines.map((line, i) => ({
    id: ids.ids[i] as string,
    subtotal: line.item.price * line.quantity,
  }));
  const discounts = applyDiscounts({
    codes,
    lines: subtotals,
    config: pricing.config,
    now: pricing.now,
    currency: cart.currency,
  });
  const line_items = content.lines.map((line, i): LineItem => {
    const { id, subtotal } = subtotals[i] as { id: string; subtotal: number };
    const off = discounts.lineDiscounts[id] ?? 0;
    return {
      id,
      item: { ...line.item },
      quantity: line.quantity,
      totals: lineTotals(subtotal, off),
    };
  });
  const next: CartState = {
    id: cart.id,
    line_items,
    currency: cart.currency,
    ...(content.context ? { context: content.context } : {}),
    ...(content.buyer ? { buyer: content.buyer } : {}),
    ...(codes.length > 0
      ? { discounts: { codes: discounts.codes, applied: discounts.applied }, line_discounts: discounts.lineDiscounts }
      : {}),
    next_line: ids.next,
    created_at: cart.created_at,
    expires_at: pricing.now + pricing.ttlMs,
  };
  return { cart: next, messages: discounts.messages };
}

/** Line ids for a full replacement (shared by carts and checkouts). */
export function assignLineIds(
  cart: { readonly line_items: readonly LineItem[]; readonly next_line: number },
  lines: readonly PricedLine[],
): { ids: string[]; next: number } {
  const unclaimed = new Map(cart.line_items.map((l) => [l.id, l.item.id]));
  const ids: Array<string | undefined> = lines.map((line) => {
    if (line.requestedId === undefined || !unclaimed.has(line.requestedId)) return undefined;
    unclaimed.delete(line.requestedId);
    return line.requestedId;
  });
  lines.forEach((line, i) => {
    if (ids[i] !== undefined || line.requestedId !== undefined) return;
    const match = [...unclaimed].find(([, itemId]) => itemId === line.item.id)?.[0];
    if (match === undefined) return;
    unclaimed.delete(match);
    ids[i] = match;
  });
  let next = cart.next_line;
  return { ids: ids.map((id) => id ?? `li_${next++}`), next };
}

/** Cart totals: exactly one subtotal and one total (estimates: no shipping or tax yet). */
export function cartTotals(cart: CartState): Total[] {
  const subtotal = cart.line_items.reduce((sum, line) => sum + line.item.price * line.quantity, 0);
  const itemsDiscount = Object.values(cart.line_discounts ?? {}).reduce((sum, d) => sum + d, 0);
  // Without a discount the cart keeps the bare subtotal/total pair the cart seeds show.
  if (itemsDiscount === 0) return lineTotals(subtotal, 0);
  return checkoutTotals({ merchandise: subtotal, itemsDiscount, orderDiscount: 0, taxes: [] });
}

export function isExpired(cart: CartState, now: number): boolean {
  return now >= cart.expires_at;
}
