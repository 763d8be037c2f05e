/** French. */
import type { Catalog } from "../catalog";

export const fr = {
  "layout.skip": "Aller au contenu",
  "layout.nav": "Boutique",
  "layout.shop": "Boutique",
  "layout.cart": "Panier",
  "layout.cartCount": {
    one: "Panier, {count} article",
    many: "Panier, {count} articles",
    other: "Panier, {count} articles",
  },
  "layout.continueShopping": "Continuer vos achats",
  "cart.empty.title": "Votre panier est vide",
  "cart.empty.text": "Les produits que vous ajoutez à votre panier apparaissent ici.",
} satisfies Catalog;
