/** The checkout tools (dev.ucp.shopping.checkout): create, get, update, complete, cancel. */
import * as z from "zod";
import type { CartCheckoutCommand } from "../../durable-objects/cart/checkout";
import type { CartObject } from "../../durable-objects/cart-object";
import type { CheckoutObject, CheckoutWrite } from "../../durable-objects/checkout-object";
import type { ObjectReply } from "../../durable-objects/shared/object-reply";
import {
  CheckoutCompleteSchema,
  type CheckoutCreate,
  CheckoutCreateSchema,
  CheckoutSchema,
  type CheckoutUpdate,
  CheckoutUpdateSchema,
} from "../../schemas/ucp/checkout";
import { priceFromCatalog } from "../cart/pricing";
import type { CheckoutEnvelope } from "../checkout/checkout-state";
import { commerceConfig } from "../checkout/merchant-commerce";
import { instrumentCardinality, sentCheckout } from "../checkout/request-args";
import { derivedId, isIssuedId, keySpace, newId, ownSpace } from "../lib/ids";
import { callObject } from "../lib/object-call";
import { err, ok } from "../lib/result";
import type { HandlerRegistry } from "../payment/handlers";
import { instrumentTypeProblem } from "../payment/instrument-check";
import { handlerIds, paymentHandlers, processorFor } from "../payment/store-processor";
import { CAPABILITY } from "../ucp/capabilities";
import { checkoutEmbeddedServices } from "../ucp/embedded";
import { invalidParams } from "../ucp/errors";
import type { MessageCode } from "../ucp/message-codes";
import { checkoutExtensions } from "../ucp/negotiate";
import { handlersForPlatform } from "../ucp/platform-handlers";
import { paymentsNotConfigured, withPaymentMode } from "./checkout-payments";
import { callerOf, continueUrl, ledgerEntry, ledgerSeed, objectReply } from "./object-reply";
import { defineTool, type ToolContext, type UcpEnvelope, type UcpPayload } from "./types";

const CHECKOUT_TTL_MS = 6 * 3600_000;
const IdSchema = z.string().min(1).max(200).describe("The checkout id returned by create_checkout.");

export const createCheckout = defineTool({
  name: "create_checkout",
  description:
    "Start a checkout from line items or from a cart (checkout.cart_id). Prices, shipping options, discounts and tax come from the merchant; messages say what is still needed (buyer email, shipping address) before status is ready_for_complete.",
  capability: CAPABILITY.checkout,
  idempotencyKeyRequired: false,
  input: z.object({ checkout: CheckoutCreateSchema }),
  output: CheckoutSchema,
  async run(args, ctx) {
    const { checkout } = args;
    const wrongType = instrumentTypeProblem(ctx.config, checkout.payment?.instruments);
    if (wrongType) return err(wrongType);
    const source = checkout.cart_id ? await fromCart(checkout.cart_id, ctx) : undefined;
    if (checkout.cart_id && !source) return ok(cartNotFound(ctx));
    const request = source ? { ...checkout, ...source } : checkout;
    const input = await checkoutInput(request, ctx);
    if ((request.line_items ?? []).length > 0 && input.lines.length === 0) {
      return ok(errorResponse(ctx, "out_of_stock", "None of the requested items can be bought.", input.lineMessages));
    }
    const key = ctx.meta.idempotencyKey;
    const sent = sentCheckout(args, checkout);
    const made = {
      input,
      ownerWebhookUrl: orderWebhookUrl(ctx),
      ownerWebhookVersion: ctx.negotiated.version,
      base: {
        currency: ctx.config.currency,
        created_at: ctx.now,
        expires_at: ctx.now + CHECKOUT_TTL_MS,
        ...(checkout.cart_id ? { cart_id: checkout.cart_id } : {}),
      },
    };
    if (checkout.cart_id) return checkoutOfCart(ctx, checkout.cart_id, sent, made);
    // Here, not only in writeCommand: createAt runs inside reply(), which answers any failure as
    // the object being unavailable, and a store whose settings do not parse is store_misconfigured.
    commerceConfig(ctx.env);
    const { idSecret } = ctx.config;
    const createAt = async (id: string) => {
      const entry = key && (await ledgerEntry("create_checkout", key, id, sent, idSecret));
      const command = { ...made, ...(await writeCommand(ctx, id, input, entry)), base: { ...made.base, id } };
      return stub(ctx, id).create(command);
    };
    if (!key) return reply(ctx, async () => createAt(await newId("chk", idSecret)));
    const space = keySpace(callerOf(ctx));
    return reply(ctx, async () => {
      const first = await createAt(await derivedId("chk", idSecret, space, key));
      // An anonymous session from before the key spaces split sits at this id (shared/owner.ts
      // claimOwner), or the order a session past its retention placed there (checkout-object.ts create).
      return first.kind === "taken" ? createAt(await derivedId("chk", idSecret, ownSpace(space), key)) : first;
    });
  },
});

export const getCheckout = defineTool({
  name: "get_checkout",
  description: "Get a checkout's current state. An unknown id is a not_found result.",
  capability: CAPABILITY.checkout,
  idempotencyKeyRequired: false,
  input: z.object({ id: IdSchema }),
  output: CheckoutSchema,
  async run({ id }, ctx) {
    if (!(await isIssuedId("chk", ctx.config.idSecret, id))) return ok(notFound(ctx));
    const shown = await view(ctx, id);
    return reply(ctx, () => stub(ctx, id).read(shown));
  },
});

export const updateCheckout = defineTool({
  name: "update_checkout",
  description:
    "Replace a checkout's lines, buyer, fulfillment choices and discount codes (send the whole checkout; fulfillment and discounts left out are kept). Completed and canceled checkouts cannot change.",
  capability: CAPABILITY.checkout,
  idempotencyKeyRequired: false,
  input: z.object({ id: IdSchema, checkout: CheckoutUpdateSchema }),
  output: CheckoutSchema,
  async run(args, ctx) {
    const { id, checkout } = args;
    if (typeof checkout.id === "string" && checkout.id !== id) {
      return err(invalidParams("checkout.id must be omitted or equal the top-level id", { path: "$.checkout.id" }));
    }
    const wrongType = instrumentTypeProblem(ctx.config, checkout.payment?.instruments);
    if (wrongType) return err(wrongType);
    if (!(await isIssuedId("chk", ctx.config.idSecret, id))) return ok(notFound(ctx));
    const key = ctx.meta.idempotencyKey;
    const input = await checkoutInput(checkout, ctx);
    const command = await writeCommand(
      ctx,
      id,
      input,
      key && (await ledgerEntry("update_checkout", key, id, sentCheckout(args, checkout), ctx.config.idSecret)),
    );
    return reply(ctx, () => stub(ctx, id).update(command));
  },
});

export const completeCheckout = defineTool({
  name: "complete_checkout",
  description:
    "Place the order: pays with checkout.payment.instruments (a handler from ucp.payment_handlers) and returns the checkout with status completed and order {id, permalink_url}. Requires meta.idempotency-key; a retry with the same key returns the same result and never charges twice.",
  capability: CAPABILITY.checkout,
  idempotencyKeyRequired: true,
  input: z.object({ id: IdSchema, checkout: CheckoutCompleteSchema }),
  output: CheckoutSchema,
  async run(args, ctx) {
    const { id, checkout } = args;
    const wrongType = instrumentTypeProblem(ctx.config, checkout.payment.instruments);
    if (wrongType) return err(wrongType);
    if (!(await isIssuedId("chk", ctx.config.idSecret, id))) return ok(notFound(ctx));
    const key = ctx.meta.idempotencyKey ?? "";
    const idempotency = await ledgerEntry(
      "complete_checkout",
      key,
      id,
      sentCheckout(args, checkout),
      ctx.config.idSecret,
    );
    const processor = processorFor(ctx.config);
    const shown = await view(ctx, id);
    if (!processor) return reply(ctx, () => paymentsNotConfigured(stub(ctx, id), shown));
    // One call: the checkout object owns the completion (reserve, charge, order, recovery).
    const command = {
      ...shown,
      idempotency,
      request: checkout,
      handlerIds: handlerIds(platformHandlers(ctx, processor.handlers(ctx.config.origin))),
      owner: ctx.meta.profile,
      webhookUrl: orderWebhookUrl(ctx),
      // The order's webhooks speak the version of the profile that asked for them (data, not a branch).
      webhookVersion: ctx.negotiated.version,
      instrumentCardinality: instrumentCardinality(args),
      ...paymentActions(ctx),
    };
    return reply(ctx, () => stub(ctx, id).complete(command));
  },
});

export const cancelCheckout = defineTool({
  name: "cancel_checkout",
  description: "Cancel an open checkout. Requires meta.idempotency-key. Completed checkouts cannot be canceled here.",
  capability: CAPABILITY.checkout,
  idempotencyKeyRequired: true,
  input: z.object({ id: IdSchema }),
  output: CheckoutSchema,
  async run({ id }, ctx) {
    if (!(await isIssuedId("chk", ctx.config.idSecret, id))) return ok(notFound(ctx));
    const idempotency = await ledgerEntry(
      "cancel_checkout",
      ctx.meta.idempotencyKey ?? "",
      id,
      null,
      ctx.config.idSecret,
    );
    const shown = await view(ctx, id);
    return reply(ctx, () => stub(ctx, id).cancel({ ...shown, idempotency }));
  },
});

/** Where the calling platform wants its order webhooks (its profile's order config), if it negotiated orders. */
function orderWebhookUrl(ctx: ToolContext): string | undefined {
  return ctx.negotiated.active.has(CAPABILITY.order) ? ctx.negotiated.orderWebhookUrl : undefined;
}

/**
 * A platform that negotiated payment_authentication is shown a verification as a checkout
 * Action (src/checkout/payment-verification.ts), at the version it negotiated.
 */
function paymentActions(ctx: ToolContext): { paymentActions?: { version: string } } {
  const entry = ctx.negotiated.active.get(CAPABILITY.paymentAuthentication);
  return entry ? { paymentActions: { version: entry.version } } : {};
}

/** Only the handlers (and instrument types) the platform's profile declares, when it declares any. */
function platformHandlers(ctx: ToolContext, store: HandlerRegistry): HandlerRegistry {
  return handlersForPlatform(store, ctx.negotiated.platformHandlers);
}

function stub(ctx: ToolContext, id: string) {
  return ctx.env.CHECKOUT.getByName(id) as DurableObjectStub<CheckoutObject>;
}

function cartStub(ctx: ToolContext, id: string) {
  return ctx.env.CART.getByName(id) as DurableObjectStub<CartObject>;
}

/** `services`: the embedded binding (ECP), which the object keeps only for an authenticated owner (src/ucp/embedded.ts). */
function envelope(ctx: ToolContext): CheckoutEnvelope {
  const base = ctx.envelope();
  return {
    ...base,
    status: "success",
    services: checkoutEmbeddedServices(base.version),
    payment_handlers: platformHandlers(ctx, paymentHandlers(ctx.config)),
  };
}

async function view(ctx: ToolContext, id: string) {
  return { envelope: envelope(ctx), continueUrl: await continueUrl(ctx, "checkout", id), caller: callerOf(ctx) };
}

/**
 * The cart's one checkout, decided and made by the cart object in one call
 * (durable-objects/cart/checkout.ts): one open checkout per cart and key space, returned
 * again to every create; a buyer on the cart's hand-off page acts for the cart's owner. A
 * completed checkout closes the cart: one cart places at most one order (issue 10).
 */
async function checkoutOfCart(
  ctx: ToolContext,
  cartId: string,
  sent: unknown,
  made: Pick<CartCheckoutCommand, "input" | "base" | "ownerWebhookUrl" | "ownerWebhookVersion">,
) {
  commerceConfig(ctx.env); // as writeCommand: a store whose settings do not parse is refused before any object
  const key = ctx.meta.idempotencyKey;
  const command: CartCheckoutCommand = {
    ...made,
    cartId,
    caller: callerOf(ctx),
    now: ctx.now,
    envelope: envelope(ctx),
    ...(key ? { idempotency: await ledgerSeed("create_checkout", key, sent, ctx.config.idSecret) } : {}),
  };
  let ordered: string | undefined;
  return objectReply(
    async () => {
      const answer = await cartStub(ctx, cartId).checkout(command);
      if (answer.kind !== "ordered") return withPaymentMode(ctx.config, async () => answer);
      ordered = answer.checkoutId;
      return { kind: "not_found" };
    },
    () => (ordered ? cartOrdered(ctx, ordered) : cartNotFound(ctx)),
  );
}

function cartNotFound(ctx: ToolContext): UcpPayload {
  return errorResponse(ctx, "not_found", "Cart not found or has expired");
}

/** An agent retrying after a timeout must not place the order twice: it is told where the order is. */
function cartOrdered(ctx: ToolContext, checkoutId: string): UcpPayload {
  return errorResponse(
    ctx,
    "invalid_state",
    `This cart was already ordered: its checkout ${checkoutId} is completed and holds the order. Read it with get_checkout; to order again, create a new cart.`,
  );
}

/** The cart's lines, context and buyer (UCP: the cart's contents win over the request's). */
async function fromCart(cartId: string, ctx: ToolContext): Promise<Partial<CheckoutCreate> | undefined> {
  if (!(await isIssuedId("cart", ctx.config.idSecret, cartId))) return undefined;
  const caller = callerOf(ctx);
  const read = await callObject<Awaited<ReturnType<CartObject["read"]>>>(async () =>
    cartStub(ctx, cartId).read({ envelope: ctx.envelope(), continueUrl: "", caller }),
  );
  if (read.kind !== "ok") return undefined;
  const body = JSON.parse(read.body) as CheckoutCreate;
  return {
    line_items: (body.line_items ?? []).map((l) => ({ item: { id: l.item.id }, quantity: l.quantity })),
    ...(body.context ? { context: body.context } : {}),
    ...(body.buyer ? { buyer: body.buyer } : {}),
    // UCP discount: codes applied on the cart MUST carry into the checkout.
    ...(body.discounts?.codes ? { discounts: { codes: body.discounts.codes } } : {}),
  };
}

async function checkoutInput(request: CheckoutCreate | CheckoutUpdate, ctx: ToolContext) {
  const { lines, messages } = await priceFromCatalog(ctx.env, ctx.now, request.line_items ?? []);
  return {
    lines,
    lineMessages: messages,
    buyer: request.buyer,
    context: request.context,
    fulfillment: request.fulfillment,
    discountCodes: request.discounts?.codes,
    instruments: request.payment?.instruments,
    extensions: checkoutExtensions(ctx.negotiated.active),
  };
}

async function writeCommand(
  ctx: ToolContext,
  id: string,
  input: CheckoutWrite["input"],
  idempotency: CheckoutWrite["idempotency"] | "" | undefined,
): Promise<CheckoutWrite> {
  // A store whose settings do not parse is refused here, before the object is asked; the object
  // prices with the same settings, read from its own env (nothing of it crosses the RPC).
  commerceConfig(ctx.env);
  return { ...(await view(ctx, id)), input, idempotency: idempotency || undefined };
}

function reply(ctx: ToolContext, call: () => Promise<ObjectReply>) {
  return objectReply(
    () => withPaymentMode(ctx.config, call),
    () => notFound(ctx),
  );
}

function notFound(ctx: ToolContext): UcpPayload {
  return errorResponse(ctx, "not_found", "Checkout not found");
}

function errorResponse(
  ctx: ToolContext,
  code: MessageCode,
  content: string,
  extra: ReadonlyArray<object> = [],
): UcpPayload {
  return {
    ucp: {
      ...ctx.envelope("error"),
      payment_handlers: platformHandlers(ctx, paymentHandlers(ctx.config)),
    } as UcpEnvelope,
    messages: [{ type: "error", code, content, severity: "unrecoverable" }, ...extra],
    continue_url: `${ctx.config.origin}/`,
  } as UcpPayload;
}
