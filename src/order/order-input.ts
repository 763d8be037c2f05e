/**
 * What a merchant may record on an order: a fulfillment event or an adjustment (the admin
 * endpoint's request bodies). Parsed once at the edge; past it the inputs are typed.
 * Unknown fields are refused, so a typo ("traking_url") is a 400, not a silent omission.
 */
import * as z from "zod";

const MAX_LINES = 100;

const LineId = z.string().min(1).max(200).describe("A line item id of the order (li_...).");

// Open strings in UCP; kept to a conservative token shape so they read well in any UI.
const EventType = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/, "must be a lower_snake_case word, e.g. shipped")
  .describe("shipped, in_transit, delivered, canceled, failed_attempt, ...");

const Text = (max: number) => z.string().min(1).max(max);

export const FulfillmentEventInputSchema = z
  .strictObject({
    type: EventType,
    line_items: z
      .array(z.strictObject({ id: LineId, quantity: z.number().int().min(1).max(1_000_000) }))
      .min(1)
      .max(MAX_LINES)
      .optional()
      .describe("Lines and units this event covers; default: every line's remaining units."),
    tracking_number: Text(200).optional(),
    tracking_url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .optional(),
    carrier: Text(200).optional(),
    description: Text(1000).optional(),
  })
  .describe("A fulfillment event to append.");
export type FulfillmentEventInput = z.infer<typeof FulfillmentEventInputSchema>;

export const AdjustmentInputSchema = z
  .strictObject({
    type: EventType.describe("refund, cancellation, return, credit, price_adjustment, dispute, ..."),
    line_items: z
      .array(
        z.strictObject({
          id: LineId,
          quantity: z
            .number()
            .int()
            .min(-1_000_000)
            .max(1_000_000)
            .refine((q) => q !== 0, "must not be 0"),
        }),
      )
      .min(1)
      .max(MAX_LINES)
      .optional()
      .describe("Signed units affected (negative = reduction); a cancellation defaults to every unshipped unit."),
    amount: z
      .number()
      .int()
      .min(0)
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .describe("Money back to the buyer, positive minor units."),
    description: Text(1000).optional(),
    restock: z
      .boolean()
      .optional()
      .describe("A refund by line: put the refunded units back in stock (once; never more than were sold)."),
  })
  .describe("An adjustment to append.");
export type AdjustmentInput = z.infer<typeof AdjustmentInputSchema>;
