/**
 * A local stand-in for Stripe's HTTP API (issue 24 "How to test without Stripe"): the calls
 * the store makes, answered in Stripe's shapes, so the official `stripe` SDK can be pointed
 * at it (STRIPE_API_BASE). A pure `(request) => Promise<Response>` handler with in-memory
 * state; mounted on host stripe.test in the workerd tests (test/fixtures/profile-server.ts)
 * and served over HTTP by test/stripe/server.ts. test/stripe/README.md lists what it answers.
 */

import { json, StripeApiError, unknownRoute } from "./errors.ts";
import { canonical, parseForm } from "./form.ts";
import { lookup } from "./idempotency.ts";
import { randomId } from "./ids.ts";
import { inspect } from "./inspection.ts";
import { chargeObject, paymentMethodObject } from "./objects.ts";
import { Params } from "./params.ts";
import {
  type Ctx,
  cancelPaymentIntent,
  capturePaymentIntent,
  confirmPaymentIntent,
  createPaymentIntent,
  listPaymentIntents,
  PARAMS,
  retrievePaymentIntent,
  searchIntents,
  updatePaymentIntent,
} from "./payment-intents.ts";
import { createPaymentMethod } from "./payment-methods.ts";
import { createRefund, listRefunds, REFUND_PARAMS, retrieveRefund } from "./refunds.ts";
import { StandInState } from "./state.ts";

/** The API version the stand-in speaks unless a request names one (stripe 23.1.0's pinned version). */
export const STAND_IN_API_VERSION = "2026-10-28.endive";

export interface StandInOptions {
  /** Accept only this secret key; default any `sk_test_…` / `rk_test_…` key. */
  readonly apiKey?: string;
  readonly apiVersion?: string;
  /** Hide PaymentIntents younger than this from search, as Stripe's search index lags (default 0). */
  readonly searchLagMs?: number;
  /** How /__stand-in/deliver POSTs events (default global fetch). */
  readonly fetch?: typeof fetch;
}

export interface StripeStandIn {
  readonly handle: (request: Request) => Promise<Response>;
  readonly state: StandInState;
  reset(): void;
}

type Endpoint = (ctx: Ctx, body: string, match: RegExpExecArray) => Record<string, unknown>;

const form = (body: string, allowed: readonly string[]) => new Params(parseForm(body), allowed);
const byId = (m: RegExpExecArray) => decodeURIComponent(m[1] ?? "");

const ROUTES: Array<[method: string, path: RegExp, endpoint: Endpoint]> = [
  ["POST", /^\/v1\/payment_intents$/, (c, b) => createPaymentIntent(c, form(b, PARAMS.create))],
  ["GET", /^\/v1\/payment_intents$/, (c, b) => listPaymentIntents(c, form(b, PARAMS.list))],
  ["GET", /^\/v1\/payment_intents\/search$/, (c, b) => searchIntents(c, form(b, PARAMS.search))],
  ["GET", /^\/v1\/payment_intents\/([^/]+)$/, (c, b, m) => retrievePaymentIntent(c, byId(m), form(b, PARAMS.retrieve))],
  ["POST", /^\/v1\/payment_intents\/([^/]+)$/, (c, b, m) => updatePaymentIntent(c, byId(m), form(b, PARAMS.update))],
  [
    "POST",
    /^\/v1\/payment_intents\/([^/]+)\/confirm$/,
    (c, b, m) => confirmPaymentIntent(c, byId(m), form(b, PARAMS.confirm)),
  ],
  [
    "POST",
    /^\/v1\/payment_intents\/([^/]+)\/capture$/,
    (c, b, m) => capturePaymentIntent(c, byId(m), form(b, PARAMS.capture)),
  ],
  [
    "POST",
    /^\/v1\/payment_intents\/([^/]+)\/cancel$/,
    (c, b, m) => cancelPaymentIntent(c, byId(m), form(b, PARAMS.cancel)),
  ],
  ["POST", /^\/v1\/refunds$/, (c, b) => createRefund(c.state, form(b, REFUND_PARAMS.create), c.idempotencyKey)],
  ["GET", /^\/v1\/refunds$/, (c, b) => listRefunds(c.state, form(b, REFUND_PARAMS.list))],
  [
    "GET",
    /^\/v1\/refunds\/([^/]+)$/,
    (c, b, m) => {
      form(b, REFUND_PARAMS.retrieve);
      return retrieveRefund(c.state, byId(m));
    },
  ],
  [
    "POST",
    /^\/v1\/payment_methods$/,
    (c, b) =>
      paymentMethodObject(
        createPaymentMethod(c.state, form(b, ["type", "card", "billing_details", "metadata", "expand"])),
      ),
  ],
  [
    "GET",
    /^\/v1\/payment_methods\/([^/]+)$/,
    (c, _b, m) => {
      const pm = c.state.paymentMethods.get(byId(m));
      if (!pm)
        throw new StripeApiError(404, {
          type: "invalid_request_error",
          code: "resource_missing",
          param: "payment_method",
          message: `No such PaymentMethod: '${byId(m)}'`,
        });
      return paymentMethodObject(pm);
    },
  ],
  [
    "GET",
    /^\/v1\/charges\/([^/]+)$/,
    (c, _b, m) => {
      const ch = c.state.charges.get(byId(m));
      if (!ch)
        throw new StripeApiError(404, {
          type: "invalid_request_error",
          code: "resource_missing",
          param: "id",
          message: `No such charge: '${byId(m)}'`,
        });
      return chargeObject(ch, c.state);
    },
  ],
  [
    "GET",
    /^\/v1\/events\/([^/]+)$/,
    (c, _b, m) => {
      const ev = c.state.events.get(byId(m));
      if (!ev)
        throw new StripeApiError(404, {
          type: "invalid_request_error",
          code: "resource_missing",
          param: "id",
          message: `No such event: '${byId(m)}'`,
        });
      return ev;
    },
  ],
];

/** Stripe answers a missing or wrong key with 401 and an invalid_request_error body. */
function authError(request: Request, apiKey: string | undefined): StripeApiError | undefined {
  const header = request.headers.get("authorization") ?? "";
  let key = /^Bearer (.+)$/i.exec(header)?.[1];
  const basic = /^Basic (.+)$/i.exec(header)?.[1];
  if (!key && basic) key = atob(basic).split(":")[0];
  if (!key) {
    return new StripeApiError(401, {
      type: "invalid_request_error",
      message:
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
    });
  }
  const ok = apiKey ? key === apiKey : /^(sk|rk)_test_\w+$/.test(key);
  if (ok) return undefined;
  // Stripe shows the key's prefix and at most its last four characters.
  const prefix = /^[a-z]+_(?:test_|live_)?/.exec(key)?.[0] ?? "";
  const rest = key.slice(prefix.length);
  const shown = rest.length > 8 ? rest.slice(-4) : "";
  return new StripeApiError(401, {
    type: "invalid_request_error",
    code: "api_key_invalid",
    message: `Invalid API Key provided: ${prefix}${"*".repeat(rest.length - shown.length)}${shown}`,
  });
}

export function createStripeStandIn(options: StandInOptions = {}): StripeStandIn {
  const state = new StandInState();
  const apiVersion = options.apiVersion ?? STAND_IN_API_VERSION;

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const requestId = randomId("req", 14);
    const headers: Record<string, string> = {
      "request-id": requestId,
      "stripe-version": request.headers.get("stripe-version") ?? apiVersion,
    };
    try {
      if (url.pathname.startsWith("/__stand-in/")) {
        return await inspect(request, state, { apiVersion, ...(options.fetch ? { fetch: options.fetch } : {}) });
      }
      const denied = authError(request, options.apiKey);
      if (denied) throw denied;
      const route = ROUTES.find(([method, path]) => method === request.method && path.test(url.pathname));
      if (!route) throw unknownRoute(request.method, url.pathname);
      const [method, path, endpoint] = route;
      const match = path.exec(url.pathname) as RegExpExecArray;
      const body = method === "GET" ? url.search.slice(1) : await request.text();
      // Stripe ignores Idempotency-Key on GET: reads are idempotent by nature.
      const key = method === "POST" ? (request.headers.get("idempotency-key") ?? undefined) : undefined;
      if (key) headers["idempotency-key"] = key;
      const endpointName = `${method} ${url.pathname}`;
      const params = canonical(parseForm(body));
      if (key) {
        const saved = lookup(state, key, endpointName, params);
        if (saved) {
          return new Response(saved.body, {
            status: saved.status,
            headers: {
              "content-type": "application/json",
              ...headers,
              "idempotent-replayed": "true",
              "original-request": saved.requestId,
            },
          });
        }
      }
      const save = (status: number, text: string) => {
        if (key)
          state.idempotency.set(key, {
            endpoint: endpointName,
            params,
            status,
            body: text,
            requestId,
            created: Date.now(),
          });
      };
      const ctx: Ctx = { state, origin: url.origin, idempotencyKey: key, searchLagMs: options.searchLagMs ?? 0 };
      try {
        const text = JSON.stringify(endpoint(ctx, body, match), null, 2);
        save(200, text);
        return new Response(text, { status: 200, headers: { "content-type": "application/json", ...headers } });
      } catch (e) {
        if (e instanceof StripeApiError && e.saved) save(e.status, JSON.stringify({ error: e.body }, null, 2));
        throw e;
      }
    } catch (e) {
      if (e instanceof StripeApiError) return json({ error: e.body }, e.status, headers);
      // A bug in the stand-in answers like Stripe's own 500s, never hangs the client.
      const message = e instanceof Error ? e.message : String(e);
      return json({ error: { type: "api_error", message: `Stand-in error: ${message}` } }, 500, headers);
    }
  }

  return { handle, state, reset: () => state.reset() };
}
