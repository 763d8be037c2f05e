/**
 * HTML built from tagged templates that escape every interpolated value unless it is
 * already `SafeHtml`. Product data and buyer input are hostile: the only way to put text into
 * a page unescaped is `trustedHtml`, for markup this code writes itself.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Safe in element content and in quoted attribute values (both quote kinds are escaped). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

type Part = SafeHtml | string | number | boolean | null | undefined | readonly Part[];

function render(value: Part): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return (value as readonly Part[]).map(render).join("");
  // `cond && html\`...\`` leaves false behind: it renders as nothing.
  if (value === null || value === undefined || value === false || value === true) return "";
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: readonly Part[]): SafeHtml {
  let out = strings[0] as string;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] as string);
  return new SafeHtml(out);
}

/** Markup this code wrote (never data): CSS, a script body, a constant fragment. */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/**
 * A URL for href/src from data (catalog images, tracking links): only http(s) and
 * same-origin paths. Anything else (`javascript:`, `data:`) becomes undefined: render nothing.
 */
export function safeUrl(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 2048) return undefined;
  if (value.startsWith("/") && !value.startsWith("//")) return value;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}
