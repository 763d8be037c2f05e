/** The cart tools: create_cart, get_cart, update_cart, cancel_cart (dev.ucp.shopping.cart). */
import * as z from "zod";
import type { CartCommand } from "../../durable-objects/cart-object";
import type { ObjectReply } from "../../durable-objects/shared/object-reply";
import { type CartRequest, CartRequestSchema, CartSchema } from "../../schemas/ucp/cart";
import type { Message } from "../../schemas/ucp/common";
import { cartNotFound } from "../cart/cart-view";
import { priceFromCatalog } from "../cart/pricing";
import { commerceConfig } from "../checkout/merchant-commerce";
import { derivedId, isIssuedId, keySpace, newId, ownSpace } from "../lib/ids";
import { err, ok } from "../lib/result";
import { CAPABILITY } from "../ucp/capabilities";
import { invalidParams } from "../ucp/errors";
import { callerOf, continueUrl, ledgerEntry, objectReply } from "./object-reply";
import { defineTool, type ToolContext, type UcpPayload } from "./types";

const CartIdSchema = z.string().min(1).max(200).describe("The cart id returned by create_cart.");

export const createCart = defineTool({
  name: "create_cart",
  description:
    "Create a cart from line items (variant ids, or product ids for their default variant, with quantities). Titles and prices come from the catalog; unknown or unavailable items and quantities above stock are reported in messages. Send meta.idempotency-key to make retries safe.",
  capability: CAPABILITY.cart,
  idempotencyKeyRequired: false,
  input: z.object({ cart: CartRequestSchema }),
  output: CartSchema,
  async run({ cart }, ctx) {
    const priced = await priceCart(cart, ctx);
    if (cart.line_items.length > 0 && priced.content.lines.length === 0) {
      // Nothing in the request can be bought: no cart is created (cart.md §Create).
      return ok({
        ucp: ctx.envelope("error"),
        messages: priced.messages.map((m) => (m.type === "error" ? { ...m, severity: "unrecoverable" as const } : m)),
        continue_url: `${ctx.config.origin}/`,
      });
    }
    const key = ctx.meta.idempotencyKey;
    const { idSecret } = ctx.config;
    const createAt = async (cartId: string) => {
      const entry = key && (await ledgerEntry("create_cart", key, cartId, cart, idSecret));
      const command = await cartCommand(ctx, cartId, priced, entry);
      return ctx.env.CART.getByName(cartId).create(command);
    };
    if (!key) return reply(ctx, async () => createAt(await newId("cart", idSecret)));
    const space = keySpace(callerOf(ctx));
    return reply(ctx, async () => {
      const made = await createAt(await derivedId("cart", idSecret, space, key));
      // An anonymous cart from before the key spaces split sits at this id (shared/owner.ts claimOwner).
      return made.kind === "taken" ? createAt(await derivedId("cart", idSecret, ownSpace(space), key)) : made;
    });
  },
});

export const getCart = defineTool({
  name: "get_cart",
  description: "Get a cart by id. A cart that never existed, expired or was canceled is a not_found result.",
  capability: CAPABILITY.cart,
  idempotencyKeyRequired: false,
  input: z.object({ id: CartIdSchema }),
  output: CartSchema,
  async run({ id }, ctx) {
    if (!(await isIssuedId("cart", ctx.config.idSecret, id))) return ok(notFound(ctx));
    const view = { envelope: ctx.envelope(), continueUrl: await continueUrl(ctx, "cart", id), caller: callerOf(ctx) };
    return reply(ctx, () => ctx.env.CART.getByName(id).read(view));
  },
});

export const updateCart = defineTool({
  name: "update_cart",
  description:
    "Replace a cart's contents: send the whole cart (all line items; a line's id keeps that line). Prices are re-read from the catalog. Send meta.idempotency-key to make retries safe.",
  capability: CAPABILITY.cart,
  idempotencyKeyRequired: false,
  input: z.object({ id: CartIdSchema, cart: CartRequestSchema }),
  output: CartSchema,
  async run({ id, cart }, ctx) {
    if (typeof cart.id === "string" && cart.id !== id) {
      return err(invalidParams("cart.id must be omitted or equal the top-level id", { path: "$.cart.id" }));
    }
    if (!(await isIssuedId("cart", ctx.config.idSecret, id))) return ok(notFound(ctx));
    const priced = await priceCart(cart, ctx);
    const key = ctx.meta.idempotencyKey;
    const command = await cartCommand(
      ctx,
      id,
      priced,
      key && (await ledgerEntry("update_cart", key, id, cart, ctx.config.idSecret)),
    );
    return reply(ctx, () => ctx.env.CART.getByName(id).update(command));
  },
});

export const cancelCart = defineTool({
  name: "cancel_cart",
  description:
    "Cancel a cart: returns the cart as it was, after which the id is not_found. Requires meta.idempotency-key.",
  capability: CAPABILITY.cart,
  idempotencyKeyRequired: true,
  input: z.object({ id: CartIdSchema }),
  output: CartSchema,
  async run({ id }, ctx) {
    if (!(await isIssuedId("cart", ctx.config.idSecret, id))) return ok(notFound(ctx));
    const key = ctx.meta.idempotencyKey ?? "";
    const command = {
      envelope: ctx.envelope(),
      continueUrl: await continueUrl(ctx, "cart", id),
      caller: callerOf(ctx),
      idempotency: await ledgerEntry("cancel_cart", key, id, null, ctx.config.idSecret),
    };
    return reply(ctx, () => ctx.env.CART.getByName(id).cancel(command));
  },
});

async function priceCart(cart: CartRequest, ctx: ToolContext) {
  const { lines, messages } = await priceFromCatalog(ctx.env, ctx.now, cart.line_items);
  const requested = cart.context?.currency?.toUpperCase();
  if (requested && requested !== ctx.config.currency) {
    messages.push({
      type: "info",
      code: "currency_unavailable",
      path: "$.context.currency",
      content: `Prices are in ${ctx.config.currency}; ${requested} is not offered.`,
    });
  }
  const content = {
    lines,
    ...(cart.context ? { context: cart.context } : {}),
    ...(cart.buyer ? { buyer: cart.buyer } : {}),
    // Codes are ignored, not refused, when the platform did not negotiate the discount extension.
    ...(cart.discounts?.codes && ctx.negotiated.active.has(CAPABILITY.discount)
      ? { discountCodes: cart.discounts.codes }
      : {}),
  };
  return { content, messages };
}

async function cartCommand(
  ctx: ToolContext,
  cartId: string,
  priced: { content: CartCommand["content"]; messages: Message[] },
  idempotency: CartCommand["idempotency"] | "" | undefined,
): Promise<CartCommand> {
  return {
    cartId,
    envelope: ctx.envelope(),
    continueUrl: await continueUrl(ctx, "cart", cartId),
    caller: callerOf(ctx),
    currency: ctx.config.currency,
    content: priced.content,
    messages: priced.messages,
    ttlMs: ctx.config.cartTtlMs,
    config: commerceConfig(ctx.env),
    idempotency: idempotency || undefined,
  };
}

function reply(ctx: ToolContext, call: () => Promise<ObjectReply>) {
  return objectReply(call, () => notFound(ctx));
}

function notFound(ctx: ToolContext): UcpPayload {
  return cartNotFound(ctx.envelope(), ctx.config.origin) as UcpPayload;
}
