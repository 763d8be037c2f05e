/**
 * Webhook events as Stripe sends them: an `event` object around the current state of the
 * object, POSTed as JSON with `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "t.payload")>`
 * (docs "Verify webhook signatures"; the SDK's `webhooks.constructEventAsync` checks it).
 */
import { now, randomId } from "./ids.ts";
import type { StandInState } from "./state.ts";

export async function signPayload(secret: string, payload: string, timestamp: number): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${timestamp}.${payload}`));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The header value for a payload signed at `timestamp` (default now). */
export async function signatureHeader(secret: string, payload: string, timestamp = now()): Promise<string> {
  return `t=${timestamp},v1=${await signPayload(secret, payload, timestamp)}`;
}

export function buildEvent(
  state: StandInState,
  apiVersion: string,
  type: string,
  object: Record<string, unknown>,
  previousAttributes?: Record<string, unknown>,
): Record<string, unknown> {
  const event = {
    id: randomId("evt"),
    object: "event",
    api_version: apiVersion,
    created: now(),
    data: { object, ...(previousAttributes ? { previous_attributes: previousAttributes } : {}) },
    livemode: false,
    pending_webhooks: 1,
    // A dashboard action or Stripe's own processing has no API request behind it.
    request: { id: null, idempotency_key: null },
    type,
  };
  state.events.set(event.id, event);
  return event;
}

export interface SignedEvent {
  readonly event: Record<string, unknown>;
  readonly payload: string;
  readonly signature: string;
  /** What the receiver answered, when the stand-in posted it. */
  readonly delivery?: { readonly url: string; readonly status: number; readonly body: string };
}

/** Signs the event and, given a URL, POSTs it there the way Stripe does. */
export async function sendEvent(
  event: Record<string, unknown>,
  secret: string,
  options: { url?: string; timestamp?: number; fetch?: typeof fetch } = {},
): Promise<SignedEvent> {
  const payload = JSON.stringify(event, null, 2);
  const signature = await signatureHeader(secret, payload, options.timestamp);
  if (!options.url) return { event, payload, signature };
  const response = await (options.fetch ?? fetch)(options.url, {
    method: "POST",
    headers: {
      "content-type": "application/json; charset=utf-8",
      "stripe-signature": signature,
      "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
    },
    body: payload,
  });
  return {
    event,
    payload,
    signature,
    delivery: { url: options.url, status: response.status, body: await response.text() },
  };
}
