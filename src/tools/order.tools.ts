/** get_order (dev.ucp.shopping.order): the order as it is now, for the platform that placed it. */
import * as z from "zod";
import { ok } from "../lib/result";
import { CAPABILITY } from "../ucp/capabilities";
import type { MessageCode } from "../ucp/message-codes";
import { objectReply } from "./object-reply";
import { orderStub } from "./order-stub";
import { defineTool, type ToolContext, type UcpPayload } from "./types";

const OrderSchema = z
  .looseObject({
    ucp: z.looseObject({ version: z.string().describe("Protocol version.") }).describe("UCP metadata."),
    id: z.string().describe("Order id."),
    checkout_id: z.string().describe("The checkout that placed it."),
    permalink_url: z.string().describe("The order's page."),
    line_items: z.array(z.looseObject({})).describe("Every line the order ever had."),
    fulfillment: z.looseObject({}).describe("Expectations and events."),
    currency: z.string().describe("Currency of every amount."),
    totals: z.array(z.looseObject({})).describe("Totals."),
  })
  .describe("An order.");

export const getOrder = defineTool({
  name: "get_order",
  description:
    "Get an order placed by your platform: lines with fulfilled quantities, fulfillment expectations and events, adjustments, totals.",
  capability: CAPABILITY.order,
  idempotencyKeyRequired: false,
  input: z.object({ id: z.string().min(1).max(200).describe("The order id from complete_checkout.") }),
  output: OrderSchema,
  async run({ id }, ctx) {
    const notFound = () => outcome(ctx, "not_found", "Order not found.");
    const order = await orderStub(ctx.env, ctx.config.idSecret, id);
    if (!order) return ok(notFound());
    // Unlike a session, an order tells another platform it is not theirs (seed 003).
    return objectReply(
      () => order.read(ctx.meta.profile, ctx.envelope(), ctx.handoff === true),
      notFound,
      () => outcome(ctx, "unauthorized", "Not authorized to access this order."),
    );
  },
});

function outcome(ctx: ToolContext, code: MessageCode, content: string): UcpPayload {
  return { ucp: ctx.envelope("error"), messages: [{ type: "error", code, content, severity: "unrecoverable" }] };
}
