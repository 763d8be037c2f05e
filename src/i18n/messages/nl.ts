/** Dutch. */
import type { Catalog } from "../catalog";

export const nl = {
  "layout.skip": "Naar de inhoud",
  "layout.nav": "Winkel",
  "layout.shop": "Winkel",
  "layout.cart": "Winkelwagen",
  "layout.cartCount": { one: "Winkelwagen, {count} artikel", other: "Winkelwagen, {count} artikelen" },
  "layout.continueShopping": "Verder winkelen",
  "cart.empty.title": "Je winkelwagen is leeg",
  "cart.empty.text": "Producten die je aan je winkelwagen toevoegt, verschijnen hier.",
} satisfies Catalog;
