/**
 * The words of the MCP Apps views in the store's language (MERCHANT_LOCALE), from the message
 * catalogs (src/i18n/; the views share the pages' words for totals, stock and the cart). One
 * object per view plus what every view shares; `{name}` placeholders are filled by the view
 * script, which also picks the product count's plural form with Intl.PluralRules.
 */
import type { Message } from "../../i18n/catalog";
import { CATALOGS } from "../../i18n/catalogs";
import { en, type MessageKey } from "../../i18n/messages/en";
import { languageOf, pageLanguage, translatorFor } from "../../i18n/translate";

/** A plural message for the script: its forms and the locale whose rules pick among them. */
export interface ViewPlural {
  readonly locale: string;
  readonly forms: Message;
}

/** As translate.ts's lookup: the catalog's forms in the store's locale, else English's with English rules. */
function plural(locale: string, key: MessageKey): ViewPlural {
  const own = (CATALOGS[languageOf(locale)] as Readonly<Record<string, Message | undefined>>)[key];
  return own ? { locale, forms: own } : { locale: "en", forms: en[key] };
}

/** Every word the views show, for a store whose locale is `locale`. */
export function viewLabels(locale: string) {
  const t = translatorFor(locale);
  return {
    /** BCP 47 language of these words (the view's `lang`; data such as titles stay as the catalog has them). */
    lang: pageLanguage(locale),
    common: {
      loading: t("view.loading"),
      noData: t("view.noData"),
      cancelled: t("view.cancelled"),
      failed: t("view.failed"),
      working: t("view.working"),
      opened: t("view.opened"),
      openFailed: t("view.openFailed"),
      quantity: t("product.quantity"),
      items: t("order.items"),
      item: t("cart.item"),
      lineTotal: t("view.lineTotal"),
      indicative: t("view.indicative"),
      /** Totals rows by type, as the pages name them (src/i18n/total-labels.ts). */
      totals: {
        subtotal: t("totals.subtotal"),
        items_discount: t("totals.discount"),
        discount: t("totals.discount"),
        fulfillment: t("totals.shipping"),
        tax: t("totals.tax"),
        fee: t("totals.fees"),
        total: t("totals.total"),
      },
      /** "incl. {label}" for an included tax under the total ({label}: the merchant's rate name). */
      included: t("totals.included"),
      /** Messages the views say in the store's words by `code` (others show the tool's content, as the pages do). */
      messages: { test_mode: t("message.testMode") },
    },
    "search-results": {
      title: t("view.search.heading"),
      heading: t("view.search.heading"),
      count: plural(locale, "store.productCount"),
      more: t("view.search.more"),
      none: t("view.search.none"),
      from: t("view.search.from"),
      outOfStock: t("stock.outOfStock"),
      addToCart: t("product.addToCart"),
      view: t("view.onStore"),
    },
    product: {
      title: t("view.product.title"),
      variant: t("view.product.variant"),
      addToCart: t("product.addToCart"),
      outOfStock: t("stock.outOfStock"),
      viewProduct: t("view.onStore"),
    },
    cart: {
      title: t("layout.cart"),
      heading: t("cart.title"),
      empty: t("cart.empty.title"),
      checkout: t("cart.checkOut"),
      openCart: t("view.cart.openCart"),
    },
    checkout: {
      title: t("view.checkout.heading"),
      heading: t("view.checkout.heading"),
      pay: t("view.checkout.pay"),
      payHint: t("view.checkout.payHint"),
      completed: t("view.checkout.completed"),
      viewOrder: t("view.checkout.viewOrder"),
      canceled: t("view.checkout.canceled"),
      inProgress: t("view.checkout.inProgress"),
      needs: t("view.checkout.needs"),
      status: {
        incomplete: t("view.status.incomplete"),
        requires_escalation: t("view.status.requiresEscalation"),
        ready_for_complete: t("view.status.readyForComplete"),
        complete_in_progress: t("view.status.completeInProgress"),
        completed: t("view.status.completed"),
        canceled: t("view.status.canceled"),
      },
    },
  };
}

export type ViewLabels = ReturnType<typeof viewLabels>;
