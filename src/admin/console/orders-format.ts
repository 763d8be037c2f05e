/** How the console says statuses, times, money, platforms and the API's enum values. */
import { formatDateTime } from "../../i18n/date-time";
import { html, type SafeHtml } from "../../pages/html";
import { formatMoney } from "../../pages/money";
import type { ConsoleContext } from "./types";

type Store = Pick<ConsoleContext, "config">;

export const STATUS_LABELS: Readonly<Record<string, string>> = {
  processing: "Processing",
  partially_shipped: "Partially shipped",
  shipped: "Shipped",
  delivered: "Delivered",
  canceled: "Canceled",
};

export function statusBadge(status: string): SafeHtml {
  return html`<span class="status">${STATUS_LABELS[status] ?? status}</span>`;
}

/**
 * To the minute, in the store's locale (MERCHANT_LOCALE) and the merchant's time zone
 * (MERCHANT_TIME_ZONE, default UTC), the zone named (src/i18n/date-time.ts).
 */
export function dateTime(ctx: Store, ms: number | string): string {
  return formatDateTime(ctx.config.storefront.locale, ctx.config.timeZone, ms);
}

const WORDS: Readonly<Record<string, string>> = {
  "order.created": "Order placed",
  "order.updated": "Order updated",
  cancellation: "Canceled",
  refund: "Refund",
  dispute: "Dispute",
};

/**
 * An enum value from the API (`in_transit`, `order.updated`, `refund`) as a word a merchant
 * reads: a few named, the rest with their separators as spaces and a capital first letter.
 */
export function words(value: string): string {
  const known = WORDS[value] ?? STATUS_LABELS[value];
  if (known) return known;
  const spaced = value.replace(/[_.]+/g, " ").trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

export function money(ctx: ConsoleContext, minor: number, currency = ctx.config.currency): string {
  return formatMoney(minor, currency, ctx.config.storefront.locale);
}

/**
 * A platform is its profile URL; its host names it for people, the URL stays in the title.
 * The store's own pages place orders under the store's origin: that channel is "Online store".
 * (storefrontProfile in src/pages/buyer-tools.ts; not imported: it would pull the tool layer
 * into every importer of this module; test/admin-console/console-words.test.ts ties the two.)
 */
export function platformName(ctx: Store, profile: string): SafeHtml {
  if (profile === `${ctx.config.origin}/`) return html`<span title="${profile}">Online store</span>`;
  let host = profile;
  try {
    host = new URL(profile).host;
  } catch {
    // not a URL (never expected): shown as stored
  }
  return html`<span title="${profile}">${host}</span>`;
}

/** Minor units from what a merchant types ("12.50", "12"), in the currency's own digits; undefined when it is not an amount. */
export function parseAmount(text: string, currency: string): number | undefined {
  const digits =
    new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const match = /^(\d{1,12})(?:[.,](\d+))?$/.exec(text.trim());
  if (!match?.[1] || (match[2] && match[2].length > digits)) return undefined;
  return Number(match[1]) * 10 ** digits + Number((match[2] ?? "").padEnd(digits, "0") || 0);
}
