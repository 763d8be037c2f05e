/** Catalog entity schemas (types/product.json, variant.json and friends), 2026-04-08. */
import * as z from "zod";
import { DescriptionSchema, PriceRangeSchema, PriceSchema } from "./common";

export const CategorySchema = z
  .object({
    value: z.string().min(1).describe("Category value or path, e.g. 'Footwear > Running'."),
    taxonomy: z.string().optional().describe("Taxonomy: google_product_category, shopify or merchant."),
  })
  .describe("A product category.");

export const MediaSchema = z
  .object({
    type: z.string().describe("Media type: image, video or model_3d."),
    url: z.url().describe("Media URL."),
    alt_text: z.string().optional().describe("Accessibility text."),
    width: z.number().int().min(1).optional().describe("Width in pixels."),
    height: z.number().int().min(1).optional().describe("Height in pixels."),
  })
  .describe("A media item; the first is featured.");

export const OptionValueSchema = z
  .object({
    id: z.string().optional().describe("Option value id."),
    label: z.string().min(1).describe("Display label, e.g. 'Blue'."),
  })
  .describe("One value of a product option.");

export const ProductOptionSchema = z
  .object({
    name: z.string().min(1).describe("Option name, e.g. 'Size'."),
    values: z.array(OptionValueSchema).min(1).describe("Values in display order."),
  })
  .describe("A configurable option axis.");

export const SelectedOptionSchema = z
  .object({
    name: z.string().min(1).max(200).describe("Option name."),
    label: z.string().min(1).max(200).describe("Selected value label."),
    id: z.string().max(200).optional().describe("Selected value id."),
  })
  .describe("An option selection.");

export const RatingSchema = z
  .object({
    value: z.number().min(0).describe("Average rating."),
    scale_max: z.number().min(1).describe("Top of the scale, e.g. 5."),
    scale_min: z.number().optional().describe("Bottom of the scale (default 1)."),
    count: z.number().int().min(0).optional().describe("Number of ratings."),
  })
  .describe("Aggregate rating.");

export const AvailabilitySchema = z
  .object({
    available: z.boolean().optional().describe("Whether the variant can be purchased now."),
    status: z
      .enum(["in_stock", "backorder", "preorder", "out_of_stock", "discontinued"])
      .optional()
      .describe("Stock status."),
  })
  .describe("Availability for purchase.");

const LinkSchema = z
  .looseObject({
    type: z.string().describe("Link type, e.g. refund_policy."),
    url: z.url().describe("Link URL."),
    title: z.string().optional().describe("Link title."),
  })
  .describe("A link.");

export const VariantSchema = z
  .object({
    id: z.string().min(1).describe("Variant id; use it as item.id in carts and checkouts."),
    sku: z.string().optional().describe("Merchant SKU."),
    barcodes: z
      .array(
        z.object({ type: z.string().describe("UPC, EAN, ISBN, GTIN or JAN."), value: z.string().describe("Barcode.") }),
      )
      .optional()
      .describe("Industry identifiers."),
    handle: z.string().optional().describe("URL-safe variant slug."),
    title: z.string().describe("Variant title, e.g. 'Blue / 10'."),
    description: DescriptionSchema,
    url: z.url().optional().describe("Variant page URL."),
    categories: z.array(CategorySchema).optional().describe("Variant categories."),
    price: PriceSchema.describe("Current selling price."),
    list_price: PriceSchema.optional().describe("Price before discounts (strikethrough)."),
    availability: AvailabilitySchema.optional(),
    options: z.array(SelectedOptionSchema).optional().describe("This variant's option values."),
    media: z.array(MediaSchema).optional().describe("Variant media."),
    rating: RatingSchema.optional(),
    tags: z.array(z.string()).optional().describe("Variant tags."),
    metadata: z.record(z.string(), z.unknown()).optional().describe("Merchant-defined data."),
    seller: z
      .object({
        name: z.string().optional().describe("Seller name."),
        links: z.array(LinkSchema).optional().describe("Seller policy links."),
      })
      .optional()
      .describe("Who sells this variant."),
  })
  .describe("A purchasable variant.");
export type Variant = z.infer<typeof VariantSchema>;

const productFields = {
  id: z.string().min(1).describe("Product id."),
  handle: z.string().optional().describe("URL-safe slug."),
  title: z.string().min(1).describe("Product title."),
  description: DescriptionSchema,
  url: z.url().optional().describe("Product page URL."),
  categories: z.array(CategorySchema).optional().describe("Product categories."),
  price_range: PriceRangeSchema,
  list_price_range: PriceRangeSchema.optional().describe("List price range (strikethrough)."),
  media: z.array(MediaSchema).optional().describe("Product media; first is featured."),
  options: z.array(ProductOptionSchema).optional().describe("Configurable options."),
  rating: RatingSchema.optional(),
  tags: z.array(z.string()).optional().describe("Product tags."),
  metadata: z.record(z.string(), z.unknown()).optional().describe("Merchant-defined data."),
};

export const ProductSchema = z
  .object({ ...productFields, variants: z.array(VariantSchema).min(1).describe("Variants; first is featured.") })
  .describe("A catalog product.");
export type Product = z.infer<typeof ProductSchema>;

export const InputCorrelationSchema = z
  .object({
    id: z.string().describe("The request identifier."),
    match: z
      .enum(["exact", "featured"])
      .describe("exact: resolved to this variant; featured: resolved to its product."),
  })
  .describe("Which request id resolved to this variant.");

export const LookupVariantSchema = VariantSchema.extend({
  inputs: z.array(InputCorrelationSchema).min(1).describe("Request ids that resolved to this variant."),
}).describe("A variant in a lookup response.");

export const LookupProductSchema = z
  .object({ ...productFields, variants: z.array(LookupVariantSchema).min(1).describe("Matched variants.") })
  .describe("A product in a lookup response.");

export const DetailOptionValueSchema = OptionValueSchema.extend({
  available: z.boolean().optional().describe("In stock given the other selections."),
  exists: z.boolean().optional().describe("A variant exists for this value given the other selections."),
}).describe("An option value with availability signals.");

export const DetailProductSchema = z
  .object({
    ...productFields,
    options: z
      .array(
        z.object({
          name: z.string().describe("Option name."),
          values: z.array(DetailOptionValueSchema).min(1).describe("Values with signals."),
        }),
      )
      .optional()
      .describe("Options with availability signals relative to the selection."),
    selected: z.array(SelectedOptionSchema).optional().describe("Effective selections after relaxation."),
    variants: z.array(VariantSchema).min(1).describe("Variants matching the selection; first is featured."),
  })
  .describe("A product in a get_product response.");
export type DetailProduct = z.infer<typeof DetailProductSchema>;
