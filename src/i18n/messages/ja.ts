/** Japanese. */
import type { Catalog } from "../catalog";

export const ja = {
  "layout.skip": "本文へ移動",
  "layout.nav": "ストア",
  "layout.shop": "ショップ",
  "layout.cart": "カート",
  "layout.cartCount": { other: "カート（{count}点）" },
  "layout.continueShopping": "買い物を続ける",
  "cart.empty.title": "カートは空です",
  "cart.empty.text": "カートに追加した商品がここに表示されます。",
} satisfies Catalog;
