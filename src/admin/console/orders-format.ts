/** How the console's order pages say statuses, times, money and platforms. */
import { html, type SafeHtml } from "../../pages/html";
import { formatMoney } from "../../pages/money";
import type { ConsoleContext } from "./types";

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

/** UTC, to the minute: the console's one time zone (the dashboard's days are UTC too). */
export function dateTime(ms: number | string): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : `${date.toISOString().replace("T", " ").slice(0, 16)} UTC`;
}

export function money(ctx: ConsoleContext, minor: number, currency = ctx.config.currency): string {
  return formatMoney(minor, currency, ctx.config.storefront.locale);
}

/** A platform is its profile URL; its host names it for people, the URL stays in the title. */
export function platformName(profile: string): SafeHtml {
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
