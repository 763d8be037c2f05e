/**
 * The one route table (itty-router): the MCP endpoint, the merchant admin API and the buyer
 * pages. Static assets (/.well-known/ucp) are served before the Worker runs. Unknown paths
 * answer JSON under the API prefixes and an HTML page everywhere else.
 */
import { type IRequest, IttyRouter } from "itty-router";
import { handleAdmin } from "./admin/router";
import { MCP_PATH } from "./config";
import { translator } from "./i18n/translate";
import { CORS_HEADERS, jsonResponse } from "./lib/http";
import { logUnhandled, type RequestFacts } from "./lib/log";
import { logUnavailable, StorageUnavailable } from "./lib/storage-unavailable";
import { StoreMisconfigured } from "./lib/store-misconfigured";
import { handleMcpPost } from "./mcp/http";
import { errorBody, protocolError, RPC } from "./mcp/jsonrpc";
import { cartLinkPage } from "./pages/cart-badge";
import { addToCart, cartAction, cartPage } from "./pages/cart-page";
import { checkoutAction, checkoutPage } from "./pages/checkout-page";
import { type PageContext, pageContext } from "./pages/context";
import { redirectLegacy } from "./pages/handoff";
import { messagePage } from "./pages/layout";
import { notFoundPage } from "./pages/not-found";
import { orderPage } from "./pages/order-page";
import { pageBudgetSpent } from "./pages/page-limit";
import { challengeAction, challengePage } from "./pages/payment-challenge";
import { testHandlerSchema, testHandlerSpec } from "./pages/payment-handler-docs";
import { permalinkPage } from "./pages/permalink-page";
import { plainPage } from "./pages/plain-page";
import { policyPage } from "./pages/policy-page";
import { productPage } from "./pages/product-page";
import { storefrontPage } from "./pages/storefront";
import { STRIPE_WEBHOOK_PATH, stripeWebhook } from "./payment-webhooks/stripe-webhook";
import { restInternalError, restMethodNotAllowed, restNotFound, restPreflight } from "./rest/cors";
import { restHandler } from "./rest/handler";
import { REST_BASE } from "./rest/operations";
import { PERMALINK_PATH } from "./ucp/capabilities";

const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers":
    "content-type, accept, authorization, mcp-protocol-version, mcp-session-id, mcp-method, mcp-name, last-event-id, ucp-agent, idempotency-key, signature, signature-input, content-digest, request-id",
  "access-control-max-age": "86400",
};

/** Paths whose clients are programs: their errors are JSON (under REST_BASE, REST's own `{code, content}`). */
const API_PREFIXES = ["/admin/", "/.well-known/"];

type Args = [Env, RequestFacts];
type PageHandler = (ctx: PageContext, params: Record<string, string>) => Promise<Response>;

/**
 * Page routes: rate limit, then the page; a misconfigured store, or one whose catalog cannot
 * be read just now, says so instead of failing.
 */
function page(handler: PageHandler) {
  return async (request: IRequest, env: Env, facts: RequestFacts): Promise<Response> => {
    facts.tool = "page";
    if (await pageBudgetSpent(request as unknown as Request, env)) {
      facts.outcome = "rate_limited";
      return plainPage(env, 429, "page.tooMany.title", "page.tooMany.text", { "retry-after": "60" });
    }
    let ctx: PageContext;
    try {
      ctx = await pageContext(request as unknown as Request, env);
    } catch (e) {
      if (!(e instanceof StoreMisconfigured)) throw e;
      console.error(JSON.stringify({ event: "store_misconfigured", problems: e.problems }));
      facts.outcome = "store_misconfigured";
      return plainPage(env, 503, "page.notOpen.title", "page.notOpen.text");
    }
    try {
      return await handler(ctx, request.params as Record<string, string>);
    } catch (e) {
      if (!(e instanceof StorageUnavailable)) {
        // A person is reading: a page in the store's own look, not the API's JSON error.
        logUnhandled(e);
        facts.outcome = "internal_error";
        const t = translator(ctx);
        return messagePage(ctx, 500, t("page.failed.title"), t("page.failed.text"));
      }
      logUnavailable(e);
      facts.outcome = "unavailable";
      return plainPage(env, 503, "page.unavailable.title", "page.unavailable.text", { "retry-after": "1" });
    }
  };
}

function methodNotAllowed(allow: string) {
  return page(async (ctx) => {
    const t = translator(ctx);
    return messagePage(ctx, 405, t("page.notAllowed.title"), t("page.notAllowed.text"), { allow });
  });
}

/**
 * HEAD routes whose GET has side effects: answered by their own handler, never as a GET. A
 * permalink's GET builds a cart and sets a cookie; its HEAD does neither (permalink-page.ts).
 */
const headRouter = IttyRouter<IRequest, Args>();
headRouter
  .head(
    PERMALINK_PATH,
    page((ctx) => permalinkPage(ctx)),
  )
  .head(
    `${PERMALINK_PATH}/:items`,
    page((ctx) => permalinkPage(ctx)),
  );

const router = IttyRouter<IRequest, Args>();
router
  .post(MCP_PATH, (request, env, facts) => handleMcpPost(request as unknown as Request, env, facts))
  .options(MCP_PATH, () => new Response(null, { status: 204, headers: PREFLIGHT_HEADERS }))
  // Sessionless server: no server-initiated SSE stream (GET) and no session to end (DELETE).
  .all(MCP_PATH, (request) =>
    jsonResponse(
      errorBody(
        null,
        protocolError(RPC.invalidRequest, 405, `Method ${request.method} not allowed; POST JSON-RPC here`),
      ),
      405,
      { allow: "POST, OPTIONS" },
    ),
  )
  // UCP REST binding (issue 12, src/rest/): the eleven operations of rest.openapi.json under
  // REST_BASE, then CORS preflight and 405 for their paths (other /ucp/ paths fall through).
  .post(`${REST_BASE}/checkout-sessions`, restHandler("create_checkout"))
  .get(`${REST_BASE}/checkout-sessions/:id`, restHandler("get_checkout"))
  .put(`${REST_BASE}/checkout-sessions/:id`, restHandler("update_checkout"))
  .post(`${REST_BASE}/checkout-sessions/:id/complete`, restHandler("complete_checkout"))
  .post(`${REST_BASE}/checkout-sessions/:id/cancel`, restHandler("cancel_checkout"))
  .post(`${REST_BASE}/carts`, restHandler("create_cart"))
  .get(`${REST_BASE}/carts/:id`, restHandler("get_cart"))
  .put(`${REST_BASE}/carts/:id`, restHandler("update_cart"))
  .post(`${REST_BASE}/carts/:id/cancel`, restHandler("cancel_cart"))
  .post(`${REST_BASE}/catalog/search`, restHandler("search_catalog"))
  .post(`${REST_BASE}/catalog/lookup`, restHandler("lookup_catalog"))
  .post(`${REST_BASE}/catalog/product`, restHandler("get_product"))
  .get(`${REST_BASE}/orders/:id`, restHandler("get_order"))
  .options(`${REST_BASE}/*`, restPreflight)
  .all(`${REST_BASE}/*`, restMethodNotAllowed)
  // Stripe's events (docs/payments.md "Stripe webhooks"): answers 404 itself while STRIPE_WEBHOOK_SECRET is unset.
  .all(STRIPE_WEBHOOK_PATH, (request, env, facts) => stripeWebhook(request as unknown as Request, env, facts))
  // Merchant admin (docs/orders.md, docs/trust.md): answers 404 itself while ADMIN_TOKEN is unset.
  .all("/admin/*", (request, env) => handleAdmin(request as unknown as Request, env))
  .get(
    "/ucp/payment/test",
    page((ctx) => testHandlerSpec(ctx)),
  )
  .get(
    "/ucp/payment/test/schema.json",
    page((ctx) => testHandlerSchema(ctx)),
  )
  .get(
    "/",
    page((ctx) => storefrontPage(ctx)),
  )
  // Permalinks (2026-08-25 dev.ucp.shopping.permalink): `/buy`, `/buy/` and `/buy/{items}`.
  .get(
    PERMALINK_PATH,
    page((ctx) => permalinkPage(ctx)),
  )
  .get(
    `${PERMALINK_PATH}/:items`,
    page((ctx) => permalinkPage(ctx)),
  )
  .get(
    "/policies/:slug",
    page(async (ctx, p) => policyPage(ctx, p.slug as string)),
  )
  .get(
    "/products/:handle",
    page((ctx, p) => productPage(ctx, p.handle as string)),
  )
  .get(
    "/cart",
    page((ctx) => cartLinkPage(ctx)),
  )
  .post(
    "/cart",
    page((ctx) => addToCart(ctx)),
  )
  .get(
    "/cart/:token",
    page((ctx, p) => cartPage(ctx, p.token as string)),
  )
  .post(
    "/cart/:token",
    page((ctx, p) => cartAction(ctx, p.token as string)),
  )
  .get(
    "/checkout/:token",
    page((ctx, p) => checkoutPage(ctx, p.token as string)),
  )
  .post(
    "/checkout/:token",
    page((ctx, p) => checkoutAction(ctx, p.token as string)),
  )
  .get(
    "/checkout/:token/verify",
    page((ctx, p) => challengePage(ctx, p.token as string)),
  )
  .post(
    "/checkout/:token/verify",
    page((ctx, p) => challengeAction(ctx, p.token as string)),
  )
  .get(
    "/orders/:token",
    page((ctx, p) => orderPage(ctx, p.token as string)),
  )
  .get(
    "/continue/:token",
    page((ctx, p) => redirectLegacy(ctx, p.token as string, ["checkout", "cart"])),
  )
  .get(
    "/order/:token",
    page((ctx, p) => redirectLegacy(ctx, p.token as string, ["order"])),
  )
  .all("/cart", methodNotAllowed("POST"))
  .all("/cart/:token", methodNotAllowed("GET, POST"))
  .all("/checkout/:token", methodNotAllowed("GET, POST"))
  .all("/checkout/:token/verify", methodNotAllowed("GET, POST"))
  .all("/orders/:token", methodNotAllowed("GET"))
  .all("/products/:handle", methodNotAllowed("GET"))
  .all(PERMALINK_PATH, methodNotAllowed("GET"))
  .all(`${PERMALINK_PATH}/:items`, methodNotAllowed("GET"))
  .all("*", (request, env, facts) => {
    const { pathname } = new URL(request.url);
    if (pathname === REST_BASE || pathname.startsWith(`${REST_BASE}/`)) return restNotFound(pathname);
    if (API_PREFIXES.some((prefix) => pathname.startsWith(prefix)))
      return jsonResponse({ error: "not_found", message: `No route for ${pathname.slice(0, 200)}` }, 404);
    return page((ctx) => Promise.resolve(notFoundPage(ctx)))(request, env, facts);
  });

/**
 * The last exit (src/index.ts): a throw nothing below caught, answered in its surface's own
 * error form (issue 27): JSON-RPC on the MCP endpoint, REST's `{code, content}` under /ucp, a
 * page where a person reads, the JSON the other API paths answer with.
 */
export function unhandledAnswer(request: Request, env: Env): Response {
  const { pathname } = new URL(request.url);
  if (pathname === MCP_PATH)
    return jsonResponse(errorBody(null, protocolError(RPC.internalError, 500, "Internal error")), 500);
  if (pathname === REST_BASE || pathname.startsWith(`${REST_BASE}/`)) return restInternalError();
  if (API_PREFIXES.some((prefix) => pathname.startsWith(prefix)))
    return jsonResponse({ error: "internal_error", message: "Internal error" }, 500);
  return plainPage(env, 500, "page.failed.title", "page.failed.text");
}

/** `facts` collects what the request log line reports (tool, profile, tier, outcome). */
export async function route(request: Request, env: Env, facts: RequestFacts = {}): Promise<Response> {
  // HEAD is GET without a body (link checkers, previews of a shared URL).
  if (request.method === "HEAD") {
    const response =
      ((await headRouter.fetch(request as unknown as IRequest, env, facts)) as Response | undefined) ??
      (await route(new Request(request, { method: "GET" }), env, facts));
    return new Response(null, { status: response.status, headers: response.headers });
  }
  return (await router.fetch(request as unknown as IRequest, env, facts)) as Response;
}
