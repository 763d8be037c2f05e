/**
 * English: the source of every message key, and the fallback for a key another catalog lacks.
 * Add a key here and test/node/i18n-catalogs.test.ts names the catalogs that still need it.
 * `{name}` is replaced by a parameter; an object picks a form by Intl.PluralRules on `count`.
 */
export const en = {
  "layout.skip": "Skip to content",
  "layout.nav": "Store",
  "layout.shop": "Shop",
  "layout.cart": "Cart",
  "layout.cartCount": { one: "Cart, {count} item", other: "Cart, {count} items" },
  "layout.continueShopping": "Continue shopping",
  "cart.empty.title": "Your cart is empty",
  "cart.empty.text": "Products you add to your cart appear here.",
} as const;

export type MessageKey = keyof typeof en;
