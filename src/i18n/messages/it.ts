/** Italian. */
import type { Catalog } from "../catalog";

export const it = {
  "layout.skip": "Vai al contenuto",
  "layout.nav": "Negozio",
  "layout.shop": "Negozio",
  "layout.cart": "Carrello",
  "layout.cartCount": {
    one: "Carrello, {count} articolo",
    many: "Carrello, {count} articoli",
    other: "Carrello, {count} articoli",
  },
  "layout.continueShopping": "Continua lo shopping",
  "cart.empty.title": "Il carrello è vuoto",
  "cart.empty.text": "I prodotti che aggiungi al carrello appaiono qui.",
} satisfies Catalog;
