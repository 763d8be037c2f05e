/**
 * How every page leaves the Worker: HTML with a strict Content-Security-Policy (inline style
 * and script only with this response's nonce), no referrer (hand-off tokens are in URLs),
 * and no caching of anything personal.
 */
import { toBase64Url } from "../lib/ids";
import type { SafeHtml } from "./html";

export interface PageResponseOptions {
  readonly status?: number;
  /** A buyer's cart, checkout or order: never stored by any cache. */
  readonly personal?: boolean;
  readonly headers?: Readonly<Record<string, string>>;
}

export function newNonce(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
}

/**
 * Origins one page may use beyond its own nonce: the checkout page with Stripe's card form
 * (stripe-card-form.ts) loads Stripe.js, frames Stripe's fields and lets Stripe.js call
 * Stripe's API. Every other page allows none of them.
 */
export interface CspSources {
  readonly script?: readonly string[];
  readonly frame?: readonly string[];
  readonly connect?: readonly string[];
}

export function contentSecurityPolicy(nonce: string, allow: CspSources = {}): string {
  const more = (sources: readonly string[] | undefined) => (sources?.length ? ` ${sources.join(" ")}` : "");
  return [
    "default-src 'none'",
    // Catalog images and the merchant's logo live on other hosts.
    "img-src 'self' https: data:",
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'${more(allow.script)}`,
    ...(allow.frame?.length ? [`frame-src${more(allow.frame)}`] : []),
    ...(allow.connect?.length ? [`connect-src${more(allow.connect)}`] : []),
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function pageHeaders(nonce: string, personal: boolean): Record<string, string> {
  return {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": contentSecurityPolicy(nonce),
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "cache-control": personal ? "no-store" : "public, max-age=60",
  };
}

export function htmlResponse(doc: SafeHtml, nonce: string, options: PageResponseOptions = {}): Response {
  return new Response(doc.value, {
    status: options.status ?? 200,
    headers: { ...pageHeaders(nonce, options.personal ?? false), ...options.headers },
  });
}

/** After a POST: the browser loads the page again with GET (no resubmission on reload). */
export function seeOther(location: string, headers: Readonly<Record<string, string>> = {}): Response {
  return new Response(null, {
    status: 303,
    headers: { location, "referrer-policy": "no-referrer", "cache-control": "no-store", ...headers },
  });
}
