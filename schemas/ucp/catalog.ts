/** Catalog request and response schemas (catalog_search.json, catalog_lookup.json). */
import * as z from "zod";
import {
  AmountSchema,
  AttributionSchema,
  ContextSchema,
  MessageSchema,
  ResponseUcpSchema,
  SignalsSchema,
} from "./common";
import { DetailProductSchema, LookupProductSchema, ProductSchema, SelectedOptionSchema } from "./product";

export const CATALOG_LIMITS = {
  defaultPageSize: 10,
  maxPageSize: 50,
  maxLookupIds: 50,
  maxQueryLength: 512,
} as const;

const idString = z.string().min(1).max(256);

export const SearchFiltersSchema = z
  .looseObject({
    categories: z
      .array(z.string().max(256))
      .max(50)
      .optional()
      .describe("Any of these categories; a parent ('Footwear') matches its children."),
    category: z
      .union([z.string().max(256), z.array(z.string().max(256)).max(50)])
      .optional()
      .describe("Older spelling of categories."),
    price: z
      .object({
        min: AmountSchema.optional().describe("Lowest price, minor units of the store currency."),
        max: AmountSchema.optional().describe("Highest price, minor units of the store currency."),
      })
      .optional()
      .describe("Price range filter on variant prices."),
    available: z.boolean().optional().describe("true: only variants purchasable now; false: only unavailable ones."),
  })
  .describe("Filters, combined with AND.");
export type SearchFilters = z.infer<typeof SearchFiltersSchema>;

const requestContext = {
  context: ContextSchema.optional(),
  signals: SignalsSchema.optional(),
  attribution: AttributionSchema.optional(),
};

export const SearchRequestSchema = z
  .object({
    query: z
      .string()
      .max(CATALOG_LIMITS.maxQueryLength)
      .optional()
      .describe("Free-text query; an empty query matches nothing."),
    filters: SearchFiltersSchema.optional(),
    pagination: z
      .object({
        cursor: z.string().max(512).optional().describe("Opaque cursor from the previous page."),
        limit: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe(
            `Page size, default ${CATALOG_LIMITS.defaultPageSize}; larger values are clamped to ${CATALOG_LIMITS.maxPageSize}.`,
          ),
      })
      .optional()
      .describe("Cursor pagination."),
    ...requestContext,
  })
  .describe("A catalog search: at least one of query or filters.");
export type SearchRequest = z.infer<typeof SearchRequestSchema>;

export const LookupRequestSchema = z
  .object({
    ids: z
      .array(idString)
      .min(1)
      .describe(`Product ids, variant ids or SKUs (at most ${CATALOG_LIMITS.maxLookupIds}; duplicates are merged).`),
    filters: SearchFiltersSchema.optional(),
    ...requestContext,
  })
  .describe("A batch lookup by identifier.");
export type LookupRequest = z.infer<typeof LookupRequestSchema>;

export const GetProductRequestSchema = z
  .object({
    id: idString.describe("Product id, variant id or product handle."),
    selected: z.array(SelectedOptionSchema).max(20).optional().describe("Option selections to narrow variants."),
    preferences: z
      .array(z.string().max(200))
      .max(20)
      .optional()
      .describe("Option names, most important first, for relaxation."),
    filters: SearchFiltersSchema.optional(),
    ...requestContext,
  })
  .describe("One product's detail.");
export type GetProductRequest = z.infer<typeof GetProductRequestSchema>;

const messages = z.array(MessageSchema).optional().describe("Info, warnings or errors about the request.");

export const SearchResponseSchema = z
  .object({
    ucp: ResponseUcpSchema,
    products: z.array(ProductSchema).describe("Matching products, best first, one featured variant each."),
    pagination: z
      .object({
        cursor: z.string().optional().describe("Cursor for the next page; present when has_next_page."),
        has_next_page: z.boolean().describe("Whether more results exist."),
        total_count: z.number().int().min(0).optional().describe("Total matching products."),
      })
      .optional()
      .describe("Pagination state."),
    messages,
  })
  .describe("Search results.");
export type SearchResponse = z.infer<typeof SearchResponseSchema>;

export const LookupResponseSchema = z
  .object({
    ucp: ResponseUcpSchema,
    products: z.array(LookupProductSchema).describe("Products found; fewer when ids are unknown."),
    messages,
  })
  .describe("Lookup results.");
export type LookupResponse = z.infer<typeof LookupResponseSchema>;

export const GetProductResponseSchema = z
  .object({
    ucp: ResponseUcpSchema,
    product: DetailProductSchema,
    messages,
  })
  .describe("Product detail.");
export type GetProductResponse = z.infer<typeof GetProductResponseSchema>;
