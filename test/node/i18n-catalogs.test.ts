/**
 * The message catalogs (src/i18n/): every English key translated in every language with the
 * plural forms that language needs and the same placeholders, no key left unused in src/, and
 * the lookup's fallback to English.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/i18n/catalog";
import { CATALOGS } from "../../src/i18n/catalogs";
import { en, type MessageKey } from "../../src/i18n/messages/en";
import { languageOf, lookup, pageLanguage, t } from "../../src/i18n/translate";

const keys = Object.keys(en) as MessageKey[];
const root = path.resolve(import.meta.dirname, "../..");

function placeholders(message: Message): string[] {
  const texts = typeof message === "string" ? [message] : Object.values(message);
  return [...new Set(texts.flatMap((text) => [...(text ?? "").matchAll(/\{(\w+)\}/g)].map((m) => m[1])))].sort();
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return file.endsWith(path.join("i18n", "messages")) ? [] : sources(file);
    return file.endsWith(".ts") ? [file] : [];
  });
}

describe("message catalogs", () => {
  for (const [language, catalog] of Object.entries(CATALOGS)) {
    const entries = catalog as Readonly<Record<string, Message | undefined>>;
    it(`${language}: every English key, nothing else`, () => {
      expect(
        keys.filter((key) => entries[key] === undefined),
        `missing in ${language}`,
      ).toEqual([]);
      expect(
        Object.keys(entries).filter((key) => !(key in en)),
        `unknown in ${language}`,
      ).toEqual([]);
    });

    it(`${language}: plural forms the language needs, placeholders as in English`, () => {
      const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      for (const key of keys) {
        const message = entries[key];
        if (message === undefined) continue;
        expect(typeof message, `${language} ${key}: text or plural as in English`).toBe(typeof en[key]);
        expect(placeholders(message), `${language} ${key}: placeholders`).toEqual(placeholders(en[key]));
        if (typeof message === "object")
          for (const category of categories)
            expect(message[category], `${language} ${key}: plural form "${category}"`).toBeTypeOf("string");
      }
    });
  }

  it("no key is unused: each appears quoted in src/ outside the catalogs", () => {
    const code = sources(path.join(root, "src"))
      .map((file) => readFileSync(file, "utf8"))
      .join("\n");
    expect(keys.filter((key) => !code.includes(`"${key}"`))).toEqual([]);
  });
});

describe("t", () => {
  it("picks the store's language by its subtag, English for a locale without a catalog", () => {
    expect(languageOf("de-DE")).toBe("de");
    expect(languageOf("fr-CA")).toBe("fr");
    expect(languageOf("pt-BR")).toBe("en");
    expect(languageOf("not a locale")).toBe("en");
    expect(pageLanguage("ja-JP")).toBe("ja");
    expect(t("de-DE", "layout.cart")).toBe("Warenkorb");
    expect(t("pt-BR", "layout.cart")).toBe("Cart");
  });

  it("falls back to English for a key the catalog lacks, with English plural rules", () => {
    expect(lookup({}, "fr-FR", "layout.cartCount", { count: 1 })).toBe("Cart, 1 item");
    expect(lookup({}, "fr-FR", "layout.cart")).toBe("Cart");
  });

  it("fills placeholders, numbers in the locale's digits, plural by Intl.PluralRules", () => {
    expect(t("en-US", "layout.cartCount", { count: 1 })).toBe("Cart, 1 item");
    expect(t("en-US", "layout.cartCount", { count: 1200 })).toBe("Cart, 1,200 items");
    expect(t("de-DE", "layout.cartCount", { count: 1200 })).toBe("Warenkorb, 1.200 Artikel");
    expect(t("nl-NL", "layout.cartCount", { count: 2 })).toBe("Winkelwagen, 2 artikelen");
    expect(t("ja-JP", "layout.cartCount", { count: 3 })).toBe("カート（3点）");
  });
});
