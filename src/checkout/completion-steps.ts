/**
 * Step 2 of completion, between the Checkout object's two transactions: reserve the stock,
 * charge, place the order. Each step is idempotent per (checkout, idempotency key), so a
 * retry after a crash repeats nothing that already happened.
 */
import type { InventoryObject } from "../../durable-objects/inventory-object";
import type { OrderObject } from "../../durable-objects/order-object";
import { INVENTORY_NAME, stockVersion } from "../../durable-objects/shared/inventory-plan";
import { catalogSnapshot } from "../catalog/kv-catalog";
import { stockLevels } from "../catalog/stock";
import type { MerchantConfig } from "../config";
import { derivedId } from "../lib/ids";
import { orderFromCheckout } from "../order/order-state";
import type { PaymentProcessor } from "../payment/processor";
import type { CheckoutState } from "./checkout-state";
import type { CompletionOutcome, CompletionPlan } from "./completion";

export interface CompletionContext {
  readonly env: Env;
  readonly config: MerchantConfig;
  readonly processor: PaymentProcessor;
  readonly owner: string;
  /** Where order webhooks go: the placing platform's profile said so (order capability config). */
  readonly webhookUrl?: string;
  readonly now: number;
}

export async function runCompletion(
  checkout: CheckoutState,
  plan: CompletionPlan,
  attempt: string,
  ctx: CompletionContext,
): Promise<CompletionOutcome> {
  const attemptId = `${checkout.id}:${attempt}`;
  const inventory = ctx.env.INVENTORY.getByName(INVENTORY_NAME) as DurableObjectStub<InventoryObject>;
  const snapshot = await catalogSnapshot(ctx.env.CATALOG, ctx.now);
  const stock = snapshot ? await stockLevels(ctx.env.CATALOG, snapshot) : {};
  // Variants without a stock figure (backorder, preorder, or none loaded) are not limited.
  const levels = Object.fromEntries(plan.lines.map((l) => [l.variantId, stock[l.variantId] ?? null]));
  const version = snapshot ? stockVersion(snapshot.manifest) : "1970-01-01T00:00:00.000Z/none";
  const held = await inventory.reserve(attemptId, [...plan.lines], levels, version);
  if (!held.ok) {
    if (held.reason === "out_of_stock") {
      return {
        kind: "out_of_stock",
        variants: held.short.map((s) => ({ variantId: s.variantId, available: s.available })),
      };
    }
    throw new Error(`inventory refused the reservation: ${held.reason}`);
  }
  const charge = await ctx.processor.charge({
    idempotencyKey: attemptId,
    amount: plan.amount,
    currency: plan.currency,
    handlerId: plan.instrument.handler_id,
    credential: plan.instrument.credential ?? { type: "none" },
  });
  if (charge.kind !== "captured") {
    // Not charged: the units go back.
    await inventory.release(attemptId);
    return charge.kind === "declined"
      ? { kind: "declined", reason: charge.reason, instrumentPath: plan.instrumentPath }
      : { kind: "requires_action", reason: charge.reason };
  }
  const orderId = await derivedId("ord", ctx.config.idSecret, checkout.id);
  const permalink = `${ctx.config.origin}/orders/${orderId}`;
  // The order keeps what a merchant cancellation must undo: this reservation and this charge.
  const ids = { orderId, permalink, reservationId: attemptId, chargeId: charge.chargeId, webhookUrl: ctx.webhookUrl };
  const order = orderFromCheckout(checkout, ids, ctx.owner, ctx.now);
  await (ctx.env.ORDER.getByName(orderId) as DurableObjectStub<OrderObject>).create(order);
  return { kind: "completed", order: { id: orderId, permalink_url: permalink } };
}
