/**
 * CSRF protection for every page form: a random per-browser cookie, and in each form an
 * HMAC of it under the store's secret (a forger's page can neither read the cookie nor
 * compute the HMAC). A POST must also come from the store's own origin when the browser says
 * where it came from (Origin, Sec-Fetch-Site).
 */
import type { MerchantConfig } from "../config";
import { constantTimeEqual, cookieValue } from "../lib/cookies";
import { hmacKey } from "../lib/hmac-key";
import { toBase64Url } from "../lib/ids";

export const CSRF_FIELD = "_csrf";
const COOKIE = "ucp_csrf";

export interface CsrfState {
  /** The value for this browser's forms. */
  readonly token: string;
  /** Set-Cookie to send when the browser had no cookie yet. */
  readonly setCookie?: string;
}

async function tokenFor(secret: string, cookie: string): Promise<string> {
  const mac = await crypto.subtle.sign(
    "HMAC",
    await hmacKey(`ucp-worker csrf\u0000${secret}`),
    new TextEncoder().encode(cookie),
  );
  return toBase64Url(new Uint8Array(mac).slice(0, 24));
}

function readCookie(request: Request): string | undefined {
  const value = cookieValue(request, COOKIE);
  return value && /^[A-Za-z0-9_-]{16,64}$/.test(value) ? value : undefined;
}

export async function csrfState(request: Request, config: MerchantConfig): Promise<CsrfState> {
  const existing = readCookie(request);
  if (existing) return { token: await tokenFor(config.idSecret, existing) };
  const fresh = toBase64Url(crypto.getRandomValues(new Uint8Array(18)));
  const secure = config.origin.startsWith("https:") ? "; Secure" : "";
  return {
    token: await tokenFor(config.idSecret, fresh),
    setCookie: `${COOKIE}=${fresh}; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000${secure}`,
  };
}

/** Whether a form POST may act: same origin (when the browser says) and a token matching the cookie. */
export async function csrfOk(request: Request, form: FormData, config: MerchantConfig): Promise<boolean> {
  const origin = request.headers.get("origin");
  const own = new Set([config.origin, new URL(request.url).origin]);
  // Under Referrer-Policy: no-referrer (every page's) browsers send a form POST's Origin as
  // "null" even from the page itself: that says nothing, and the token below still decides.
  if (origin !== null && origin !== "null" && !own.has(origin)) return false;
  if (request.headers.get("sec-fetch-site") === "cross-site") return false;
  const cookie = readCookie(request);
  const sent = form.get(CSRF_FIELD);
  if (!cookie || typeof sent !== "string") return false;
  const expected = await tokenFor(config.idSecret, cookie);
  return constantTimeEqual(sent, expected);
}
