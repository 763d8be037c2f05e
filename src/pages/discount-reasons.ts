/**
 * Why a discount code was not applied, in the store's language. The checkout's message says it
 * in English for agents (`content`, src/checkout/discounts.ts); the page names the reason from
 * the message's `code`, the code its `path` points at (`$.discounts.codes[i]`) and the store's
 * own definition of that code (its dates, minimum subtotal and kind). What the page cannot
 * name it leaves to `content`.
 */
import type { DiscountDefinition } from "../checkout/commerce-config";
import { commerceConfig } from "../checkout/merchant-commerce";
import type { Translate } from "../i18n/translate";
import type { PageContext } from "./context";
import { formatMoney } from "./money";
import type { ToolMessage } from "./tool-messages";

/** What a checkout or a cart payload says of its codes (both carry `discounts` and `currency`). */
export interface DiscountSession {
  readonly currency?: unknown;
  readonly discounts?: unknown;
}

/** What the page knows to name a rejected code: the codes sent, the ones applied, the store's definitions. */
export interface DiscountFacts {
  readonly codes: readonly string[];
  readonly applied: readonly string[];
  readonly definition: (code: string) => DiscountDefinition | undefined;
  readonly money: (minor: number) => string;
  readonly date: (ms: number) => string;
  readonly now: number;
}

export function discountFacts(ctx: PageContext, session: DiscountSession): DiscountFacts {
  let definitions: readonly DiscountDefinition[] = [];
  try {
    definitions = commerceConfig(ctx.env).discounts;
  } catch {
    // Settings that do not parse: the reasons keep the tool's words.
  }
  const locale = ctx.config.storefront.locale;
  const currency = typeof session.currency === "string" ? session.currency : ctx.config.currency;
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" });
  const discounts = (session.discounts ?? {}) as { codes?: unknown; applied?: unknown };
  const strings = (list: unknown) => (Array.isArray(list) ? list : []).filter((c) => typeof c === "string");
  return {
    codes: strings(discounts.codes),
    applied: strings((Array.isArray(discounts.applied) ? discounts.applied : []).map((a) => a?.code)),
    // Codes match case-insensitively, as the store matches them.
    definition: (code) => definitions.find((d) => d.code.toUpperCase() === code.trim().toUpperCase()),
    money: (minor) => formatMoney(minor, currency, locale),
    // The wire names the day in UTC (discounts.ts), so the page does too.
    date: (ms) => dates.format(ms),
    now: ctx.now,
  };
}

const freeShipping = (d: DiscountDefinition | undefined) => d?.type === "free_shipping";

/** The reason in the store's words, or undefined when the message is not about a code the page can name. */
export function discountReason(t: Translate, message: ToolMessage, facts: DiscountFacts): string | undefined {
  const index = /^\$\.discounts\.codes\[(\d+)\]$/.exec(message.path ?? "")?.[1];
  const code = index === undefined ? undefined : facts.codes[Number(index)]?.trim();
  if (!code) return undefined;
  const definition = facts.definition(code);
  switch (message.code) {
    case "discount_code_invalid":
      return t("message.discountInvalid", { code });
    case "discount_code_already_applied":
      return t("message.discountAlreadyApplied", { code });
    case "discount_code_expired":
      if (definition?.expires_at !== undefined && facts.now >= definition.expires_at)
        return t("message.discountExpired", { code, date: facts.date(definition.expires_at) });
      if (definition?.starts_at !== undefined && facts.now < definition.starts_at)
        return t("message.discountNotYet", { code, date: facts.date(definition.starts_at) });
      return t("message.discountNotValid", { code });
    case "discount_code_user_ineligible":
      if (definition?.min_subtotal !== undefined)
        return t("message.discountMinimum", { code, amount: facts.money(definition.min_subtotal) });
      return t("message.discountNotEligible", { code });
    case "discount_code_combination_disallowed": {
      // The code of the same kind (amount off, or free shipping) that was applied instead.
      const other =
        definition && facts.applied.find((a) => freeShipping(facts.definition(a)) === freeShipping(definition));
      return other ? t("message.discountNotCombined", { code, other }) : t("message.discountOneOnly", { code });
    }
  }
  return undefined;
}
