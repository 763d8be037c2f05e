/**
 * Signs a webhook body exactly as Stripe does (docs "Verify webhook signatures manually"):
 * `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by the whole
 * endpoint secret, whsec_ prefix included>`. WebCrypto only, so workerd and Node tests share it.
 */
const encoder = new TextEncoder();

export async function stripeSignature(body: string, secret: string, at = Math.floor(Date.now() / 1000)) {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${at}.${body}`)));
  return `t=${at},v1=${[...mac].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** A Stripe event envelope around `object` (the fields the API sends; `created` in seconds). */
export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  id = `evt_${crypto.randomUUID().replaceAll("-", "")}`,
) {
  return {
    id,
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}
