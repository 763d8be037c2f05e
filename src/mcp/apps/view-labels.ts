/**
 * The words of the MCP Apps views, one object per view (plus what every view shares). English
 * only for now: the views take them from here so that moving them to the store's message
 * catalogs (src/i18n/) is a change of this file alone. Numbers and money already follow the
 * store's locale (Intl in the view). `{name}` placeholders are filled by the view script.
 */
export const VIEW_LABELS = {
  /** BCP 47 language of these words (the view's `lang`; data such as titles stay as the catalog has them). */
  lang: "en",
  common: {
    loading: "Loading…",
    noData: "Nothing to show: the result carried no data.",
    cancelled: "The request was cancelled.",
    failed: "Something went wrong. Please try again.",
    working: "Working…",
    opened: "Opened in a new window.",
    openFailed: "Could not open the link.",
    quantity: "Quantity",
    subtotal: "Subtotal",
    total: "Total",
    tax: "Tax",
    discount: "Discount",
    fulfillment: "Shipping",
    fee: "Fee",
    items: "Items",
    item: "Item",
    lineTotal: "Line total",
    indicative: "Prices are shown for information; the store's checkout has the final amounts.",
  },
  "search-results": {
    heading: "Search results",
    count: "{count} products",
    countOne: "1 product",
    more: "More results are available: ask for the next page.",
    none: "No products matched.",
    from: "From {price}",
    outOfStock: "Out of stock",
    addToCart: "Add to cart",
    view: "View on the store",
  },
  product: {
    variant: "Variant",
    addToCart: "Add to cart",
    outOfStock: "Out of stock",
    viewProduct: "View on the store",
    gallery: "Product images",
  },
  cart: {
    heading: "Your cart",
    empty: "Your cart is empty.",
    checkout: "Check out",
    openCart: "Open the cart on the store",
  },
  checkout: {
    heading: "Checkout summary",
    pay: "Continue to payment",
    payHint: "You pay on the store's own checkout page; this view never asks for card details.",
    completed: "Order placed.",
    viewOrder: "View your order",
    canceled: "This checkout was canceled.",
    inProgress: "Payment is being processed.",
    needs: "Still needed",
    status: {
      incomplete: "Details are still needed",
      requires_escalation: "Needs your input on the store's page",
      ready_for_complete: "Ready to pay",
      complete_in_progress: "Payment in progress",
      completed: "Completed",
      canceled: "Canceled",
    },
  },
} as const;

export type ViewLabels = typeof VIEW_LABELS;
