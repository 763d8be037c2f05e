/** Spanish. */
import type { Catalog } from "../catalog";

export const es = {
  "layout.skip": "Ir al contenido",
  "layout.nav": "Tienda",
  "layout.shop": "Tienda",
  "layout.cart": "Carrito",
  "layout.cartCount": {
    one: "Carrito, {count} artículo",
    many: "Carrito, {count} artículos",
    other: "Carrito, {count} artículos",
  },
  "layout.continueShopping": "Seguir comprando",
  "cart.empty.title": "Tu carrito está vacío",
  "cart.empty.text": "Los productos que añadas al carrito aparecerán aquí.",
} satisfies Catalog;
