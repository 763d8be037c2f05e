/**
 * Discount codes (UCP discount extension): matching, rejection warnings, and exact allocation
 * to line items. Pure; `now` is an argument. At most one amount-off code (percentage or
 * fixed_amount) and one free_shipping code apply; the first acceptable one of each kind wins.
 */
import type { Message } from "../../schemas/ucp/common";
import type { MessageCode } from "../ucp/message-codes";
import type { CommerceConfig, DiscountDefinition } from "./commerce-config";
import { allocateLargestRemainder, formatMinor, mulDivHalfUp } from "./money";

export interface Allocation {
  path: string;
  amount: number;
}

/** discount.json#/$defs/applied_discount, for code-based discounts. */
export interface AppliedDiscount {
  code: string;
  title: string;
  amount: number;
  automatic: false;
  /** Absent for free shipping: it has a single target, so neither method describes it. */
  method?: "each" | "across";
  priority: number;
  allocations: Allocation[];
}

export interface DiscountInput {
  readonly codes: readonly string[];
  /** In line_items order: allocation paths are `$.line_items[<index here>]`. */
  readonly lines: ReadonlyArray<{ readonly id: string; readonly subtotal: number }>;
  readonly config: Pick<CommerceConfig, "discounts">;
  readonly now: number;
  /** ISO 4217, for amounts in message text; without it they read as minor units. */
  readonly currency?: string;
}

export interface DiscountOutcome {
  /** As sent, rejected ones included (UCP: codes are echoed). */
  codes: string[];
  /** Sorted by priority; an accepted free_shipping entry is always last. */
  applied: AppliedDiscount[];
  /** Every line id, with its positive discount (0 when none). */
  lineDiscounts: Record<string, number>;
  /** Order-level discount; code discounts are all allocated to lines, so 0 for now. */
  orderDiscount: number;
  freeShipping: boolean;
  messages: Message[];
}

const AMOUNT_OFF_PRIORITY = 1;
const FREE_SHIPPING_PRIORITY = 2;

/** Matches codes case-insensitively (surrounding spaces ignored) and prices the accepted ones. */
export function applyDiscounts(input: DiscountInput): DiscountOutcome {
  const subtotal = input.lines.reduce((sum, line) => sum + line.subtotal, 0);
  const chosen: { amountOff?: DiscountDefinition; freeShipping?: DiscountDefinition } = {};
  const messages: Message[] = [];
  input.codes.forEach((sent, i) => {
    const definition = input.config.discounts.find((d) => sameCode(d.code, sent));
    const rejection = rejectionOf(definition, sent, chosen, subtotal, input);
    if (rejection) {
      messages.push({ type: "warning", path: `$.discounts.codes[${i}]`, ...rejection });
      return;
    }
    if (definition?.type === "free_shipping") chosen.freeShipping = definition;
    else if (definition) chosen.amountOff = definition;
  });
  const amountOff = chosen.amountOff ? priceAmountOff(chosen.amountOff, input.lines, subtotal) : undefined;
  const lineDiscounts = Object.fromEntries(input.lines.map((line, i) => [line.id, amountOff?.shares[i] ?? 0]));
  const applied = [
    ...(amountOff ? [amountOff.applied] : []),
    ...(chosen.freeShipping ? [entry(chosen.freeShipping, 0, undefined, FREE_SHIPPING_PRIORITY, [])] : []),
  ];
  return {
    codes: [...input.codes],
    applied,
    lineDiscounts,
    orderDiscount: 0,
    freeShipping: chosen.freeShipping !== undefined,
    messages,
  };
}

/**
 * Fills in the free_shipping entry once an option is selected: `saved` is what the code took off
 * it (`codeSavings[selected]` from `shippingOptions`, 0 when the threshold already made it free
 * or nothing is selected); `path` points at the selected option or its group.
 */
export function finalizeFreeShipping(
  outcome: Pick<DiscountOutcome, "applied" | "freeShipping">,
  saved: number,
  path: string,
): AppliedDiscount[] {
  const last = outcome.applied.at(-1);
  if (!outcome.freeShipping || !last) return [...outcome.applied];
  const allocations = saved > 0 ? [{ path, amount: saved }] : [];
  return [...outcome.applied.slice(0, -1), { ...last, amount: saved, allocations }];
}

function sameCode(configured: string, sent: string): boolean {
  return configured.toUpperCase() === sent.trim().toUpperCase();
}

function rejectionOf(
  definition: DiscountDefinition | undefined,
  sent: string,
  chosen: { amountOff?: DiscountDefinition; freeShipping?: DiscountDefinition },
  subtotal: number,
  input: DiscountInput,
): { code: MessageCode; content: string } | undefined {
  if (!definition) return { code: "discount_code_invalid", content: `Code '${sent}' is not a valid discount code.` };
  const current = definition.type === "free_shipping" ? chosen.freeShipping : chosen.amountOff;
  if (current === definition)
    return { code: "discount_code_already_applied", content: `Code '${sent}' is already applied.` };
  const { starts_at, expires_at, min_subtotal } = definition;
  if (expires_at !== undefined && input.now >= expires_at)
    return { code: "discount_code_expired", content: `Code '${sent}' expired on ${day(expires_at)}.` };
  if (starts_at !== undefined && input.now < starts_at)
    return { code: "discount_code_expired", content: `Code '${sent}' is not valid until ${day(starts_at)}.` };
  if (min_subtotal !== undefined && subtotal < min_subtotal) {
    const minimum = formatMinor(min_subtotal, input.currency);
    return {
      code: "discount_code_user_ineligible",
      content: `Code '${sent}' needs a subtotal of at least ${minimum}.`,
    };
  }
  if (current) {
    const content = `Code '${sent}' can't be combined with '${current.code}'; only one such code applies per order.`;
    return { code: "discount_code_combination_disallowed", content };
  }
  return undefined;
}

function priceAmountOff(
  definition: DiscountDefinition,
  lines: DiscountInput["lines"],
  subtotal: number,
): { applied: AppliedDiscount; shares: number[] } {
  const value = definition.value ?? 0;
  const percentage = definition.type === "percentage";
  // Never below zero: a fixed amount is capped at the merchandise it discounts.
  const amount = percentage ? mulDivHalfUp(subtotal, value, 100) : Math.min(value, subtotal);
  const shares = allocateLargestRemainder(
    amount,
    lines.map((line) => line.subtotal),
  );
  const allocations = shares.flatMap((share, i) => (share > 0 ? [{ path: `$.line_items[${i}]`, amount: share }] : []));
  const method = percentage ? "each" : "across";
  return { applied: entry(definition, amount, method, AMOUNT_OFF_PRIORITY, allocations), shares };
}

function entry(
  definition: DiscountDefinition,
  amount: number,
  method: AppliedDiscount["method"],
  priority: number,
  allocations: Allocation[],
): AppliedDiscount {
  return {
    code: definition.code,
    title: definition.title,
    amount,
    automatic: false,
    ...(method ? { method } : {}),
    priority,
    allocations,
  };
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
