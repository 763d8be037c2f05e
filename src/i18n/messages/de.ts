/** German. */
import type { Catalog } from "../catalog";

export const de = {
  "layout.skip": "Zum Inhalt springen",
  "layout.nav": "Shop",
  "layout.shop": "Shop",
  "layout.cart": "Warenkorb",
  "layout.cartCount": { one: "Warenkorb, {count} Artikel", other: "Warenkorb, {count} Artikel" },
  "layout.continueShopping": "Weiter einkaufen",
  "cart.empty.title": "Ihr Warenkorb ist leer",
  "cart.empty.text": "Produkte, die Sie in den Warenkorb legen, erscheinen hier.",
} satisfies Catalog;
