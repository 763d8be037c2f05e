/**
 * Test-only endpoints under /__stand-in/ (no API key): what the stand-in holds, reset, the
 * buyer's 3-D Secure step, and webhook delivery. Nothing here exists on Stripe.
 */
import { json, StripeApiError } from "./errors.ts";
import { type DeliverRequest, eventFor } from "./events.ts";
import { paymentIntentObject, refundObject } from "./objects.ts";
import { authenticate, findIntent } from "./payment-intents.ts";
import type { StandInState } from "./state.ts";
import { sendEvent } from "./webhooks.ts";

export interface InspectionOptions {
  readonly apiVersion: string;
  readonly fetch?: typeof fetch;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page like an issuer's challenge: pass or fail, then back to return_url if there is one. */
function challengePage(state: StandInState, id: string): Response {
  const pi = findIntent(state, id);
  const action = `/__stand-in/authenticate/${encodeURIComponent(pi.id)}`;
  const form = (result: string, label: string) =>
    `<form method="post" action="${action}"><input type="hidden" name="result" value="${result}">` +
    (pi.returnUrl ? `<input type="hidden" name="return_url" value="${escapeHtml(pi.returnUrl)}">` : "") +
    `<button type="submit">${label}</button></form>`;
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>3D Secure (Stripe stand-in)</title></head><body><h1>Verify the payment</h1><p>${pi.amount} ${escapeHtml(pi.currency.toUpperCase())} minor units, ${escapeHtml(pi.id)}</p>${form("pass", "Complete authentication")}${form("fail", "Fail authentication")}</body></html>`;
  return new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
}

async function fields(request: Request): Promise<Record<string, string>> {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  if (request.method !== "POST") return query;
  const text = await request.text();
  if (!text) return query;
  if ((request.headers.get("content-type") ?? "").includes("json")) return { ...query, ...JSON.parse(text) };
  return { ...query, ...Object.fromEntries(new URLSearchParams(text)) };
}

export async function inspect(request: Request, state: StandInState, options: InspectionOptions): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.replace(/^\/__stand-in/, "");
  const q = url.searchParams;
  if (request.method === "POST" && path === "/reset") {
    state.reset();
    return json({ reset: true });
  }
  if (request.method === "GET" && path === "/payment_intents") {
    const key = q.get("idempotency_key");
    const meta = [...q].flatMap(([k, v]) => {
      const m = /^metadata\[(.+)\]$/.exec(k);
      return m?.[1] ? [[m[1], v] as const] : [];
    });
    const data = [...state.paymentIntents.values()]
      .filter((pi) => !key || pi.idempotencyKeys.includes(key))
      .filter((pi) => meta.every(([k, v]) => pi.metadata[k] === v))
      .map((pi) => ({
        ...paymentIntentObject(pi, state),
        stand_in: {
          idempotency_keys: [...pi.idempotencyKeys],
          payment_method_source: pi.paymentMethod ? (state.paymentMethods.get(pi.paymentMethod)?.source ?? null) : null,
          authenticated: pi.authenticated,
        },
      }));
    return json({ count: data.length, data });
  }
  if (request.method === "GET" && path === "/refunds") {
    const data = [...state.refunds.values()]
      .filter((r) => !q.get("payment_intent") || r.paymentIntent === q.get("payment_intent"))
      .map((r) => ({ ...refundObject(r), stand_in: { idempotency_key: r.idempotencyKey } }));
    return json({ count: data.length, data });
  }
  if (request.method === "GET" && path === "/idempotency") {
    const data = [...state.idempotency].map(([key, r]) => ({ key, endpoint: r.endpoint, status: r.status }));
    return json({ count: data.length, data });
  }
  if (request.method === "GET" && path === "/events") {
    return json({ count: state.events.size, data: [...state.events.values()] });
  }
  const page = /^\/3ds\/([^/]+)$/.exec(path);
  if (request.method === "GET" && page?.[1]) return challengePage(state, decodeURIComponent(page[1]));
  const auth = /^\/authenticate\/([^/]+)$/.exec(path);
  if (request.method === "POST" && auth?.[1]) {
    const f = await fields(request);
    const pi = authenticate(state, decodeURIComponent(auth[1]), f.result !== "fail");
    if (f.return_url) {
      // As Stripe returns the buyer from a redirect_to_url next action.
      const back = new URL(f.return_url);
      back.searchParams.set("payment_intent", pi.id);
      back.searchParams.set("payment_intent_client_secret", pi.clientSecret);
      back.searchParams.set("redirect_status", pi.status === "requires_payment_method" ? "failed" : "succeeded");
      return new Response(null, { status: 303, headers: { location: back.href } });
    }
    return json(paymentIntentObject(pi, state));
  }
  if (request.method === "POST" && path === "/deliver") {
    const f = (await fields(request)) as unknown as DeliverRequest & {
      secret?: string;
      url?: string;
      timestamp?: number | string;
    };
    if (!f.secret || !f.type || !f.id) {
      throw new StripeApiError(400, { type: "invalid_request_error", message: "deliver needs type, id and secret" });
    }
    const amount = f.amount === undefined ? undefined : Number(f.amount);
    const event = eventFor(state, options.apiVersion, { ...f, ...(amount === undefined ? {} : { amount }) });
    const sent = await sendEvent(event, f.secret, {
      ...(f.url ? { url: f.url } : {}),
      ...(f.timestamp !== undefined ? { timestamp: Number(f.timestamp) } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    return json(sent);
  }
  return json(
    { error: { type: "invalid_request_error", message: `No stand-in route ${request.method} ${url.pathname}` } },
    404,
  );
}
