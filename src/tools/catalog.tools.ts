/** The catalog tools: search_catalog, lookup_catalog, get_product (UCP catalog capabilities). */
import * as z from "zod";
import {
  CATALOG_LIMITS,
  GetProductRequestSchema,
  GetProductResponseSchema,
  LookupRequestSchema,
  LookupResponseSchema,
  SearchRequestSchema,
  SearchResponseSchema,
} from "../../schemas/ucp/catalog";
import type { Message } from "../../schemas/ucp/common";
import { liveProducts, liveSnapshot } from "../catalog/availability";
import { catalogSnapshot } from "../catalog/kv-catalog";
import { runLookup } from "../catalog/lookup";
import { productDetail } from "../catalog/product-detail";
import { planSearch, runSearch, toVariantFilter } from "../catalog/search";
import { variantPasses } from "../catalog/search-engine";
import { searchServed, servedSnapshot } from "../catalog/search-served";
import { err, ok } from "../lib/result";
import { CAPABILITY } from "../ucp/capabilities";
import { invalidParams } from "../ucp/errors";
import { defineTool } from "./types";

const withMessages = (messages: Message[]) => (messages.length > 0 ? { messages } : {});

export const searchCatalog = defineTool({
  name: "search_catalog",
  description:
    "Search the merchant's product catalog by free text and/or filters (categories, price range in minor units, availability). Returns ranked products with one featured variant each and cursor pagination (default 10, max 50 per page).",
  capability: CAPABILITY.catalogSearch,
  idempotencyKeyRequired: false,
  input: z.object({ catalog: SearchRequestSchema }),
  output: SearchResponseSchema,
  async run({ catalog }, ctx) {
    const plan = planSearch(catalog, ctx.config.currency);
    if (!plan.ok) return err(invalidParams(plan.error.message, { path: plan.error.path }));
    // A catalog with D1 search tables is searched there, holding nothing of it in the isolate.
    const page =
      (await searchServed(ctx.env.CATALOG, ctx.env.CATALOG_DB, ctx.now, plan.value, ctx.config.origin)) ??
      (await runSearch(ctx.env.CATALOG, await currentCatalog(ctx.env.CATALOG, ctx.now), plan.value, ctx.config.origin));
    return ok({
      ucp: ctx.envelope(),
      products: page.products,
      pagination: page.pagination,
      ...withMessages(page.messages),
    });
  },
});

export const lookupCatalog = defineTool({
  name: "lookup_catalog",
  description: `Look up products by product id, variant id or SKU (up to ${CATALOG_LIMITS.maxLookupIds} ids; duplicates merged). Each returned variant lists the request ids it answers in \`inputs\`; unknown ids are reported as info messages with code not_found.`,
  capability: CAPABILITY.catalogLookup,
  idempotencyKeyRequired: false,
  input: z.object({ catalog: LookupRequestSchema }),
  output: LookupResponseSchema,
  async run({ catalog }, ctx) {
    if (new Set(catalog.ids).size > CATALOG_LIMITS.maxLookupIds) {
      return err(
        invalidParams(`Too many ids: at most ${CATALOG_LIMITS.maxLookupIds} per lookup`, {
          path: "$.catalog.ids",
          max: CATALOG_LIMITS.maxLookupIds,
        }),
      );
    }
    const messages: Message[] = [];
    const filter = toVariantFilter(catalog.filters, catalog.context?.currency, ctx.config.currency, messages);
    const snapshot =
      (await servedSnapshot(ctx.env.CATALOG, ctx.env.CATALOG_DB, ctx.now, catalog.ids)) ??
      (await currentCatalog(ctx.env.CATALOG, ctx.now));
    const products = await runLookup(
      ctx.env.CATALOG,
      snapshot,
      catalog,
      filter,
      ctx.config.origin,
      messages,
      ctx.env.CATALOG_DB,
    );
    return ok({ ucp: ctx.envelope(), products, ...withMessages(messages) });
  },
});

export const getProduct = defineTool({
  name: "get_product",
  description:
    "Get one product's full detail by product id, variant id or handle. Optional `selected` options (with `preferences` for relaxation) narrow the variants; every option value carries `available`/`exists` signals relative to the selection. A requested variant comes first.",
  capability: CAPABILITY.catalogLookup,
  idempotencyKeyRequired: false,
  input: z.object({ catalog: GetProductRequestSchema }),
  output: GetProductResponseSchema,
  async run({ catalog }, ctx) {
    const snapshot =
      (await servedSnapshot(ctx.env.CATALOG, ctx.env.CATALOG_DB, ctx.now, [catalog.id])) ??
      (await currentCatalog(ctx.env.CATALOG, ctx.now));
    const index = snapshot?.index;
    const productDoc = index?.productIds.get(catalog.id);
    const ref = productDoc === undefined ? index?.variantRefs.get(catalog.id) : undefined;
    // The handle (the product page's URL) last: a secondary identifier the spec allows.
    const docIndex = productDoc ?? ref?.doc ?? index?.handles.get(catalog.id);
    const doc = docIndex === undefined ? undefined : index?.docs[docIndex];
    const product =
      doc && snapshot
        ? (await liveProducts(ctx.env.CATALOG, snapshot, [doc.id], ctx.env.CATALOG_DB)).get(doc.id)
        : undefined;
    if (!doc || !product) return err(invalidParams("Product not found", { id: catalog.id }));
    const messages: Message[] = [];
    const filter = toVariantFilter(catalog.filters, catalog.context?.currency, ctx.config.currency, messages);
    const requested = ref ? product.variants[ref.variant] : undefined;
    const passes = (variant: (typeof product.variants)[number]) =>
      variantPasses(doc, product.variants.indexOf(variant), filter);
    const detail = productDetail(product, catalog, requested, passes, ctx.config.origin);
    return ok({ ucp: ctx.envelope(), product: detail, ...withMessages(messages) });
  },
});

/** The catalog with the inventory's live sell-outs and restocks laid over it (availability.ts). */
async function currentCatalog(kv: KVNamespace, now: number) {
  const snapshot = await catalogSnapshot(kv, now);
  return snapshot ? liveSnapshot(kv, snapshot, now) : null;
}
