/**
 * Looks a message up in the store's language, falling back to English, and fills `{name}`
 * placeholders. Returns plain text: pages escape it through html`` like any other value.
 */
import type { Catalog, Message } from "./catalog";
import { CATALOGS, type Language } from "./catalogs";
import { en, type MessageKey } from "./messages/en";

export type MessageParams = Readonly<Record<string, string | number>>;
export type Translate = (key: MessageKey, params?: MessageParams) => string;

const plurals = new Map<string, Intl.PluralRules>();
const numbers = new Map<string, Intl.NumberFormat>();

/** The catalog language for a BCP 47 locale ("de-DE" → "de"); English when there is none. */
export function languageOf(locale: string): Language {
  let language: string;
  try {
    language = new Intl.Locale(locale).language;
  } catch {
    return "en";
  }
  return language in CATALOGS ? (language as Language) : "en";
}

/** Intl objects are costly to build and a store has one locale: one of each per isolate. */
function cached<T>(cache: Map<string, T>, locale: string, make: (locale: string) => T): T {
  const found = cache.get(locale);
  if (found) return found;
  const made = make(locale);
  cache.set(locale, made);
  return made;
}

const pluralRules = (locale: string) => cached(plurals, locale, (l) => new Intl.PluralRules(l));
const numberFormat = (locale: string) => cached(numbers, locale, (l) => new Intl.NumberFormat(l));

function pick(message: Message, locale: string, params: MessageParams | undefined): string {
  if (typeof message === "string") return message;
  const count = params?.count;
  const category = typeof count === "number" ? pluralRules(locale).select(count) : "other";
  return message[category] ?? message.other;
}

function fill(text: string, locale: string, params: MessageParams | undefined): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === "number" ? numberFormat(locale).format(value) : value;
  });
}

/** One message in `locale`'s language (English when that catalog lacks the key). */
export function t(locale: string, key: MessageKey, params?: MessageParams): string {
  return lookup(CATALOGS[languageOf(locale)], locale, key, params);
}

/** `t` over a given catalog: the fallback rule, apart so a test can hand it an incomplete one. */
export function lookup(catalog: Catalog, locale: string, key: MessageKey, params?: MessageParams): string {
  const message = catalog[key] ?? en[key];
  // Plural rules and digits follow the locale whose words are shown.
  const wordsLocale = catalog[key] ? locale : "en";
  return fill(pick(message, wordsLocale, params), locale, params);
}

/** A `t` bound to one locale, for a page or an email that renders many messages. */
export function translatorFor(locale: string): Translate {
  return (key, params) => t(locale, key, params);
}

/** The translator for whatever carries the store's config (a page's context, an email's). */
export function translator(ctx: { readonly config: { readonly storefront: { readonly locale: string } } }): Translate {
  return translatorFor(ctx.config.storefront.locale);
}

/** `<html lang>`: the language the words are in ("de" for de-DE; "en" for a locale without a catalog). */
export function pageLanguage(locale: string): Language {
  return languageOf(locale);
}
