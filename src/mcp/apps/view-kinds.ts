/** The MCP Apps views the store serves: one `ui://` template per kind (ui-extension.ts names them). */
export const VIEW_KINDS = ["search-results", "product", "cart", "checkout"] as const;
export type ViewKind = (typeof VIEW_KINDS)[number];

/** resources/list's words for each view (what a host shows when it vets or lists them). */
export const VIEW_INFO: Readonly<Record<ViewKind, { title: string; description: string }>> = {
  "search-results": {
    title: "Search results",
    description: "Products from search_catalog or lookup_catalog: image, title, price, availability, add to cart.",
  },
  product: {
    title: "Product",
    description: "One product from get_product: images, description, variants and price, add to cart.",
  },
  cart: {
    title: "Cart",
    description: "A cart's lines and estimated totals; checking out hands off to the checkout summary.",
  },
  checkout: {
    title: "Checkout summary",
    description:
      "A checkout's lines, totals and status. Paying opens the store's checkout page (continue_url); the view collects no payment data.",
  },
};
