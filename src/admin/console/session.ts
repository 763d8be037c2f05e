/**
 * The admin token's console session: a cookie holding {sid, exp} and an HMAC over it, under a
 * key derived from ADMIN_TOKEN, honoured only while its server-side record is open
 * (session-record.ts: sign-out closes it). Rotating the token changes the key, so every
 * session ends at once; a session ends by itself 8 hours after sign-in.
 *
 * On https the cookie is `__Host-ucp_console` (Secure, Path=/, no Domain): a sibling subdomain
 * cannot plant or overwrite it, which matters more than scoping it to /admin (a path is no
 * security boundary within one origin, and only this Worker serves it). On http (local
 * development) browsers refuse `__Host-`, so it is `ucp_console` with Path=/admin.
 */

import { constantTimeEqual, cookieValue } from "../../lib/cookies";
import { hmacKey } from "../../lib/hmac-key";
import { fromBase64Url, toBase64Url } from "../../lib/ids";

export const SESSION_MS = 8 * 3600_000;
const SECURE_NAME = "__Host-ucp_console";
const PLAIN_NAME = "ucp_console";
const VERSION = "v1";

export interface ConsoleSession {
  readonly sid: string;
  /** Epoch ms. */
  readonly exp: number;
}

async function mac(label: string, secret: string, text: string): Promise<string> {
  const sig = await crypto.subtle.sign(
    "HMAC",
    // One key per purpose and secret (the admin token, the id secret).
    await hmacKey(`ucp-worker ${label}\u0000${secret}`),
    new TextEncoder().encode(text),
  );
  return toBase64Url(new Uint8Array(sig));
}

function cookieName(secure: boolean): string {
  return secure ? SECURE_NAME : PLAIN_NAME;
}

function attributes(secure: boolean): string {
  return secure ? "Path=/; HttpOnly; SameSite=Strict; Secure" : "Path=/admin; HttpOnly; SameSite=Strict";
}

/** A fresh session and the Set-Cookie that hands it to the browser. */
export async function startSession(
  adminToken: string,
  now: number,
  secure: boolean,
): Promise<{ session: ConsoleSession; setCookie: string }> {
  const session = { sid: toBase64Url(crypto.getRandomValues(new Uint8Array(18))), exp: now + SESSION_MS };
  const payload = toBase64Url(new TextEncoder().encode(JSON.stringify(session)));
  const value = `${VERSION}.${payload}.${await mac("console session", adminToken, `${VERSION}.${payload}`)}`;
  return {
    session,
    setCookie: `${cookieName(secure)}=${value}; ${attributes(secure)}; Max-Age=${SESSION_MS / 1000}`,
  };
}

export function endSessionCookie(secure: boolean): string {
  return `${cookieName(secure)}=; ${attributes(secure)}; Max-Age=0`;
}

/** The request's session when its cookie is ours, unaltered and unexpired; otherwise undefined. */
export async function readSession(
  request: Request,
  adminToken: string,
  now: number,
  secure: boolean,
): Promise<ConsoleSession | undefined> {
  const value = cookieValue(request, cookieName(secure));
  if (!value || value.length > 512) return undefined;
  const [version, payload, sent, ...rest] = value.split(".");
  if (version !== VERSION || !payload || !sent || rest.length > 0) return undefined;
  const expected = await mac("console session", adminToken, `${version}.${payload}`);
  if (!constantTimeEqual(sent, expected)) return undefined;
  const bytes = fromBase64Url(payload);
  if (!bytes) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
  const { sid, exp } = (parsed ?? {}) as Partial<ConsoleSession>;
  if (typeof sid !== "string" || typeof exp !== "number") return undefined;
  // Past its expiry, or further ahead than a session lasts (a key that signs those is not ours).
  if (exp <= now || exp > now + SESSION_MS) return undefined;
  return { sid, exp };
}

/**
 * The `_csrf` value for a signed-in principal: an HMAC of its id under the store's id secret.
 * A page on another site can neither read it nor compute it.
 */
export function consoleCsrfToken(idSecret: string, principalId: string): Promise<string> {
  return mac("console csrf", idSecret, principalId);
}
