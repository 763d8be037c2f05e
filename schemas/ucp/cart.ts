/**
 * Cart schemas (shopping/cart.json, types/line_item.json, item.json, total(s).json). Requests
 * take both versions' shapes: 2026-08-25 sends no `cart.id` on update, and its
 * `item.quantity_unit` passes through the open item to src/cart/quantity-unit.ts (left out of
 * the published schema: tools/list stays under its size bound, and this store sells `each`).
 * Responses are the model's, 2026-04-08's shapes.
 */
import * as z from "zod";
import {
  AmountSchema,
  AttributionSchema,
  ContextSchema,
  CurrencySchema,
  MessageSchema,
  ResponseUcpSchema,
  SignalsSchema,
} from "./common";

export const CART_LIMITS = { maxLines: 100, maxLineQuantity: 999 } as const;

export const BuyerSchema = z
  .looseObject({
    first_name: z.string().max(200).optional().describe("Buyer's first name."),
    last_name: z.string().max(200).optional().describe("Buyer's last name."),
    email: z.string().max(320).optional().describe("Buyer's email."),
    phone_number: z.string().max(64).optional().describe("Buyer's phone number (E.164 preferred)."),
  })
  .describe("Buyer details, for personalized estimates.");
export type Buyer = z.infer<typeof BuyerSchema>;

export const LineItemRequestSchema = z
  .looseObject({
    id: z.string().max(64).optional().describe("Existing line id to keep on update; omit for a new line."),
    item: z
      .looseObject({ id: z.string().min(1).max(256).describe("Variant id (or product id for its default variant).") })
      .describe("What to buy; title and price come from the catalog."),
    quantity: z
      .number()
      .int()
      .min(1)
      .max(CART_LIMITS.maxLineQuantity)
      .describe(`Units, 1 to ${CART_LIMITS.maxLineQuantity}; limited to what is in stock.`),
  })
  .describe("A requested line.");
export type LineItemRequest = z.infer<typeof LineItemRequestSchema>;

export const DiscountsRequestSchema = z
  .looseObject({
    codes: z
      .array(z.string().max(64))
      .max(10)
      .optional()
      .describe("Discount codes; replaces the previous codes, [] clears."),
  })
  .describe("Discounts request (dev.ucp.shopping.discount).");

export const CartRequestSchema = z
  .looseObject({
    line_items: z
      .array(LineItemRequestSchema)
      .max(CART_LIMITS.maxLines)
      .describe(`The whole cart's lines (update replaces them all); at most ${CART_LIMITS.maxLines}.`),
    context: ContextSchema.optional(),
    buyer: BuyerSchema.optional(),
    signals: SignalsSchema.optional(),
    attribution: AttributionSchema.optional(),
    discounts: DiscountsRequestSchema.optional(),
  })
  .describe("A cart as the platform sends it: full replacement on update.");
export type CartRequest = z.infer<typeof CartRequestSchema>;

export const TotalSchema = z
  .object({
    type: z.string().describe("subtotal, discount, fulfillment, tax, fee or total."),
    amount: z.number().int().describe("Signed amount in minor units; discounts are negative."),
    display_text: z.string().optional().describe("Label for display."),
    lines: z
      .array(
        z.object({
          type: z.string().optional().describe("tax (included in the prices) or net."),
          display_text: z.string().describe("Label for display."),
          amount: z.number().int().describe("Minor units."),
        }),
      )
      .optional()
      .describe("Breakdown of this entry, summing to its amount: on the total, the taxes the prices include."),
  })
  .describe("One total line.");
export type Total = z.infer<typeof TotalSchema>;

export const ItemSchema = z
  .object({
    id: z.string().describe("Variant id."),
    title: z.string().describe("Title from the catalog."),
    price: AmountSchema.describe("Unit price from the catalog, minor units."),
    image_url: z.url().optional().describe("Image URL."),
  })
  .describe("The item as priced by the merchant.");

export const LineItemSchema = z
  .object({
    id: z.string().describe("Line id."),
    item: ItemSchema,
    quantity: z.number().int().min(1).describe("Units."),
    totals: z.array(TotalSchema).describe("Line subtotal and total."),
    parent_id: z.string().optional().describe("Parent line id, for bundles."),
  })
  .describe("A priced line.");
export type LineItem = z.infer<typeof LineItemSchema>;

export const CartSchema = z
  .object({
    ucp: ResponseUcpSchema,
    id: z.string().describe("Cart id."),
    line_items: z.array(LineItemSchema).describe("Priced lines."),
    currency: CurrencySchema.describe("Currency of every amount."),
    totals: z.array(TotalSchema).describe("Estimated totals: exactly one subtotal and one total."),
    context: ContextSchema.optional(),
    buyer: BuyerSchema.optional(),
    messages: z.array(MessageSchema).optional().describe("What happened to the request's lines."),
    continue_url: z.url().optional().describe("Where a human can pick the cart up."),
    expires_at: z.string().optional().describe("When the cart expires (RFC 3339)."),
    discounts: z.looseObject({}).optional().describe("Codes and applied discounts."),
  })
  .describe("A cart.");
export type Cart = z.infer<typeof CartSchema>;
