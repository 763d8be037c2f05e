/**
 * The page for when no PageContext can be built (rate limited before reading config, a
 * misconfigured store, storage unreachable): no store name and no nonce, but still in the
 * store's language when MERCHANT_LOCALE names one.
 */
import type { MessageKey } from "../i18n/messages/en";
import { pageLanguage, t } from "../i18n/translate";

/** Titles and texts are the catalogs' own words (no markup), so nothing here needs escaping. */
export function plainPage(
  env: object,
  status: number,
  title: MessageKey,
  text: MessageKey,
  headers: Record<string, string> = {},
): Response {
  // Unchecked (config could not be read): t falls back to English for anything it cannot parse.
  const raw = (env as { MERCHANT_LOCALE?: unknown }).MERCHANT_LOCALE;
  const locale = typeof raw === "string" ? raw : "en";
  const heading = t(locale, title);
  const body = `<!doctype html><html lang="${pageLanguage(locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${heading}</title></head><body><main><h1>${heading}</h1><p>${t(locale, text)}</p></main></body></html>`;
  return new Response(body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "default-src 'none'",
      "cache-control": "no-store",
      ...headers,
    },
  });
}
