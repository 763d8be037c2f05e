/**
 * Checkout schemas (shopping/checkout.json with the fulfillment, discount and buyer consent
 * extensions, payment.json): requests as platforms of either version send them (2026-04-08
 * and 2026-08-25; src/ucp/wire/ reads the latter into the model), and the model's response.
 */
import * as z from "zod";
import {
  BuyerSchema,
  CART_LIMITS,
  DiscountsRequestSchema,
  LineItemRequestSchema,
  LineItemSchema,
  TotalSchema,
} from "./cart";
import {
  AttributionSchema,
  ContextSchema,
  CurrencySchema,
  MessageSchema,
  ResponseUcpSchema,
  SignalsSchema,
} from "./common";

const text = (max: number, what: string) => z.string().max(max).optional().describe(what);

export const PostalAddressSchema = z
  .looseObject({
    street_address: text(300, "Street and number."),
    extended_address: text(300, "Apartment, suite, floor."),
    address_locality: text(200, "City."),
    address_region: text(200, "State or region code."),
    postal_code: text(32, "Postal code."),
    address_country: text(64, "Country (ISO 3166-1 alpha-2)."),
    first_name: text(200, "Recipient's first name."),
    last_name: text(200, "Recipient's last name."),
    phone_number: text(64, "Recipient's phone number."),
  })
  .describe("A postal address.");
export type PostalAddress = z.infer<typeof PostalAddressSchema>;

export const DestinationRequestSchema = PostalAddressSchema.extend({
  id: text(64, "Existing destination id to keep; omit for a new one."),
  type: z.string().max(64).optional().describe("shipping_address (2026-08-25; default)."),
}).describe("A shipping destination.");

export const FulfillmentMethodRequestSchema = z
  .looseObject({
    id: text(64, "Existing method id (update)."),
    type: z.enum(["shipping", "pickup"]).optional().describe("shipping or pickup; required to add a method."),
    line_item_ids: z
      .array(z.string().max(256))
      .max(CART_LIMITS.maxLines)
      .optional()
      .describe("Lines this method fulfills."),
    destinations: z.array(DestinationRequestSchema).max(10).optional().describe("Where to ship."),
    selected_destination_id: z.string().max(64).nullable().optional().describe("The chosen destination id."),
    groups: z
      .array(
        z.looseObject({
          id: text(64, "Group id from a response."),
          selected_option_id: z.string().max(64).nullable().optional().describe("The chosen option id."),
        }),
      )
      .max(20)
      .optional()
      .describe("Option selections per package."),
  })
  .describe("A fulfillment method as requested.");

export const FulfillmentRequestSchema = z
  .looseObject({
    methods: z.array(FulfillmentMethodRequestSchema).max(5).optional().describe("Fulfillment methods."),
  })
  .describe("Fulfillment request (dev.ucp.shopping.fulfillment).");
export type FulfillmentRequest = z.infer<typeof FulfillmentRequestSchema>;

export const ConsentSchema = z
  .looseObject({
    analytics: z.boolean().optional().describe("Consent to analytics."),
    preferences: z.boolean().optional().describe("Consent to preference storage."),
    marketing: z.boolean().optional().describe("Consent to marketing."),
    sale_of_data: z.boolean().optional().describe("Consent to the sale of data."),
  })
  .describe("Buyer consent (dev.ucp.shopping.buyer_consent); 2026-08-25: a purpose map.");

export const CheckoutBuyerSchema = BuyerSchema.extend({ consent: ConsentSchema.optional() }).describe("The buyer.");
export type CheckoutBuyer = z.infer<typeof CheckoutBuyerSchema>;

export const PaymentInstrumentSchema = z
  .looseObject({
    id: z.string().min(1).max(128).describe("Instrument id assigned by the platform."),
    handler_id: z.string().min(1).max(128).describe("The id of an advertised payment handler."),
    type: z.string().min(1).max(64).describe("Instrument type, e.g. card."),
    selected: z.boolean().optional().describe("The instrument the buyer chose."),
    display: z.record(z.string(), z.unknown()).optional().describe("Display data (brand, last digits...)."),
    billing_address: PostalAddressSchema.optional(),
    credential: z
      .looseObject({ type: z.string().max(64).describe("Credential type, e.g. token.") })
      .optional()
      .describe("The payment credential; never echoed back."),
  })
  .describe("A payment instrument.");
export type PaymentInstrument = z.infer<typeof PaymentInstrumentSchema>;

export const PaymentRequestSchema = z
  .looseObject({
    instruments: z.array(PaymentInstrumentSchema).max(10).optional().describe("Payment instruments."),
  })
  .describe("Payment.");

const common = {
  buyer: CheckoutBuyerSchema.optional(),
  context: ContextSchema.optional(),
  signals: SignalsSchema.optional(),
  attribution: AttributionSchema.optional(),
  fulfillment: FulfillmentRequestSchema.optional(),
  discounts: DiscountsRequestSchema.optional(),
  payment: PaymentRequestSchema.optional(),
};

export const CheckoutCreateSchema = z
  .looseObject({
    line_items: z
      .array(LineItemRequestSchema)
      .max(CART_LIMITS.maxLines)
      .optional()
      .describe("Lines to buy: at least one, unless cart_id is given (then ignored; cart.md sends [])."),
    cart_id: z.string().max(200).optional().describe("Create from this cart: its lines, context and buyer win."),
    ...common,
  })
  // UCP: line_items is required on create; the cart capability adds cart_id as the alternative.
  .refine((c) => c.cart_id !== undefined || (c.line_items?.length ?? 0) > 0, {
    path: ["line_items"],
    message: "line_items is required (at least one line) unless cart_id is given",
  })
  .meta({
    anyOf: [{ required: ["line_items"], properties: { line_items: { minItems: 1 } } }, { required: ["cart_id"] }],
  })
  .describe("A checkout to create: line_items or cart_id.");
export type CheckoutCreate = z.infer<typeof CheckoutCreateSchema>;

export const CheckoutUpdateSchema = z
  .looseObject({
    line_items: z.array(LineItemRequestSchema).max(CART_LIMITS.maxLines).describe("All lines (full replacement)."),
    ...common,
  })
  .describe("The whole checkout as the platform wants it (full replacement).");
export type CheckoutUpdate = z.infer<typeof CheckoutUpdateSchema>;

export const CheckoutCompleteSchema = z
  .looseObject({
    payment: z
      .looseObject({
        instruments: z.array(PaymentInstrumentSchema).min(1).max(10).describe("Payment instruments (2026-08-25: one)."),
      })
      .describe("How the buyer pays."),
    signals: SignalsSchema.optional(),
    attribution: AttributionSchema.optional(),
  })
  .describe("Completion: the payment.");
export type CheckoutComplete = z.infer<typeof CheckoutCompleteSchema>;

const HandlerEntry = z.looseObject({
  id: z.string().describe("Handler instance id."),
  version: z.string().describe("Handler version."),
});

export const CheckoutSchema = z
  .object({
    ucp: ResponseUcpSchema.extend({
      payment_handlers: z.record(z.string(), z.array(HandlerEntry)).describe("Payment handlers for this checkout."),
    }).describe("UCP metadata, with the payment handlers for this checkout."),
    id: z.string().describe("Checkout id."),
    status: z
      .enum([
        "incomplete",
        "requires_escalation",
        "ready_for_complete",
        "complete_in_progress",
        "completed",
        "canceled",
      ])
      .describe("Checkout status."),
    line_items: z.array(LineItemSchema).describe("Priced lines."),
    currency: CurrencySchema.describe("Currency of every amount."),
    totals: z.array(TotalSchema).describe("Totals: exactly one subtotal and one total."),
    links: z
      .array(z.looseObject({ type: z.string().describe("Link type."), url: z.url().describe("URL.") }))
      .describe("Policy links."),
    buyer: CheckoutBuyerSchema.optional(),
    context: ContextSchema.optional(),
    messages: z.array(MessageSchema).optional().describe("What is missing or wrong."),
    actions: z
      .record(z.string(), z.array(z.looseObject({ id: z.string().describe("Action id.") })))
      .optional()
      .describe("2026-08-25: outstanding Actions, e.g. dev.ucp.payment.three_ds_challenge."),
    expires_at: z.string().optional().describe("When the session expires (RFC 3339)."),
    continue_url: z.url().optional().describe("Where a human can continue."),
    payment: z.looseObject({}).optional().describe("Payment instruments (credentials never echoed)."),
    order: z
      .object({ id: z.string().describe("Order id."), permalink_url: z.url().describe("Order page.") })
      .optional()
      .describe("The placed order."),
    fulfillment: z.looseObject({}).optional().describe("Fulfillment methods, groups and options."),
    discounts: z.looseObject({}).optional().describe("Codes and applied discounts."),
  })
  .describe("A checkout session.");
