/**
 * `/cart/<token>` (the cart's continue_url) and `POST /cart` (add to cart from a product
 * page). Every change is the agent's cart tool run for the buyer (update_cart replaces the
 * whole cart, as it does for agents), and "Check out" is create_checkout with the cart's id:
 * the cart's one checkout (checkout.tools.ts), handed on only while it holds nobody's data or
 * to the browser it went to before (cart-checkout-handoff.ts); anyone else may copy the cart.
 */
import { translator } from "../i18n/translate";
import { derivedId, keySpace } from "../lib/ids";
import { type BuyerCallFailure, callAsBuyer, errorMessages, storefrontProfile, type ToolPayload } from "./buyer-tools";
import { handedCookie, mayHandOver } from "./cart-checkout-handoff";
import { cartCookie, currentCart, tokenOf } from "./cart-page-cookie";
import { cartLines, QTY_PREFIX, renderCart } from "./cart-page-view";
import { field, type PageContext, readForm } from "./context";
import { openSession } from "./handoff";
import { messagePage } from "./layout";
import { notFoundPage } from "./not-found";
import { choose, optionAxes, readSelection } from "./product-options";
import { loadProduct, renderProduct } from "./product-page";
import { seeOther } from "./respond";

const MAX_QUANTITY = 999;

function formExpired(ctx: PageContext): Response {
  const t = translator(ctx);
  return messagePage(ctx, 403, t("form.expired.title"), t("form.expired.text"));
}

/** get_cart for an opened token: the cart, or undefined when it expired, was canceled or never existed. */
async function readCart(ctx: PageContext, id: string): Promise<ToolPayload | undefined> {
  const result = await callAsBuyer(ctx, "get_cart", { id }, { handoff: true });
  return result.ok && result.value.id === id ? result.value : undefined;
}

function cartGone(ctx: PageContext): Response {
  const t = translator(ctx);
  return messagePage(ctx, 410, t("cart.gone.title"), t("cart.gone.text"));
}

export async function cartPage(ctx: PageContext, token: string): Promise<Response> {
  const opened = await openSession(ctx, "cart", token);
  if (!opened.ok) return opened.response;
  const cart = await readCart(ctx, opened.id);
  return cart ? renderCart(ctx, token, cart) : cartGone(ctx);
}

export async function cartAction(ctx: PageContext, token: string): Promise<Response> {
  const opened = await openSession(ctx, "cart", token);
  if (!opened.ok) return opened.response;
  const form = await readForm(ctx);
  if (!form) return formExpired(ctx);
  const cart = await readCart(ctx, opened.id);
  if (!cart) return cartGone(ctx);
  const key = field(form, "key", 64) || undefined;
  const action = field(form, "action", 20);
  if (action === "copy") return copyCart(ctx, token, cart, key);
  return action === "checkout"
    ? checkOut(ctx, token, opened.id, cart, key)
    : updateQuantities(ctx, token, opened.id, cart, form, key);
}

async function updateQuantities(
  ctx: PageContext,
  token: string,
  id: string,
  cart: ToolPayload,
  form: FormData,
  key: string | undefined,
): Promise<Response> {
  const lines = [];
  for (const line of cartLines(cart)) {
    const raw = field(form, `${QTY_PREFIX}${line.id}`, 6);
    const quantity = raw === "" ? line.quantity : Number(raw);
    if (!Number.isInteger(quantity) || quantity < 0 || quantity > MAX_QUANTITY)
      return renderCart(ctx, token, cart, {
        status: 422,
        messages: [translator(ctx)("cart.quantityRange", { max: MAX_QUANTITY, item: line.item.title })],
      });
    if (quantity > 0) lines.push({ id: line.id, item: { id: line.item.id }, quantity });
  }
  const result = await callAsBuyer(
    ctx,
    "update_cart",
    { id, cart: { line_items: lines } },
    { handoff: true, ...(key ? { idempotencyKey: key } : {}) },
  );
  // The same form sent twice: the first one's change stands.
  if (!result.ok && isReplayConflict(result.error)) return seeOther(`/cart/${token}`);
  if (!result.ok)
    return renderCart(ctx, token, cart, {
      status: failureStatus(result.error),
      messages: [failureText(ctx, result.error)],
    });
  const problems = errorMessages(result.value);
  if (problems.length > 0)
    return renderCart(ctx, token, result.value, { status: 409, messages: problems.map((m) => m.content ?? "") });
  return seeOther(`/cart/${token}`);
}

async function checkOut(
  ctx: PageContext,
  token: string,
  id: string,
  cart: ToolPayload,
  key: string | undefined,
): Promise<Response> {
  if (cartLines(cart).length === 0)
    return renderCart(ctx, token, cart, { status: 409, messages: [translator(ctx)("cart.addFirst")] });
  const result = await callAsBuyer(
    ctx,
    "create_checkout",
    { checkout: { cart_id: id } },
    { handoff: true, ...(key ? { idempotencyKey: key } : {}) },
  );
  if (!result.ok)
    return renderCart(ctx, token, cart, {
      status: failureStatus(result.error),
      messages: [failureText(ctx, result.error)],
    });
  const next = tokenOf(result.value.continue_url);
  const problems = errorMessages(result.value);
  if (!next || (result.value.ucp as { status?: string } | undefined)?.status === "error") {
    const ordered = problems.some((m) => m.code === "invalid_state");
    // An ordered cart cannot be checked out again: the browser's next "Add to cart" starts a new one.
    const forget =
      ordered && (await currentCart(ctx))?.id === id ? { "set-cookie": expiredCartCookie(ctx) } : undefined;
    return renderCart(ctx, token, cart, {
      status: 409,
      messages: ordered
        ? [translator(ctx)("cart.ordered")]
        : problems.map((m) => m.content ?? translator(ctx)("cart.cannotCheckOut")),
      ...(forget ? { headers: forget } : {}),
    });
  }
  // A shared link shows the cart, never a checkout someone else filled in (cart-checkout-handoff.ts).
  if (!(await mayHandOver(ctx, cart, result.value)))
    return renderCart(ctx, token, cart, { status: 409, messages: [translator(ctx)("cart.elsewhere")], copy: true });
  return seeOther(`/checkout/${next}`, { "set-cookie": await handedCookie(ctx, String(result.value.id)) });
}

/** The cart's lines in a new cart of this browser's own (the way out of a cart checked out elsewhere). */
async function copyCart(ctx: PageContext, token: string, cart: ToolPayload, key: string | undefined) {
  const lines = cartLines(cart).map((line) => ({ item: { id: line.item.id }, quantity: line.quantity }));
  if (lines.length === 0)
    return renderCart(ctx, token, cart, { status: 409, messages: [translator(ctx)("cart.addFirst")] });
  const result = await callAsBuyer(
    ctx,
    "create_cart",
    { cart: { line_items: lines } },
    key ? { idempotencyKey: key } : {},
  );
  const next = result.ok ? tokenOf(result.value.continue_url) : undefined;
  if (!result.ok || !next || (result.value.ucp as { status?: string } | undefined)?.status === "error")
    return renderCart(ctx, token, cart, {
      status: result.ok ? 409 : failureStatus(result.error),
      messages: result.ok ? errorMessages(result.value).map((m) => m.content ?? "") : [failureText(ctx, result.error)],
    });
  return seeOther(`/cart/${next}`, { "set-cookie": cartCookie(ctx, next) });
}

export async function addToCart(ctx: PageContext): Promise<Response> {
  const form = await readForm(ctx);
  if (!form) return formExpired(ctx);
  const product = await loadProduct(ctx, field(form, "product", 256));
  if (!product) return notFoundPage(ctx);
  const t = translator(ctx);
  // With per-option pickers the form names values (Color, Size) and the variant is picked here;
  // a form naming the variant itself (the list without pickers) is taken at its word.
  const named = field(form, "variant", 256);
  const axes = named ? undefined : optionAxes(product.options, product.variants);
  const selection = axes ? readSelection(form, axes) : undefined;
  const choice = axes && selection ? choose(t, axes, product.variants, selection) : undefined;
  const variant = choice?.ok ? choice.variant.id : named;
  const quantity = Number(field(form, "quantity", 6));
  const key = field(form, "key", 64) || undefined;
  const back = (status: number, messages: string[]) =>
    renderProduct(ctx, product, {
      status,
      messages,
      variant,
      ...(selection ? { selection } : {}),
      quantity: Number.isInteger(quantity) && quantity > 0 ? quantity : 1,
    });
  if (choice && !choice.ok) return back(choice.status, [choice.message]);
  if (!product.variants.some((v) => v.id === variant)) return back(422, [t("product.chooseVariant")]);
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY)
    return back(422, [t("product.quantityRange", { max: MAX_QUANTITY })]);

  const current = await currentCart(ctx);
  const existing = current ? await readCart(ctx, current.id) : undefined;
  // This very form already created the browser's cart (a resubmission): nothing to add.
  if (current && existing && key && current.id === (await createdId(ctx, key)))
    return seeOther(`/cart/${current.token}`);
  const result =
    current && existing
      ? await callAsBuyer(
          ctx,
          "update_cart",
          { id: current.id, cart: { line_items: withAdded(existing, variant, quantity) } },
          { handoff: true, ...(key ? { idempotencyKey: key } : {}) },
        )
      : await callAsBuyer(
          ctx,
          "create_cart",
          { cart: { line_items: [{ item: { id: variant }, quantity }] } },
          key ? { idempotencyKey: key } : {},
        );
  if (!result.ok) {
    if (current && isReplayConflict(result.error)) return seeOther(`/cart/${current.token}`);
    return back(failureStatus(result.error), [failureText(ctx, result.error)]);
  }
  const problems = errorMessages(result.value);
  const token = tokenOf(result.value.continue_url);
  const created = (result.value.ucp as { status?: string } | undefined)?.status !== "error";
  if (problems.length > 0 || !token || !created)
    return back(409, problems.length > 0 ? problems.map((m) => m.content ?? "") : [t("product.cannotAdd")]);
  return seeOther(`/cart/${token}`, { "set-cookie": cartCookie(ctx, token) });
}

/** The cart's lines as update_cart takes them, with `quantity` more of `variant`. */
function withAdded(cart: ToolPayload, variant: string, quantity: number) {
  let added = false;
  const lines = cartLines(cart).map((line) => {
    const same = line.item.id === variant;
    added ||= same;
    const total = same ? Math.min(MAX_QUANTITY, line.quantity + quantity) : line.quantity;
    return { id: line.id, item: { id: line.item.id }, quantity: total };
  });
  return added ? lines : [...lines, { item: { id: variant }, quantity }];
}

/** The id create_cart gives the cart made with this idempotency key (cart.tools.ts derives it). */
function createdId(ctx: PageContext, key: string): Promise<string> {
  const storefront = { profile: storefrontProfile(ctx.config.origin), authenticated: false };
  return derivedId("cart", ctx.config.idSecret, keySpace(storefront), key);
}

function expiredCartCookie(ctx: PageContext): string {
  return cartCookie(ctx, "").replace(/Max-Age=\d+/, "Max-Age=0");
}

function isReplayConflict(error: BuyerCallFailure): boolean {
  return error.kind === "protocol" && error.error.httpStatus === 409;
}

function failureStatus(error: BuyerCallFailure): number {
  return error.kind === "invalid" ? 422 : error.error.httpStatus >= 500 ? 503 : 422;
}

function failureText(ctx: PageContext, error: BuyerCallFailure): string {
  if (error.kind === "invalid") return error.message;
  return error.error.httpStatus >= 500 ? translator(ctx)("cart.saveFailed") : error.error.message;
}
