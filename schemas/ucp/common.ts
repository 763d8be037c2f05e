/**
 * Zod schemas of UCP types shared by every capability (2026-04-08). One source for input
 * validation, TypeScript types and the JSON Schema published in tools/list.
 */
import * as z from "zod";

export const CurrencySchema = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .describe("ISO 4217 currency code, e.g. USD.");

export const AmountSchema = z
  .number()
  .int()
  .min(0)
  .max(Number.MAX_SAFE_INTEGER)
  .describe("Integer amount in ISO 4217 minor units (5000 = $50.00).");

export const PriceSchema = z
  .object({
    amount: AmountSchema,
    currency: CurrencySchema,
  })
  .describe("A price: amount in minor units and its currency.");
export type Price = z.infer<typeof PriceSchema>;

export const PriceRangeSchema = z
  .object({
    min: PriceSchema.describe("Lowest variant price."),
    max: PriceSchema.describe("Highest variant price."),
  })
  .describe("Price range across variants.");

export const DescriptionSchema = z
  .object({
    plain: z.string().optional().describe("Plain-text description."),
    html: z.string().optional().describe("HTML description; platforms must sanitize before rendering."),
    markdown: z.string().optional().describe("Markdown description."),
  })
  .refine((d) => d.plain !== undefined || d.html !== undefined || d.markdown !== undefined, {
    message: "A description needs at least one of plain, html, markdown",
  })
  .describe("Text in one or more formats.");

export const ContextSchema = z
  .looseObject({
    address_country: z.string().max(64).optional().describe("Buyer's country (ISO 3166-1 alpha-2)."),
    address_region: z.string().max(64).optional().describe("Buyer's region or state."),
    postal_code: z.string().max(32).optional().describe("Buyer's postal code."),
    intent: z.string().max(2000).optional().describe("The buyer's goal, in their words."),
    language: z.string().max(35).optional().describe("Preferred language (BCP 47)."),
    currency: z.string().max(3).optional().describe("Preferred presentment currency (ISO 4217)."),
    eligibility: z.array(z.string().max(200)).max(50).optional().describe("Eligibility claims (reverse-domain names)."),
  })
  .describe("Buyer context hints; not authoritative.");

export const SignalsSchema = z.record(z.string(), z.unknown()).describe("Risk signals, keyed by reverse-domain name.");
export const AttributionSchema = z
  .record(z.string(), z.unknown())
  .describe("Attribution data; never affects the response.");

const MessageBase = {
  path: z.string().optional().describe("JSONPath to the field the message is about."),
  content_type: z.enum(["plain", "markdown"]).optional().describe("Format of content (default plain)."),
  content: z.string().describe("Human-readable message."),
};

export const MessageInfoSchema = z
  .object({
    type: z.literal("info").describe("Informational message."),
    code: z.string().optional().describe("Info code, e.g. not_found."),
    ...MessageBase,
  })
  .describe("An informational message.");

export const MessageWarningSchema = z
  .object({
    type: z.literal("warning").describe("Warning message."),
    code: z.string().describe("Warning code."),
    presentation: z.string().optional().describe("How to present it: notice (default) or disclosure."),
    ...MessageBase,
  })
  .describe("A warning the buyer should see.");

export const SeveritySchema = z
  .enum(["recoverable", "requires_buyer_input", "requires_buyer_review", "unrecoverable"])
  .describe("Who can resolve the error.");

export const MessageErrorSchema = z
  .object({
    type: z.literal("error").describe("Error message."),
    code: z.string().describe("Error code, e.g. not_found, out_of_stock."),
    severity: SeveritySchema,
    ...MessageBase,
  })
  .describe("An error in a business outcome.");

export const MessageSchema = z
  .discriminatedUnion("type", [MessageErrorSchema, MessageWarningSchema, MessageInfoSchema])
  .describe("A UCP message.");
export type Message = z.infer<typeof MessageSchema>;

const VersionedEntry = z.array(z.looseObject({ version: z.string().describe("Negotiated version.") }));

export const ResponseUcpSchema = z
  .object({
    version: z.string().describe("Protocol version used to process the request."),
    status: z.enum(["success", "error"]).describe("success: the body carries the resource; error: an error response."),
    capabilities: z
      .record(z.string(), VersionedEntry)
      .optional()
      .describe("Negotiated capabilities relevant to this response."),
  })
  .describe("UCP response metadata.");
export type ResponseUcp = z.infer<typeof ResponseUcpSchema>;

export const ErrorResponseSchema = z
  .object({
    ucp: ResponseUcpSchema,
    messages: z.array(MessageSchema).min(1).describe("Why no resource could be returned."),
    continue_url: z.url().optional().describe("Where a human can continue."),
  })
  .describe("Error response: no resource exists to return (ucp.status = error).");
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;
